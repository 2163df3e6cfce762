"""New England Railways actions: one discriminated union on ``type``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from railgames.core.action_schema import ActionAdapter
from railgames.core.engine import Action


class Borrow(Action):
    """Take Bank Loans in $10 units (0 means take none this turn)."""

    type: Literal["borrow"] = "borrow"
    amount: int = Field(ge=0)


class Retire(Action):
    """Pay cash to retire Bank Loan debt in $10 units (0 means keep it all)."""

    type: Literal["retire"] = "retire"
    amount: int = Field(ge=0)


class Bid(Action):
    type: Literal["bid"] = "bid"
    amount: int = Field(ge=1)


class PassBid(Action):
    """Drop out of the auction for the current Railway Link."""

    type: Literal["pass_bid"] = "pass_bid"


class FinishLink(Action):
    """After a short build roll: pay the difference now (True) or let it finish next turn."""

    type: Literal["finish_link"] = "finish_link"
    pay: bool


class Ship(Action):
    """Move one cube of ``colour`` from ``path[0]`` along built links to ``path[-1]``."""

    type: Literal["ship"] = "ship"
    colour: str
    path: list[str] = Field(min_length=2)


class PassShip(Action):
    type: Literal["pass_ship"] = "pass_ship"


NewEnglandAction = Annotated[
    Borrow | Retire | Bid | PassBid | FinishLink | Ship | PassShip,
    Field(discriminator="type"),
]

ACTION_ADAPTER = ActionAdapter(NewEnglandAction)
