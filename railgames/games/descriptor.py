"""What the suite knows of a game before importing any of it: one descriptor per game.

Each game's folder holds a ``game.py`` with ``GAME = GameDescriptor(...)``; the
registry (``railgames.games``) reads them. The parts of a game are named by
import path ("rules:NewEnglandRules", relative to the game's package), so that
looking a game up imports neither its rules nor Textual, and a game may live
outside this package (its ``package`` is then its own).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GameDescriptor:
    id: str  # as records, maps and the command line name it: "new-england"
    title: str  # shown before the rules are imported (the launcher's first frame)
    players: tuple[int, int]  # fewest and most (a map may narrow it)
    package: str  # the game's folder as a package: "railgames.games.new_england"
    rules: str  # its Ruleset class: "rules:NewEnglandRules"
    board: str  # its board widget (Textual), with the CSS for the screens showing it
    ui: str | None = None  # its GameUI (what the panels say); None: the plain one
    help: str = "help.md"  # the rules help, a file of the package
    # The one-key choices its UI offers (GameUI.hotkeys), as (key, word for the footer),
    # in the order the footer shows them.
    keys: tuple[tuple[str, str], ...] = ()
    # A folder of its own map files, for a game from outside the package (the shipped
    # games' maps are in maps/).
    maps: Path | None = None
    in_launcher: bool = True  # False: playable from the command line only

    def load(self, target: str) -> Any:
        """The object named by ``target`` ("module:Name", the module relative to the package)."""
        module, _, name = target.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)
