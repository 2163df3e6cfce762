"""Where each hex and each hex side of a hex map goes on the text grid.

Shared by the boards drawn as outlined hexes (Paris Connection, Railways of the
World): every hex owns its three middle cells and its two apexes, and every hex
side owns the one cell between two centres, drawn with a wall glyph. A game
marks some sides (checkered borders, ridges) by passing them in.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from textual.geometry import Region

from railgames.app.widgets.board_base import Cell
from railgames.core.hexgrid import AXIAL_DIRECTIONS, Hex

HEX_WIDTH = 4  # columns from one hex centre to the next in a row
EDGE_GLYPHS = {"|": "│", "/": "╱", "\\": "╲"}

Side = tuple[Hex, Hex]


def hex_id(col: int, row: int) -> str:
    return f"{col},{row}"


class HexLayout:
    """The grid positions of a hex map's hexes and sides; ``marked`` sides are flagged."""

    def __init__(self, game_map: Any, marked: Collection[Side] = frozenset()) -> None:
        self.map = game_map
        land = list(game_map.terrain)
        raw = {h: self._raw_centre(h) for h in land}
        self.x0 = min(x for x, _ in raw.values()) - 2
        self.centre: dict[Hex, Cell] = {h: (x - self.x0, y) for h, (x, y) in raw.items()}
        self.width = max(x for x, _ in self.centre.values()) + 3
        self.height = max(y for _, y in self.centre.values()) + 2
        self.id_of: dict[Hex, str] = {h: hex_id(*game_map.offset_of(h)) for h in land}
        self.hex_of: dict[str, Hex] = {i: h for h, i in self.id_of.items()}
        # The cells a hex owns: its three middle cells and the two apexes.
        self.owner: dict[Cell, Hex] = {}
        for h, (x, y) in self.centre.items():
            for cell in ((x - 1, y), (x, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                self.owner[cell] = h
        # Hex sides: every side of a land hex, once, with its glyph and whether it is marked.
        self.edges: dict[Cell, tuple[str, bool]] = {}
        self.side_cell: dict[Side, Cell] = {}
        for h in land:
            x, y = self.centre[h]
            for d in AXIAL_DIRECTIONS:
                n = h + d
                nx, ny = self._raw_centre(n)
                nx -= self.x0
                cell = ((x + nx) // 2, (y + ny) // 2)
                side = (h, n) if h <= n else (n, h)
                self.side_cell[side] = cell
                if cell in self.edges:
                    continue
                dx, dy = nx - x, ny - y
                glyph = "|" if dy == 0 else ("\\" if (dx > 0) != (dy > 0) else "/")
                self.edges[cell] = (EDGE_GLYPHS[glyph], side in marked)
        self.hexes_on_row: dict[int, list[Hex]] = {}
        for h, (_, y) in sorted(self.centre.items(), key=lambda kv: kv[1]):
            self.hexes_on_row.setdefault(y, []).append(h)

    def _raw_centre(self, h: Hex) -> Cell:
        col, row = self.map.offset_of(h)
        return HEX_WIDTH * col + 2 + (2 if row & 1 else 0), 2 * row + 1

    def region(self, h: Hex) -> Region:
        """The hex with its outline, in board (virtual) coordinates."""
        x, y = self.centre[h]
        return Region(x - 2, y - 1, 5, 3)

    def rows_of(self, h: Hex) -> range:
        y = self.centre[h][1]
        return range(y - 1, y + 2)

    def step(self, origin: Hex, direction: str, home_x: int) -> Hex | None:
        """The hex a cursor move from ``origin`` lands on, or None at the edge of the map.

        Left and right keep to the row; up and down go to the nearest row with a
        hex close below or above, zigzagging round ``home_x`` (the column the
        cursor was last put in) so that a run of presses goes straight.
        """
        x, y = self.centre[origin]
        if direction in ("left", "right"):
            sign = 1 if direction == "right" else -1
            row = [h for h in self.hexes_on_row[y] if (self.centre[h][0] - x) * sign > 0]
            return min(row, key=lambda h: abs(self.centre[h][0] - x), default=None)
        sign = 1 if direction == "down" else -1
        best: tuple[int, int, Hex] | None = None
        for h, (hx, hy) in self.centre.items():
            rows = (hy - y) * sign // 2
            if rows <= 0 or abs(hx - x) > 2 * rows:
                continue
            key = (rows, abs(hx - home_x), h)
            if best is None or key[:2] < best[:2]:
                best = key
        return best[2] if best else None

    def hex_at(self, cell: Cell) -> Hex | None:
        return self.owner.get(cell)
