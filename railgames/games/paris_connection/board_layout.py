"""Where the Paris Connection board puts its cities' names.

The board is the compact hex layout (a line per row of hexes, with lines left
free between some rows). A name on a free line between two rows would be as
near the hex above it as the one below, so such a name carries an arrow, put
straight over (``↓``) or under (``↑``) the middle of its city, the name beside
it; a name in the sea beside its city, on the city's own row, needs none::

     LIL↓
     (2)│ · │(R)│Y G│ ·  BRE (2)│ ·
       ↑CAL
"""

from __future__ import annotations

from railgames.app.widgets.board_base import Cell
from railgames.app.widgets.hex_layout import CompactHexLayout
from railgames.core.hexgrid import Hex

DOWN = "↓"  # the name's city is on the row below
UP = "↑"  # the name's city is on the row above


class PCLayout(CompactHexLayout):
    """The compact hex layout, each city's name on its own row or pointing at it.

    ``label_at`` holds, for each city, where its name starts, its line and the
    text drawn there, the arrow included.
    """

    def _place_labels(self, labels: dict[Hex, str]) -> None:
        taken: set[Cell] = set(self.owner) | self.marked_cells
        named: set[Cell] = set()  # cells of names placed so far

        def fits(x0: int, y: int, n: int, away: int = 0) -> bool:
            """Whether cells ``x0`` to ``x0 + n - 1`` of line ``y`` are free, and one either
            side (nothing touches a name); on the side ``away`` (-1 left, 1 right) two, so
            that a name beside its city is nearer to it than to anything past it."""
            lo, hi = x0 - 1 - (away < 0), x0 + n + (away > 0)
            if lo < 0 or hi >= self.width:
                return False
            return not any((x, y) in taken or (x, y) in named for x in range(lo, hi + 1))

        def spots(h: Hex, name: str) -> list[tuple[int, int, str, int]]:
            """Where the name may go, best first: on the city's row in the sea beside it,
            then on a free line over or under it with its arrow."""
            x, y = self.centre[h]
            n = len(name)
            out = [(x - 2 - n, y, name, -1), (x + 3, y, name, 1)]
            for dy, arrow in ((-1, DOWN), (1, UP)):
                if y + dy in self.gap_lines:
                    out.append((x - n, y + dy, name + arrow, 0))
                    out.append((x, y + dy, arrow + name, 0))
            return out

        def free(spot: tuple[int, int, str, int]) -> bool:
            return fits(spot[0], spot[1], len(spot[2]), spot[3])

        # The fewer places a name can go, the sooner it is placed.
        pending = sorted(labels, key=lambda h: (
            len([s for s in spots(h, labels[h]) if free(s)]), self.centre[h]))
        for h in pending:
            name = labels[h]
            spot = next((s for s in spots(h, name) if free(s)), None)
            if spot is None:
                col, row = self.map.offset_of(h)
                raise ValueError(f"no room to name [{col}, {row}] ({name}): leave a line "
                                 "above or below its row")
            x0, y, text, _ = spot
            self.label_at[h] = (x0, y, text)
            named.update((x, y) for x in range(x0, x0 + len(text)))
