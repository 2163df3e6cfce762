"""Steel Driver actions: one discriminated union on ``type``.

Control auctions are three actions: the holder of the Active Player marker
puts a company up (``put_up``) or passes the marker on (``pass_marker``); the
bidding, the opening bid included, is ``bid`` and ``pass_bid``. Track is built
one link per action, naming the company, the route and, for a company's very
first link only, the starting location it is built from. At the end each
company claims goods cubes one at a time (``claim``). A company never passes
by choice: the rules pass it when it can do nothing more.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from railgames.core.action_schema import ActionAdapter
from railgames.core.engine import Action


class PutUp(Action):
    """Put a company's control marker up for auction (its opening bid follows)."""

    type: Literal["put_up"] = "put_up"
    company: str


class PassMarker(Action):
    """Pass the Active Player marker to the player on the left."""

    type: Literal["pass_marker"] = "pass_marker"


class Bid(Action):
    """Bid investment cubes for the company under auction (the opening bid too)."""

    type: Literal["bid"] = "bid"
    amount: int = Field(ge=1)


class PassBid(Action):
    """Drop out of the auction under way."""

    type: Literal["pass_bid"] = "pass_bid"


class BuildTrack(Action):
    """The active company builds one track link along ``route``.

    ``start`` is given on the company's first link only: the starting location
    it is built from, whose value it never earns.
    """

    type: Literal["build"] = "build"
    company: str
    route: str
    start: str | None = None


class ClaimGoods(Action):
    """At the end, the active company takes the goods cube waiting at ``location``."""

    type: Literal["claim"] = "claim"
    company: str
    location: str


SteelDriverAction = Annotated[
    PutUp | PassMarker | Bid | PassBid | BuildTrack | ClaimGoods,
    Field(discriminator="type"),
]

ACTION_ADAPTER = ActionAdapter(SteelDriverAction)
