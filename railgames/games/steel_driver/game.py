"""Steel Driver: what the suite knows of it before importing it (see games/descriptor.py)."""

from railgames.games.descriptor import GameDescriptor

GAME = GameDescriptor(
    id="steel-driver",
    title="Steel Driver",
    players=(3, 6),
    package=__name__.rpartition(".")[0],
    rules="rules:SteelDriverRules",
    board="board:SteelDriverBoard",
    ui="ui:SteelDriverUI",
    keys=(("p", "Pass"),),
)
