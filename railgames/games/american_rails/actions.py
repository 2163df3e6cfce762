"""American Rails actions: one discriminated union on ``type``.

A player's turn in an action phase is ``take_space`` (moving the marker to a
free space of the action track's column) and then what that space allows:
``develop``, ``fund``, ``take_two``, ``expand_two``, ``place_cube`` (one cube
at a time) and ``offer`` (the share to auction). ``end_action`` carries out no
more of the action, or none of it: a player may always leave an action undone.
Auctions are ``bid`` and ``pass_bid``; a new company's first cube goes down
with ``place_start``. Hexes are named by their [column, row] on the map.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from railgames.core.action_schema import ActionAdapter
from railgames.core.engine import Action


class OfferShare(Action):
    """Put one share of ``company`` up for auction."""

    type: Literal["offer"] = "offer"
    company: str


class Bid(Action):
    type: Literal["bid"] = "bid"
    amount: int = Field(ge=1)


class PassBid(Action):
    """Drop out of the auction under way, for good."""

    type: Literal["pass_bid"] = "pass_bid"


class PlaceStart(Action):
    """The auction's winner puts a new company's first cube on an empty city."""

    type: Literal["place_start"] = "place_start"
    city: str


class TakeSpace(Action):
    """Move one's marker to a free space (``pass``, ``develop``, ...) of the current column."""

    type: Literal["take_space"] = "take_space"
    space: str


class Develop(Action):
    type: Literal["develop"] = "develop"
    city: str


class Fund(Action):
    """Fund $5: five dollars from the bank into a company's treasury."""

    type: Literal["fund"] = "fund"
    company: str


class TakeTwo(Action):
    """Take $2 from the bank, or make every other player pay $2 to the bank."""

    type: Literal["take_two"] = "take_two"
    source: Literal["bank", "players"]


class ExpandTwo(Action):
    """At four or five players, use the Take $2 space for an Expand 2 instead."""

    type: Literal["expand_two"] = "expand_two"


class PlaceCube(Action):
    """Place one cube of ``company`` on the hex at [column, row], paid from its treasury."""

    type: Literal["place_cube"] = "place_cube"
    company: str
    hex: tuple[int, int]


class EndAction(Action):
    """Carry out no more of the chosen action (or none of it)."""

    type: Literal["end_action"] = "end_action"


AmericanRailsAction = Annotated[
    OfferShare | Bid | PassBid | PlaceStart | TakeSpace | Develop | Fund | TakeTwo | ExpandTwo
    | PlaceCube | EndAction,
    Field(discriminator="type"),
]

ACTION_ADAPTER = ActionAdapter(AmericanRailsAction)
