"""Where each hex and each hex side of a hex map goes on the text grid.

Shared by the boards drawn a line per row of hexes (Paris Connection, Railways
of the World): see ``CompactHexLayout``. A game marks some sides (checkered
borders, ridges) by passing them in.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from textual.geometry import Region

from railgames.app.widgets.board_base import Cell
from railgames.core.hexgrid import AXIAL_DIRECTIONS, Hex

HEX_WIDTH = 4  # columns from one hex centre to the next in a row

Side = tuple[Hex, Hex]


def hex_id(col: int, row: int) -> str:
    return f"{col},{row}"


class CompactHexLayout:
    """A pointy-top hex map with one text line per row of hexes: half the height of
    the outlined drawing, so that a whole country fits beside the game's panels.

    Each hex owns three cells on its row's line (its middle and the cells either
    side); two hexes side by side in a row share the cell between them, where a
    wall is drawn. Rows of hexes are stacked straight on top of one another,
    except after the rows listed in ``gaps``: there the board leaves a line, on
    which the sides between the two rows can be marked and places named. A row
    ``-1`` in ``gaps`` leaves a line above the first row.

    ``labels`` names some hexes (cities): each name is put on a line left free
    next to its hex, above or below it (straight, else one cell aside), or in
    the sea beside it in its own row, wherever it touches no other mark. A marked
    side that falls between two rows with no line between them is an error, and
    so is a name with no room: the map file says where to leave lines.
    """

    def __init__(self, game_map: Any, marked: Collection[Side] = frozenset(),
                 gaps: Collection[int] = (), labels: dict[Hex, str] | None = None) -> None:
        self.map = game_map
        land = list(game_map.terrain)
        self.land = set(land)
        rows = sorted({game_map.offset_of(h)[1] for h in land})
        self.line_of: dict[int, int] = {}
        line = 1 if -1 in gaps else 0
        for row in range(rows[0], rows[-1] + 1):
            self.line_of[row] = line
            line += 2 if row in gaps else 1
        self.height = line
        self.gap_lines = {self.line_of[row] + 1 for row in gaps if row in self.line_of}
        if -1 in gaps:
            self.gap_lines.add(0)
        raw = {h: self._raw_x(h) for h in land}
        self.x0 = min(raw.values()) - 2
        self.centre: dict[Hex, Cell] = {
            h: (raw[h] - self.x0, self.line_of[game_map.offset_of(h)[1]]) for h in land}
        self.width = max(x for x, _ in self.centre.values()) + 3
        self.id_of: dict[Hex, str] = {h: hex_id(*game_map.offset_of(h)) for h in land}
        self.hex_of: dict[str, Hex] = {i: h for h, i in self.id_of.items()}
        self.owner: dict[Cell, Hex] = {}
        for h, (x, y) in self.centre.items():
            for cell in ((x - 1, y), (x, y), (x + 1, y)):
                self.owner[cell] = h
        # Sides: the wall between two hexes of a row, and, where a line is left
        # between two rows, the cell between a hex and its neighbour on the other row.
        self.walls: set[Cell] = set()
        self.marked_cells: set[Cell] = set()
        self.side_cell: dict[Side, Cell] = {}
        for h in land:
            x, y = self.centre[h]
            for d in AXIAL_DIRECTIONS:
                n = h + d
                side = (h, n) if h <= n else (n, h)
                nx = self._raw_x(n) - self.x0
                ny = self.line_of.get(game_map.offset_of(n)[1])
                if ny == y:
                    cell: Cell | None = ((x + nx) // 2, y)
                    if n in self.land:
                        self.walls.add(cell)
                elif ny is not None and abs(ny - y) == 2:
                    cell = ((x + nx) // 2, (y + ny) // 2)
                else:
                    cell = None
                if cell is not None:
                    self.side_cell[side] = cell
                if side in marked:
                    if cell is None:
                        a, b = sorted((game_map.offset_of(k) for k in side),
                                      key=lambda o: (o[1], o[0]))
                        raise ValueError(f"the marked side between {list(a)} and {list(b)} lies "
                                         "between two rows with no line left between them")
                    self.marked_cells.add(cell)
        self.hexes_on_row: dict[int, list[Hex]] = {}
        for h, (_, y) in sorted(self.centre.items(), key=lambda kv: kv[1]):
            self.hexes_on_row.setdefault(y, []).append(h)
        self.label_at: dict[Hex, tuple[int, int, str]] = {}  # hex -> (x0, line, text)
        self._place_labels(labels or {})

    def _raw_x(self, h: Hex) -> int:
        col, row = self.map.offset_of(h)
        return HEX_WIDTH * col + 2 + (2 if row & 1 else 0)

    # ------------------------------------------------------------ names
    def _place_labels(self, labels: dict[Hex, str]) -> None:
        taken: set[Cell] = set(self.owner) | self.marked_cells
        named: set[Cell] = set()  # cells of names placed so far

        def fits(x0: int, y: int, n: int) -> bool:
            cells = [(x, y) for x in range(x0, x0 + n)]
            if x0 < 0 or x0 + n > self.width:
                return False
            if any(c in taken or c in named for c in cells):
                return False
            # Nothing may touch a name on its left or right.
            left, right = (x0 - 1, y), (x0 + n, y)
            return not any(c in taken or c in named for c in (left, right))

        # Crowded rows first: the fewer places a name can go, the sooner it is placed.
        def choices(h: Hex, text: str) -> list[tuple[int, int]]:
            x, y = self.centre[h]
            n = len(text)
            start = x - (n - 1) // 2
            out = []
            for shift in (0, -1, 1):
                for dy in (-1, 1):
                    if y + dy in self.gap_lines:
                        out.append((start + shift, y + dy))
            out.append((x + 3, y))  # in the sea to the right
            out.append((x - 2 - n, y))  # in the sea to the left
            return out

        pending = sorted(labels, key=lambda h: (len([c for c in choices(h, labels[h])
                                                     if fits(*c, len(labels[h]))]), self.centre[h]))
        for h in pending:
            text = labels[h]
            spot = next((c for c in choices(h, text) if fits(*c, len(text))), None)
            if spot is None:
                col, row = self.map.offset_of(h)
                raise ValueError(f"no room to name [{col}, {row}] ({text}): leave a line "
                                 "above or below its row")
            x0, y = spot
            self.label_at[h] = (x0, y, text)
            named.update((x, y) for x in range(x0, x0 + len(text)))

    # ------------------------------------------------------------ geometry
    def region(self, h: Hex) -> Region:
        """The hex's three cells, in board (virtual) coordinates."""
        x, y = self.centre[h]
        return Region(x - 1, y, 3, 1)

    def label_region(self, h: Hex) -> Region | None:
        if h not in self.label_at:
            return None
        x0, y, text = self.label_at[h]
        return Region(x0, y, len(text), 1)

    def rows_of(self, h: Hex) -> range:
        y = self.centre[h][1]
        return range(y, y + 1)

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
        here = origin.r
        best: tuple[int, int, Hex] | None = None
        for h, (hx, _) in self.centre.items():
            rows = (h.r - here) * sign
            if rows <= 0 or abs(hx - x) > 2 * rows:
                continue
            key = (rows, abs(hx - home_x), h)
            if best is None or key[:2] < best[:2]:
                best = key
        return best[2] if best else None

    def hex_at(self, cell: Cell) -> Hex | None:
        h = self.owner.get(cell)
        if h is not None:
            return h
        for hh, (x0, y, text) in self.label_at.items():
            if y == cell[1] and x0 <= cell[0] < x0 + len(text):
                return hh
        return None
