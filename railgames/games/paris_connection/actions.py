"""Paris Connection actions: one discriminated union on ``type``.

A build is a run of single placements inside one turn: the first ``build``
chooses the company, later ones (up to five in all) must be of the same
company, and ``end_build`` closes the turn. Every placement is listed, checked
and logged on its own, and each can be taken back until the build is closed.
Hexes are named by their offset position ``[column, row]`` on the map grid;
the string ``"column,row"`` is accepted as well.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from railgames.core.action_schema import ActionAdapter
from railgames.core.engine import Action
from railgames.core.hexgrid import parse_hex


class Build(Action):
    """Place one locomotive of ``company`` from its supply on ``hex``."""

    type: Literal["build"] = "build"
    company: str
    hex: tuple[int, int]

    _hex = field_validator("hex", mode="before")(parse_hex)


class EndBuild(Action):
    """Close this turn's build (after at least one placement)."""

    type: Literal["end_build"] = "end_build"


class Trade(Action):
    """Return one locomotive of ``give`` to its supply; take ``count`` of ``take``."""

    type: Literal["trade"] = "trade"
    give: str
    take: str
    count: Literal[1, 2]


ParisConnectionAction = Annotated[Build | EndBuild | Trade, Field(discriminator="type")]

ACTION_ADAPTER = ActionAdapter(ParisConnectionAction)
