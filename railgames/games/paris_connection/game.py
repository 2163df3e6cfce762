"""Paris Connection: what the suite knows of it before importing it (see games/descriptor.py)."""

from railgames.games.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="paris-connection",
    title="Paris Connection",
    players=(3, 6),
    package=__name__.rpartition(".")[0],
    rules="rules:ParisConnectionRules",
    board="board:ParisConnectionBoard",
    ui="ui:ParisConnectionUI",
    keys=(("e", "End build"),),
)
