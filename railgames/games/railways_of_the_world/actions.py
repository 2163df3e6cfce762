"""Railways of the World actions: one discriminated union on ``type``.

The auction is ``bid`` and ``pass_bid``. Each round a player picks one action:
``upgrade_engine`` and ``pass_action`` are complete on their own; building,
urbanizing and delivering are first chosen with ``choose`` (``cancel`` goes
back before anything is done), then carried out. A build is a run of
``lay_track`` actions, one tile each, closed by ``end_build`` (or at once when
the link reaches a city). Hexes are named by their offset ``[column, row]``;
the string ``"column,row"`` is accepted as well. Money is in dollars.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from railgames.core.action_schema import ActionAdapter
from railgames.core.engine import Action
from railgames.core.hexgrid import parse_hex


class Bid(Action):
    """Bid for the First Player marker (bonds are issued if the winner cannot pay)."""

    type: Literal["bid"] = "bid"
    amount: int = Field(ge=1)


class PassBid(Action):
    """Drop out of this turn's auction for good."""

    type: Literal["pass_bid"] = "pass_bid"


class Choose(Action):
    """Pick this round's action: build track, urbanize or deliver a goods cube."""

    type: Literal["choose"] = "choose"
    action: Literal["build", "urbanize", "deliver"]


class Cancel(Action):
    """Go back to choosing an action (only before anything has been done)."""

    type: Literal["cancel"] = "cancel"


class LayTrack(Action):
    """Lay one track tile on ``hex``, entering from ``entry`` and leaving toward ``exit``.

    ``entry`` is a city (a new link starts there) or the last tile of the
    link being built or extended; ``exit`` is the neighbouring hex the tile
    points at: a city completes the link.
    """

    type: Literal["lay_track"] = "lay_track"
    hex: tuple[int, int]
    entry: tuple[int, int]
    exit: tuple[int, int]

    _hexes = field_validator("hex", "entry", "exit", mode="before")(parse_hex)


class EndBuild(Action):
    """Stop building (the link stays incomplete until extended or removed)."""

    type: Literal["end_build"] = "end_build"


class Urbanize(Action):
    """Put a New City tile of ``colour`` on the gray city ``city``."""

    type: Literal["urbanize"] = "urbanize"
    city: str
    colour: str


class UpgradeEngine(Action):
    """Buy the engine card of ``level`` (one more than the present one)."""

    type: Literal["upgrade_engine"] = "upgrade_engine"
    level: int


class Deliver(Action):
    """Move one ``colour`` cube from ``city`` along ``links`` (link ids, in order)."""

    type: Literal["deliver"] = "deliver"
    city: str
    colour: str
    links: tuple[str, ...] = Field(min_length=1)


class PassAction(Action):
    """Do nothing this round."""

    type: Literal["pass_action"] = "pass_action"


RotwAction = Annotated[
    Bid | PassBid | Choose | Cancel | LayTrack | EndBuild | Urbanize | UpgradeEngine | Deliver
    | PassAction,
    Field(discriminator="type"),
]

ACTION_ADAPTER = ActionAdapter(RotwAction)
