"""Partial screen updates that start where the change starts.

When part of a line changes, Textual (8.2) writes that line from the left edge of
the widget up to the end of the change: moving the board cursor onto a city in
column 80 rewrites the 80 cells before it, style codes and all, on two rows. This
update writes the same cells from the first of the widget's segments that the
change touches instead. The terminal ends up showing exactly the same screen.
"""

from __future__ import annotations

from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate
from textual.strip import Strip


def _first_cell(strip: Strip, skip: int) -> int:
    """The start of the segment holding cell ``skip`` (never inside a segment)."""
    start = 0
    for segment in strip:
        width = segment.cell_length
        if start + width > skip:
            break
        start += width
    return start


class TightChopsUpdate(ChopsUpdate):
    @classmethod
    def from_update(cls, update: ChopsUpdate) -> TightChopsUpdate:
        return cls(update.chops, update.spans, update.chop_ends)

    def render_segments(self, console: Console) -> str:
        # As ChopsUpdate.render_segments, except for the left crop of partial chops.
        sequences: list[str] = []
        append = sequences.append
        move_to = Control.move_to
        chops = self.chops
        chop_ends = self.chop_ends
        last_y = self.spans[-1][0]

        for y, x1, x2 in self.spans:
            line = chops[y]
            ends = chop_ends[y]
            for end, (x, strip) in zip(ends, line.items(), strict=False):
                if strip is None:
                    continue
                if x > x2 or end <= x1:
                    continue
                if x2 > x >= x1 and end <= x2:
                    append(move_to(x, y).segment.text)
                    append(strip.render(console))
                    continue
                start = _first_cell(strip, x1 - x) if x < x1 else 0
                strip = strip.crop(start, min(end, x2) - x)
                append(move_to(x + start, y).segment.text)
                append(strip.render(console))

            if y != last_y:
                append("\n")

        return "".join(sequences)
