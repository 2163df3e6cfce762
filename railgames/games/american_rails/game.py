"""American Rails: what the suite knows of it before importing it (see games/descriptor.py)."""

from railgames.games.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="american-rails",
    title="American Rails",
    players=(3, 5),
    package=__name__.rpartition(".")[0],
    rules="rules:AmericanRailsRules",
    board="board:AmericanRailsBoard",
    ui="ui:AmericanRailsUI",
    keys=(("p", "Pass"), ("e", "End action")),
)
