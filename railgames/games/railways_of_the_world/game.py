"""Railways of the World: what the suite knows of it before importing it (see games/descriptor.py)."""

from railgames.games.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="railways-of-the-world",
    title="Railways of the World",
    players=(2, 6),
    package=__name__.rpartition(".")[0],
    rules="rules:RailwaysOfTheWorldRules",
    board="board:RotwBoard",
    ui="ui:RotwUI",
    keys=(("p", "Pass"), ("e", "End build")),
)
