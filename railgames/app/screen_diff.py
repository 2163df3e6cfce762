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

from rich.cells import _is_single_cell_widths, get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.strip import Strip

# A run of unchanged cells at most this long between two changed ones is written
# again rather than skipped with a cursor move (which costs about as many bytes).
JOIN_GAP = 6

# Each row is kept as three lists, one entry per cell: the character, a key of
# what the terminal shows of its style (SGR codes and any link, so styles that
# differ only in what never reaches the terminal, such as mouse metadata, count as
# the same; on a blank, only what shows on a blank), and the style itself. A wide
# character's second cell has the character "" (the first draws it).
UNKNOWN = "\0"  # a cell whose content is not known: never equal to a new one

_KEYS: dict[Style, tuple[object, object]] = {}


def _keys(style: Style | None, color_system: ColorSystem) -> tuple[object, object]:
    """(key on a character, key on a blank) of a style."""
    if style is None:
        return "", ""
    keys = _KEYS.get(style)
    if keys is None:
        ansi = style._ansi
        if ansi is None:
            ansi = Strip.render_ansi(style, color_system)
        key: object = (ansi, style._link) if style._link else ansi
        if style.reverse or style.underline or style.strike or style.overline or style.underline2:
            blank = key
        else:
            bg = Style(bgcolor=style.bgcolor)
            blank = Strip.render_ansi(bg, color_system) if style.bgcolor else ""
        if len(_KEYS) > 4096:
            _KEYS.clear()
        keys = _KEYS[style] = (key, blank)
    return keys


def line_cells(strips: Iterable[Strip], color_system: ColorSystem
               ) -> tuple[list[str], list[object], list[Style | None]]:
    """The characters, keys and styles of a line's cells, in order."""
    chars: list[str] = []
    keys: list[object] = []
    styles: list[Style | None] = []
    for strip in strips:
        for text, style, control in strip:
            if control or not text:
                continue
            key, blank = _keys(style, color_system)
            if text.isascii() or _is_single_cell_widths(text):
                n = len(text)
                chars.extend(text)
                if key == blank or " " not in text:
                    keys.extend([key] * n)
                else:
                    keys.extend([blank if ch == " " else key for ch in text])
                styles.extend([style] * n)
                continue
            for ch in text:
                width = get_character_cell_size(ch)
                if width == 0 and chars:  # a combining mark joins the character before it
                    chars[-1] += ch
                    continue
                chars.append(ch)
                keys.append(blank if ch == " " else key)
                styles.append(style)
                if width == 2:
                    chars.append("")
                    keys.append(key)
                    styles.append(style)
    return chars, keys, styles


class ScreenDiff:
    """What the terminal shows; turns compositor updates into the bytes that change it."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.chars: list[list[str]] = []
        self.keys: list[list[object]] = []
        self.styles: list[list[Style | None]] = []

    def forget(self) -> None:
        """The terminal may show anything now: write the next update in full."""
        self.chars = [[UNKNOWN] * self.width for _ in range(self.height)]
        self.keys = [[None] * self.width for _ in range(self.height)]
        self.styles = [[None] * self.width for _ in range(self.height)]

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
            if 0 <= y < self.height:
                self._write_line(out, y, x, *line_cells(strips, color_system), color_system)
        return "".join(out)

    def _write_line(self, out: list[str], y: int, x: int, chars: list[str], keys: list[object],
                    styles: list[Style | None], color_system: ColorSystem) -> None:
        row_chars, row_keys, row_styles = self.chars[y], self.keys[y], self.styles[y]
        width = self.width
        stop = min(x + len(chars), width)
        if stop <= x:
            return
        n = stop - x
        if len(chars) > n:
            chars, keys, styles = chars[:n], keys[:n], styles[:n]
        if row_chars[x:stop] == chars and row_keys[x:stop] == keys:
            return  # the terminal shows this already
        # Runs of cells [start, end) that differ from the terminal.
        runs: list[list[int]] = []
        for i, (ch, key, old_ch, old_key) in enumerate(
                zip(chars, keys, row_chars[x:stop], row_keys[x:stop], strict=True)):
            if ch == old_ch and key == old_key:
                continue
            col = x + i
            if runs and col - runs[-1][1] <= JOIN_GAP:
                runs[-1][1] = col + 1
            else:
                runs.append([col, col + 1])
        render = Strip.render_style
        for start, end in runs:
            # Never start or end inside a wide character.
            while start > x and chars[start - x] == "":
                start -= 1
            while end < stop and chars[end - x] == "":
                end += 1
            # A wide character half overwritten is blanked by the terminal: what
            # shows beside the run is not known for sure any more.
            if start > 0 and _wide(row_chars[start - 1]) and row_chars[start] == "":
                row_chars[start - 1] = UNKNOWN
            if end < width and row_chars[end] == "" and _wide(row_chars[end - 1]):
                row_chars[end] = UNKNOWN
            i0, i1 = start - x, end - x
            row_chars[start:end] = chars[i0:i1]
            row_keys[start:end] = keys[i0:i1]
            row_styles[start:end] = styles[i0:i1]
            out.append(f"\x1b[{y + 1};{start + 1}H")
            group: list[str] = []
            group_key: object = None  # what the group's style shows on a character
            group_blank: object = None  # and on a blank
            group_style: Style | None = None
            for i in range(i0, i1):
                ch = chars[i]
                style = styles[i]
                if group:
                    if style is group_style:
                        group.append(ch)
                        continue
                    key, blank = _keys(style, color_system)
                    if (ch == " " and blank == group_blank) or (ch != " " and key == group_key):
                        group.append(ch)  # looks the same in the group's style
                        continue
                    text = "".join(group)
                    out.append(render(group_style, text, color_system) if group_style else text)
                    group = []
                group_style = style
                group_key, group_blank = _keys(style, color_system)
                group.append(ch)
            if group:
                text = "".join(group)
                out.append(render(group_style, text, color_system) if group_style else text)


def _wide(ch: str) -> bool:
    """Whether ``ch`` is (the start of) a wide character."""
    return bool(ch) and ch != UNKNOWN and get_character_cell_size(ch[0]) == 2
