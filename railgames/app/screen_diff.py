"""Screen updates that write only the cells the terminal does not show already.

Textual repaints whole widgets, or whole lines of them: a moving cursor on the
board, a panel whose height changes, a new screen over the game all send every
cell of what was repainted, though most of those cells are what the terminal
shows already. Over a slow link (play over SSH) that is most of the bytes.

``ScreenDiff`` keeps a copy of what the terminal shows, cell by cell (character
and style). Each update from Textual's compositor, partial or full, is compared
with it; only runs of cells that differ are written, each after a cursor move,
two runs close together as one. What the terminal ends up showing is exactly
what Textual meant to show.

The copy is forgotten (every cell unknown, so the next update is written in
full) when the terminal's size changes or the app comes back from a suspend.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.strip import Strip

# A run of unchanged cells at most this long between two changed ones is written
# again rather than skipped with a cursor move (which costs about as many bytes).
JOIN_GAP = 6

# One cell: (character, style key, style). The key is what reaches the terminal
# (the SGR codes and any link), so styles that differ only in what the terminal
# never sees (mouse metadata) count as the same. A wide character's second cell
# has the character "" (it is drawn by the first).
CellT = tuple[str, object, Style | None]
UNKNOWN: CellT = ("\0", None, None)


_BLANK_KEYS: dict[Style, object] = {}


def _blank_key(style: Style | None, color_system: ColorSystem) -> object:
    """The key of a blank cell: a colour or boldness it cannot show makes no difference."""
    if style is None:
        return ""
    key = _BLANK_KEYS.get(style)
    if key is None:
        if style.reverse or style.underline or style.strike or style.overline or style.underline2:
            key = _key(style, color_system)
        else:
            key = _key(Style(bgcolor=style.bgcolor), color_system)
        if len(_BLANK_KEYS) > 4096:
            _BLANK_KEYS.clear()
        _BLANK_KEYS[style] = key
    return key


def _key(style: Style | None, color_system: ColorSystem) -> object:
    if style is None:
        return ""
    ansi = style._ansi
    if ansi is None:
        ansi = Strip.render_ansi(style, color_system)
    link = style._link
    return (ansi, link) if link else ansi


def strip_cells(segments: Iterable[Segment], color_system: ColorSystem) -> list[CellT]:
    """The cells of a line's segments, in order."""
    cells: list[CellT] = []
    extend = cells.extend
    append = cells.append
    for text, style, control in segments:
        if control or not text:
            continue
        key = _key(style, color_system)
        if text.isascii():
            if " " in text:
                blank = _blank_key(style, color_system)
                extend([(ch, blank if ch == " " else key, style) for ch in text])
            else:
                extend([(ch, key, style) for ch in text])
            continue
        for ch in text:
            width = get_character_cell_size(ch)
            if width == 1:
                append((ch, _blank_key(style, color_system) if ch == " " else key, style))
            elif width == 2:
                append((ch, key, style))
                append(("", key, style))
            elif cells:  # a combining mark joins the character before it
                prev, pkey, pstyle = cells[-1]
                cells[-1] = (prev + ch, pkey, pstyle)
    return cells


def _wide_first(row: list[CellT], col: int) -> bool:
    """Whether the cell at ``col`` holds a wide character (the next cell is its other half)."""
    ch = row[col][0]
    return bool(ch) and ch != "\0" and get_character_cell_size(ch[0]) == 2


class ScreenDiff:
    """What the terminal shows; turns compositor updates into the bytes that change it."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.rows: list[list[CellT]] = []

    def forget(self) -> None:
        """The terminal may show anything now: write the next update in full."""
        self.rows = [[UNKNOWN] * self.width for _ in range(self.height)]

    def resize(self, width: int, height: int) -> None:
        if (width, height) != (self.width, self.height):
            self.width, self.height = width, height
            self.forget()

    # ------------------------------------------------------------ updates
    def lines_of(self, update: CompositorUpdate) -> list[tuple[int, int, list[Strip]]] | None:
        """(y, x, strips side by side from x) for each line an update paints; None if unknown."""
        if isinstance(update, LayoutUpdate):
            x = update.region.x
            return [(y, x, list(line)) for y, line in enumerate(update.strips, update.region.y)]
        if isinstance(update, ChopsUpdate):
            out: list[tuple[int, int, list[Strip]]] = []
            chops, chop_ends = update.chops, update.chop_ends
            for y, x1, x2 in update.spans:
                for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
                    if strip is None or x >= x2 or end <= x1:
                        continue
                    # As Textual writes it: the chop from its start to the end of the span.
                    stop = min(end, x2)
                    if stop < end:
                        strip = strip.crop(0, stop - x)
                    out.append((y, x, [strip]))
            return out
        return None

    def render(self, update: CompositorUpdate, console: Console) -> str:
        """The bytes that make the terminal show what ``update`` paints."""
        lines = self.lines_of(update)
        if lines is None:
            self.forget()
            return update.render_segments(console)
        color_system = console._color_system or ColorSystem.TRUECOLOR
        out: list[str] = []
        for y, x, strips in lines:
            if not 0 <= y < self.height:
                continue
            cells: list[CellT] = []
            for strip in strips:
                cells.extend(strip_cells(strip, color_system))
            self._write_line(out, y, x, cells, color_system)
        return "".join(out)

    def _write_line(self, out: list[str], y: int, x: int, cells: list[CellT],
                    color_system: ColorSystem) -> None:
        row = self.rows[y]
        width = self.width
        stop = min(x + len(cells), width)
        if stop <= x:
            return
        # Runs of cells (start, end) that differ from the terminal.
        runs: list[list[int]] = []
        for col in range(x, stop):
            new = cells[col - x]
            old = row[col]
            if new[0] == old[0] and new[1] == old[1]:
                continue
            if runs and col - runs[-1][1] <= JOIN_GAP:
                runs[-1][1] = col + 1
            else:
                runs.append([col, col + 1])
        if not runs:
            return
        render = Strip.render_style
        for start, end in runs:
            # Never start or end inside a wide character.
            while start > x and cells[start - x][0] == "":
                start -= 1
            while end < stop and cells[end - x][0] == "":
                end += 1
            out.append(f"\x1b[{y + 1};{start + 1}H")
            group: list[str] = []
            group_key: object = None  # what the group's style shows on a character
            group_blank: object = None  # and on a blank
            group_style: Style | None = None
            for col in range(start, end):
                cell = cells[col - x]
                ch, key, style = cell
                row[col] = cell
                if group:
                    if ch == " " and key == group_blank:
                        group.append(ch)  # a blank looks the same in the group's style
                        continue
                    if ch != " " and _key(style, color_system) == group_key:
                        group.append(ch)
                        continue
                    text = "".join(group)
                    out.append(render(group_style, text, color_system) if group_style else text)
                    group = []
                group_style = style
                group_key = _key(style, color_system)
                group_blank = _blank_key(style, color_system)
                group.append(ch)
            if group:
                text = "".join(group)
                out.append(render(group_style, text, color_system) if group_style else text)
            # A wide character half overwritten is blanked by the terminal: what shows
            # beside the run is not known for sure any more.
            if start > 0 and row[start][0] != "" and end - start and _wide_first(row, start - 1):
                row[start - 1] = UNKNOWN
            if end < width and row[end][0] == "":
                row[end] = UNKNOWN
