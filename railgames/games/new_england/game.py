"""New England Railways: what the suite knows of it before importing it (see games/descriptor.py)."""

from railgames.games.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="new-england",
    title="New England Railways",
    players=(3, 6),
    package=__name__.rpartition(".")[0],
    rules="rules:NewEnglandRules",
    board="board:NewEnglandBoard",
    ui="ui:NewEnglandUI",
    keys=(("p", "Pass"), ("y", "Pay now"), ("n", "Wait")),
)
