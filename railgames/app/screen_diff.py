"""Screen updates that write only the cells the terminal does not show already.

Textual repaints whole widgets, or whole lines of them: a moving cursor on the
board, a panel whose height changes, a new screen over the game all send every
cell of what was repainted, though most of those cells are what the terminal
shows already. Over a slow link (play over SSH) that is most of the bytes.

``ScreenDiff`` keeps a copy of what the terminal shows, cell by cell (character
and style). Each update from Textual's compositor, partial or full, is compared
with it; only runs of cells that differ are written, two runs close together as
one, in the order that needs fewest changes of colour (see ``_flush``). What the
terminal ends up showing is exactly what Textual meant to show.

The copy is forgotten (every cell unknown, so the next update is written in
full) when the terminal's size changes or the app comes back from a suspend.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import accumulate, islice
from typing import Any, NamedTuple

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual.strip import Strip

from railgames.compat import (
    ChopsUpdate,
    CompositorUpdate,
    LayoutUpdate,
    console_color_system,
    is_single_cell_widths,
    style_ansi,
)

# A band of whole rows at least this tall is scrolled on the terminal, or shifted
# sideways, when it shows what was there a few rows or columns away.
MIN_BAND = 4
SHIFT_EDGE = 3  # columns at the right edge left out when matching a sideways shift
PIECE = 16  # the length of the pieces of a row looked for in the rows above and below

# A row moved up or down is looked for only if it has at least this many letters.
RUN_LETTERS = 8

# A row whose end moved sideways (a footer whose keys changed) is moved on the
# terminal when at least this many cells changed and this many letters move, by at
# most TAIL_SHIFT columns.
TAIL_MIN = 8
TAIL_SHIFT = 40

# A run of unchanged cells at most this long between two changed ones is written
# again rather than skipped with a cursor move (which costs about as many bytes).
JOIN_GAP = 6

# Each row is kept as three lists, one entry per cell: the character, a key of
# what the terminal shows of its style (SGR codes and any link, so styles that
# differ only in what never reaches the terminal, such as mouse metadata, count as
# the same; on a blank, only what shows on a blank), and the style itself. A wide
# character's second cell has the character "" (the first draws it).
UNKNOWN = "\0"  # a cell whose content is not known: never equal to a new one

Row = tuple[list[str], list[object], list[Style | None]]  # characters, keys, styles

_KEYS: dict[Style, tuple[object, object]] = {}


def _keys(style: Style | None, color_system: ColorSystem) -> tuple[object, object]:
    """(key on a character, key on a blank) of a style."""
    if style is None:
        return "", ""
    keys = _KEYS.get(style)
    if keys is None:
        ansi = style_ansi(style)
        if ansi is None:
            ansi = Strip.render_ansi(style, color_system)
        key: object = (ansi, style.link) if style.link else ansi
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
            if text.isascii() or is_single_cell_widths(text):
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


def _common_end(a: Sequence[Any], a_end: int, b: Sequence[Any], b_end: int, known: int,
                most: int) -> int:
    """How many items ``a[:a_end]`` and ``b[:b_end]`` end with alike, given that it is
    at least ``known`` and at most ``most`` (slices compared, halving the range)."""
    while known < most:
        mid = (known + most + 1) // 2
        if a[a_end - mid:a_end] == b[b_end - mid:b_end]:
            known = mid
        else:
            most = mid - 1
    return known


def _shifts_ending_alike(new_text: str, old_text: str, e: int, width: int) -> set[int]:
    """Every shift d for which ``_tail_shift``'s moved part, ending at min(e, width + d),
    may end in TAIL_MIN characters alike (and more shifts besides): its TAIL_MIN
    characters there found in the other text by ``str.find``, not shift by shift."""
    n = TAIL_MIN
    found: set[int] = set()
    if e >= n:  # the part ends at e: new[e-n:e] is old[p:p+n], p = e - d - n
        needle = new_text[e - n:e]
        p = old_text.find(needle)
        while p >= 0:
            found.add(e - n - p)
            p = old_text.find(needle, p + 1)
    if width >= n:  # it ends at width + d: new[q:q+n] is old[width-n:width], q = width + d - n
        needle = old_text[width - n:width]
        q = new_text.find(needle)
        while q >= 0:
            found.add(q + n - width)
            q = new_text.find(needle, q + 1)
    return found


class ScreenDiff:
    """What the terminal shows; turns compositor updates into the bytes that change it."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.chars: list[list[str]] = []
        self.keys: list[list[object]] = []
        self.styles: list[list[Style | None]] = []
        self._pen: Pen | None = None  # the terminal's pen while an update is written
        self._at: tuple[int, int] | None = None  # and its cursor (None: not known)
        self._pending: list[Piece] = []  # pieces of text not written yet (see _flush)

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
        self._pen = None  # not known: the first piece of text sets it whole
        self._at = None
        self._pending = []
        text = self._render(update, console)
        if self._pen is not None and self._pen != _DEFAULT_PEN:
            text += "\x1b[0m"  # left as Textual leaves it
        return text

    def _render(self, update: CompositorUpdate, console: Console) -> str:
        lines = self.lines_of(update)
        if lines is None:
            self.forget()
            return update.render_segments(console)
        color_system = console_color_system(console) or ColorSystem.TRUECOLOR
        out: list[str] = []
        painted = [(y, x, *line_cells(strips, color_system))
                   for y, x, strips in lines if 0 <= y < self.height]
        full = self._full_rows(painted)
        if len(full) >= MIN_BAND:
            before = self._copy()
            moved = self._scroll_rows(out, full) | self._shift_columns(out, full)
            moved |= self._move_runs(out, full, moved)
            if moved:
                for y in sorted(moved):
                    # What the update does not paint of a moved row moved with it: written
                    # back as it was (and the painted cells as they are now).
                    chars, keys, styles = full[y]
                    self._write_line(y, 0, chars, keys, styles, color_system)
                self._write_painted(out, painted, full, color_system)
                with_moves, after = "".join(out), self._copy()
                # Moving rows pays only when what moves is most of them: a log that
                # moved down beside a board that did not would have the board written
                # again. The same update written cell by cell decides.
                self._restore(before)
                plain: list[str] = []
                self._write_painted(plain, painted, full, color_system)
                cell_by_cell = "".join(plain)
                if len(cell_by_cell) <= len(with_moves):
                    return cell_by_cell
                self._restore(after)
                return with_moves
        self._write_painted(out, painted, full, color_system)
        return "".join(out)

    def _write_painted(self, out: list[str], painted: list[Any], full: dict[int, Row],
                       color_system: ColorSystem) -> None:
        """Write what an update paints, row by row. Where the end of a row shows what
        the terminal has a few columns to the left or right (a footer whose keys changed
        near its start), that end is moved on the terminal, if that costs fewer bytes."""
        rows: dict[int, list[Any]] = {}
        for piece in painted:
            rows.setdefault(piece[0], []).append(piece)
        for y, pieces in rows.items():
            # Over a row of unknown cells (the first frame, a resize) nothing can move.
            found = (self._tail_shift(y, full[y])
                     if y in full and self.chars[y].count(UNKNOWN) < self.width else None)
            if found is None:
                for _, x, chars, keys, styles in pieces:
                    self._write_line(y, x, chars, keys, styles, color_system)
                continue
            self._flush(out)
            before = self._copy_row(y)
            plain: list[str] = []
            for _, x, chars, keys, styles in pieces:
                self._write_line(y, x, chars, keys, styles, color_system)
            self._flush(plain)
            after = self._copy_row(y)
            self._restore_row(y, before)
            shifted: list[str] = []
            self._move_tail(shifted, y, *found)
            chars, keys, styles = full[y]
            self._write_line(y, 0, chars, keys, styles, color_system)
            self._flush(shifted)
            if len("".join(shifted)) < len("".join(plain)):
                out.extend(shifted)
            else:
                self._restore_row(y, after)
                out.extend(plain)
        self._flush(out)

    def _copy_row(self, y: int) -> tuple[Any, ...]:
        return self.chars[y][:], self.keys[y][:], self.styles[y][:], self._pen, self._at

    def _restore_row(self, y: int, saved: tuple[Any, ...]) -> None:
        self.chars[y], self.keys[y], self.styles[y], self._pen, self._at = saved

    def _tail_shift(self, y: int, row: Row) -> tuple[int, int, int] | None:
        """(d, t, e): row ``y`` is to show from column t to column e what the terminal
        shows d columns further left (right if d < 0), and from e on what it shows there
        now: a footer whose first keys changed, its last key fixed at the right edge.
        None when no such move keeps enough of the row."""
        chars, keys, _ = row
        old_chars, old_keys = self.chars[y], self.keys[y]
        width = self.width
        if "" in chars or "" in old_chars:
            return None  # wide characters: not moved cell by cell
        changed = (1 for a, b, c, d in zip(chars, keys, old_chars, old_keys, strict=False)
                   if a != c or b != d)
        if sum(islice(changed, TAIL_MIN)) < TAIL_MIN:  # (counted as far as TAIL_MIN)
            return None
        # What stays where it is at the end of the row.
        e = width
        while e > 0 and chars[e - 1] == old_chars[e - 1] and keys[e - 1] == old_keys[e - 1]:
            e -= 1
        best: tuple[int, int, int] | None = None
        best_len = 0
        new_text, old_text = "".join(chars), "".join(old_chars)
        shifts = _shifts_ending_alike(new_text, old_text, e, width)
        letters = list(accumulate(map(" ".__ne__, chars), initial=0))  # letters before each cell
        for step in range(1, min(TAIL_SHIFT, width // 2) + 1):
            for d in (step, -step):
                if d not in shifts:
                    continue
                end = min(e, width + d)  # the moved part is [t, end)
                if end - d > width or end <= 0 or end - d <= 0:
                    continue
                # Characters and styles alike from t to the end: the characters first, as
                # strings (quick), then their styles. Only a match longer than the best so
                # far counts, and one of TAIL_MIN letters at least: one comparison of each
                # rules most shifts out.
                most = min(end, end - d)
                known = max(best_len + 1, TAIL_MIN)
                if known > most or (new_text[end - known:end] != old_text[end - d - known:end - d]
                                    or keys[end - known:end] != old_keys[end - d - known:end - d]):
                    continue
                length = _common_end(new_text, end, old_text, end - d, known, most)
                if letters[end] - letters[end - length] < TAIL_MIN:
                    continue  # (its styles alike too, it would be as long or shorter)
                length = _common_end(keys, end, old_keys, end - d, known, length)
                t = end - length
                if length - chars[t:end].count(" ") >= TAIL_MIN:
                    best, best_len = (d, t, end), length
        return best

    def _move_tail(self, out: list[str], y: int, d: int, t: int, e: int) -> None:
        """Insert (d > 0) or delete (d < 0) characters in row y so that from column t to
        e it shows what was d columns away, and from e on what was there."""
        # What follows the moved part stays in place: blanks before it are taken out
        # (first, so that nothing at the right edge is pushed off) or put in.
        if d > 0:
            if e < self.width:
                self._delete(out, y, e - d, d)
            self._insert(out, y, t - d, d)
        else:
            self._delete(out, y, t, -d)
            if e < self.width + d:
                self._insert(out, y, e + d, -d)

    def _insert(self, out: list[str], y: int, at: int, n: int) -> None:
        """n blanks at column ``at`` of row y; the rest of the row moves right."""
        out.append(f"\x1b[{y + 1};{at + 1}H\x1b[{n}@")
        self._at = (y, at)
        width = self.width
        for line in (self.chars, self.keys, self.styles):
            row = line[y]
            fill = UNKNOWN if line is self.chars else None  # their background: the pen's
            line[y] = row[:at] + [fill] * n + row[at:width - n]

    def _delete(self, out: list[str], y: int, at: int, n: int) -> None:
        """n characters at column ``at`` of row y deleted; the rest of the row moves left."""
        out.append(f"\x1b[{y + 1};{at + 1}H\x1b[{n}P")
        self._at = (y, at)
        for line in (self.chars, self.keys, self.styles):
            row = line[y]
            fill = UNKNOWN if line is self.chars else None
            line[y] = (row[:at] + row[at + n:] + [fill] * n)[:self.width]

    def _copy(self) -> tuple[Any, ...]:
        return ([row[:] for row in self.chars], [row[:] for row in self.keys],
                [row[:] for row in self.styles], self._pen, self._at)

    def _restore(self, saved: tuple[Any, ...]) -> None:
        self.chars, self.keys, self.styles, self._pen, self._at = saved

    # ------------------------------------------------------------ moving what is there
    def _full_rows(self, painted: list[Any]) -> dict[int, Row]:
        """The rows this update paints (most of) as they will be, edge to edge:
        what it paints over what the terminal shows. Rows with cells unknown left out."""
        width = self.width
        parts: dict[int, list[Any]] = {}
        for y, x, chars, keys, styles in painted:
            parts.setdefault(y, []).append((x, chars, keys, styles))
        full: dict[int, Row] = {}
        for y, pieces in parts.items():
            if sum(len(p[1]) for p in pieces) < width * 3 // 4:
                continue
            chars, keys, styles = self.chars[y][:], self.keys[y][:], self.styles[y][:]
            for x, c, k, st in pieces:
                end = min(width, x + len(c))
                if end > x:
                    chars[x:end], keys[x:end], styles[x:end] = c[:end - x], k[:end - x], st[:end - x]
            if UNKNOWN not in chars:
                full[y] = (chars, keys, styles)
        return full

    def _scroll_rows(self, out: list[str], full: dict[int, Row]) -> set[int]:
        """Where a band of whole rows shows what the terminal has a few rows higher or
        lower, scroll that band on the terminal (a scrolling region) rather than write
        it again: the board moving up or down under a narrow screen. Returns the rows moved."""
        moved: set[int] = set()
        for top, bottom in _bands(sorted(full)):
            height = bottom - top + 1
            if height < MIN_BAND:
                continue
            # Each new row votes for the rows higher or lower that hold a piece of it
            # (the view may have moved sideways too: that is shifted afterwards).
            width = self.width
            old_text = {y: "".join(self.chars[y]) for y in range(top, bottom + 1)}
            old_text = {y: t for y, t in old_text.items()
                        if len(t) == width and UNKNOWN not in t}
            votes: dict[int, int] = {}
            for y in range(top, bottom + 1):
                text = "".join(full[y][0])
                if len(text) != width:
                    continue
                found: set[int] = set()
                for start in (width // 6, width // 2):
                    piece = text[start:start + PIECE]
                    if len(piece.replace(" ", "").replace("·", "")) < PIECE // 3:
                        continue  # blank or dotted: it would be found anywhere
                    found.update(old_y - y for old_y, old in old_text.items()
                                 if old_y != y and piece in old)
                for shift in found:
                    votes[shift] = votes.get(shift, 0) + 1
            if not votes:
                continue
            shift, count = max(votes.items(), key=lambda kv: (kv[1], -abs(kv[0])))
            if count < max(3, height * 2 // 5) or abs(shift) >= height:
                continue
            self._scroll_band(out, top, bottom, shift)
            moved.update(range(top, bottom + 1))
        return moved

    def _scroll_band(self, out: list[str], top: int, bottom: int, shift: int) -> None:
        """Scroll rows top to bottom on the terminal: each shows what was ``shift`` rows
        lower (higher if shift < 0); what comes in at the edge is not known."""
        out.append(f"\x1b[{top + 1};{bottom + 1}r")
        if shift > 0:  # what was lower comes up: line feeds at the bottom margin
            out.append(f"\x1b[{bottom + 1};1H" + "\n" * shift)
        else:  # reverse index at the top margin
            out.append(f"\x1b[{top + 1};1H" + "\x1bM" * -shift)
        out.append("\x1b[r")
        self._at = None  # the margins set and reset: the cursor is home, but say where
        for rows in (self.chars, self.keys, self.styles):
            band = rows[top:bottom + 1]
            fill = UNKNOWN if rows is self.chars else None
            blank = [[fill] * self.width for _ in range(abs(shift))]
            rows[top:bottom + 1] = (band[shift:] + blank if shift > 0
                                    else blank + band[:shift])

    def _move_runs(self, out: list[str], full: dict[int, Row], moved: set[int]) -> set[int]:
        """Where a run of whole rows shows exactly what the terminal has a few rows
        higher or lower (a panel pushed down as the board above it grew), scroll just
        those rows and the ones they move over. Returns the rows moved."""
        height = self.height
        at: dict[str, list[int]] = {}  # a row's text: the rows that show it now
        for y in range(height):
            text = "".join(self.chars[y])
            if UNKNOWN not in text:
                at.setdefault(text, []).append(y)
        shifts: dict[int, int] = {}
        for y in sorted(full):
            if y in moved:
                continue
            chars, keys, _ = full[y]
            text = "".join(chars)
            if len(text.replace(" ", "")) < RUN_LETTERS:
                continue  # nearly blank: it would match anywhere
            if chars == self.chars[y] and keys == self.keys[y]:
                continue  # where it was
            found = [old for old in at.get(text, ()) if old != y and self.keys[old] == keys]
            if found:
                shifts[y] = min(found, key=lambda old: abs(old - y)) - y
        # Rows found moved by the same distance move together, with the rows between
        # them (a player's line that changed a little moves with the lines around it).
        by_shift: dict[int, list[int]] = {}
        for y, shift in shifts.items():
            by_shift.setdefault(shift, []).append(y)
        done: set[int] = set()
        for shift, ys in sorted(by_shift.items(), key=lambda kv: -len(kv[1])):
            first, last = min(ys), max(ys)
            top, bottom = (first + shift, last) if shift < 0 else (first, last + shift)
            band = set(range(top, bottom + 1))
            if top < 0 or bottom >= height or band & (moved | done) or not band <= full.keys():
                continue
            self._scroll_band(out, top, bottom, shift)
            done |= band
        return done

    def _shift_columns(self, out: list[str], full: dict[int, Row]) -> set[int]:
        """Where whole rows show what the terminal has a few columns to the left or right,
        shift those rows (delete or insert characters) rather than write them again: the
        board moving sideways under a narrow screen. Returns the rows moved."""
        width = self.width
        edge = SHIFT_EDGE  # columns at the right (a scroll bar) that need not match
        span = width - edge
        changed = [y for y in sorted(full) if full[y][0][:span] != self.chars[y][:span]
                   and "" not in self.chars[y] and "" not in full[y][0]
                   and any(ch != " " for ch in full[y][0])]
        if len(changed) < MIN_BAND:
            return set()

        def moved(y: int, d: int) -> bool:
            """Whether row y's new content is the old moved left by d (right if d < 0)."""
            chars, keys, _ = full[y]
            old_chars, old_keys = self.chars[y], self.keys[y]
            if d > 0:
                return (chars[:span - d] == old_chars[d:span]
                        and keys[:span - d] == old_keys[d:span])
            return chars[-d:span] == old_chars[:span + d] and keys[-d:span] == old_keys[:span + d]

        sample = changed[:3]
        shift = next((d for step in range(1, span // 2)
                      for d in (step, -step) if all(moved(y, d) for y in sample)), 0)
        if not shift:
            return set()
        rows = [y for y in changed if moved(y, shift)]
        if len(rows) < max(MIN_BAND, len(changed) // 2):
            return set()
        for y in rows:  # delete or insert characters at the left edge
            if shift > 0:
                self._delete(out, y, 0, shift)
            else:
                self._insert(out, y, 0, -shift)
        return set(rows)

    def _write_line(self, y: int, x: int, chars: list[str], keys: list[object],
                    styles: list[Style | None], color_system: ColorSystem) -> None:
        """Take the cells of row y from column x as the terminal's, and keep the pieces
        of text that make it show them (the cells it does not show already) for
        ``_flush`` to write."""
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
            group: list[str] = []
            group_key: object = None  # what the group's style shows on a character
            group_blank: object = None  # and on a blank
            group_style: Style | None = None
            blanks_only = False  # the group is blanks so far
            group_x = start
            for i in range(i0, i1):
                ch = chars[i]
                style = styles[i]
                if group:
                    if style is group_style:
                        group.append(ch)
                        blanks_only = blanks_only and ch == " "
                        continue
                    key, blank = _keys(style, color_system)
                    if (ch == " " and blank == group_blank) or (ch != " " and key == group_key):
                        group.append(ch)  # looks the same in the group's style
                        blanks_only = blanks_only and ch == " "
                        continue
                    if blanks_only and blank == group_blank:
                        # Blanks look the same in this character's style: one piece.
                        group_style, group_key, blanks_only = style, key, False
                        group.append(ch)
                        continue
                    self._pending.append(_piece(y, group_x, x + i, group_style, "".join(group),
                                                color_system))
                    group = []
                    group_x = x + i
                group_style = style
                group_key, group_blank = _keys(style, color_system)
                blanks_only = ch == " "
                group.append(ch)
            if group:
                self._pending.append(_piece(y, group_x, end, group_style, "".join(group),
                                            color_system))

    # ------------------------------------------------------------ the pen
    def _flush(self, out: list[str]) -> None:
        """Write the pieces of text waiting, each in its style, in an order that saves
        bytes: of changes of the pen, or of moves of the cursor, whichever cost less.

        Textual writes every piece of text with its whole style and a reset after
        it; over a board of many colours that is about half of the bytes. Here the
        terminal's pen (attributes, colour, background) is kept between pieces: a
        new colour is one code, and a reset comes only when an attribute has to go.
        A change of colour costs some 20 bytes (a 24-bit colour is ``38;2;r;g;b``), a
        move of the cursor 4 to 8: so where the piece beside the cursor needs another
        pen, a piece elsewhere that the pen writes as it is (the next cost figure on
        the same route, the scroll bar's cell on the next row) is written first, and
        the piece beside comes with the others of its colour. The pieces are cells
        that no other piece writes, so the terminal ends up showing the same
        whatever the order.
        """
        pieces = self._pending
        if not pieces:
            return
        self._pending = []
        ordered = sorted(pieces, key=lambda p: (p.y, p.x0))
        if any(a.y == b.y and b.x0 < a.x1 for a, b in zip(ordered, ordered[1:], strict=False)):
            # Pieces that overlap are written in the order they came (never the case
            # for one update's cells; kept safe all the same).
            for piece in pieces:
                self._write_piece(out, piece)
            return
        # The order is chosen a piece at a time, which now and then leaves the pen
        # as the pieces after need it less: the pieces in screen order are tried
        # too, and the shorter goes.
        start = self._pen, self._at
        chosen: list[str] = []
        self._write_in_order(chosen, ordered)
        end = self._pen, self._at
        self._pen, self._at = start
        in_order: list[str] = []
        for piece in ordered:
            self._write_piece(in_order, piece)
        if sum(map(len, chosen)) < sum(map(len, in_order)):
            out.extend(chosen)
            self._pen, self._at = end
        else:
            out.extend(in_order)

    def _write_in_order(self, out: list[str], pieces: list[Piece]) -> None:
        """Write ``pieces`` (in screen order) a piece at a time: the one beside the
        cursor, the first that the pen writes as it is, or the first of all, whichever
        costs least (the one beside when they cost the same)."""
        done = [False] * len(pieces)
        starting = {(p.y, p.x0): i for i, p in enumerate(pieces)}
        by_match: dict[object, list[int]] = {}
        for i, piece in enumerate(pieces):
            by_match.setdefault(piece.match, []).append(i)
        next_of = dict.fromkeys(by_match, 0)  # the first not yet written, in each list
        first = 0  # the first piece not yet written
        for _ in range(len(pieces)):
            while done[first]:
                first += 1
            candidates = [first]
            beside = starting.get(self._at) if self._at is not None else None
            if beside is not None and done[beside]:
                beside = None
            for match in _matches(self._pen):
                found = by_match.get(match)
                if found is None:
                    continue
                k = next_of[match]
                while k < len(found) and done[found[k]]:
                    k += 1
                next_of[match] = k
                if k < len(found):
                    candidates.append(found[k])
            if beside is not None:
                candidates.insert(0, beside)
            best = min(candidates, key=lambda i: self._cost(pieces[i]))
            done[best] = True
            self._write_piece(out, pieces[best])

    def _cost(self, piece: Piece) -> int:
        """Bytes to write ``piece`` from where the cursor is, in the pen it has, less its text."""
        return len(self._move(piece.y, piece.x0)) + len(self._codes(piece)[0])

    def _move(self, y: int, x: int) -> str:
        """The shortest cursor move to (y, x): none, to a column of the same row, or both."""
        at = self._at
        if at is not None:
            if at == (y, x):
                return ""
            if at[0] == y:
                return f"\x1b[{x + 1}G"
        return f"\x1b[{y + 1};{x + 1}H" if x else f"\x1b[{y + 1}H"

    def _codes(self, piece: Piece) -> tuple[str, Pen]:
        """What turns the pen into one that writes ``piece`` as its style shows, and that pen."""
        if piece.pen is None:  # a link: written whole, with a reset before
            return ("\x1b[0m" if self._pen != _DEFAULT_PEN else ""), _DEFAULT_PEN
        found = _CODES.get((self._pen, piece.pen, piece.blanks))
        if found is None:
            found = _CODES[(self._pen, piece.pen, piece.blanks)] = _pen_codes(
                self._pen, piece.pen, piece.blanks)
            if len(_CODES) > 8192:
                _CODES.clear()
        return found

    def _write_piece(self, out: list[str], piece: Piece) -> None:
        out.append(self._move(piece.y, piece.x0))
        codes, self._pen = self._codes(piece)
        out.append(codes)
        out.append(piece.text)
        self._at = (piece.y, piece.x1) if piece.x1 < self.width else None


class Piece(NamedTuple):
    """Cells of one row [x0, x1) to write in one pen: their text and what they need of it."""

    y: int
    x0: int
    x1: int
    text: str  # what is written: Textual's text, or a link's whole escape sequence
    pen: Pen | None  # the pen of the style (None: a link)
    blanks: bool  # blanks only: only what shows on a blank has to be as the pen says
    match: object  # pieces a pen writes without any change share this


def _piece(y: int, x0: int, x1: int, style: Style | None, text: str,
           color_system: ColorSystem) -> Piece:
    """The piece that writes ``text`` in ``style`` at row y from column x0 to x1."""
    if style is not None and style.link:
        # A link is written whole, as Textual writes it, and resets the pen.
        return Piece(y, x0, x1, Strip.render_style(style, text, color_system), None, False,
                     (y, x0))
    pen = _DEFAULT_PEN if style is None else _pen_of(style, color_system)
    blanks = not text.strip(" ")
    match: object = pen
    if blanks and not pen[0] & _ON_BLANKS:
        match = ("blank", pen[2])  # any pen with this background writes these
    return Piece(y, x0, x1, text, pen, blanks, match)


def _matches(pen: Pen | None) -> tuple[object, ...]:
    """The ``match`` of the pieces that ``pen`` writes as they are."""
    if pen is None:
        return ()
    if pen[0] & _ON_BLANKS:
        return (pen,)
    return (pen, ("blank", pen[2]))


def _pen_codes(old: Pen | None, pen: Pen, blanks: bool) -> tuple[str, Pen]:
    """The SGR sequence that turns pen ``old`` (None: not known) into ``pen``, changing
    only what differs; for blanks only what shows on a blank. With the pen it leaves."""
    if old is not None and pen != old and blanks and not pen[0] & _ON_BLANKS:
        # Blanks show only their background: the colour and such attributes as
        # bold stay as they are; only what shows on a blank has to change.
        pen = (old[0] - _ON_BLANKS, old[1], pen[2])
    if pen == old:
        return "", pen
    attrs, fg, bg = pen
    gone = frozenset() if old is None else old[0] - attrs
    if old is None or not gone <= _OFF.keys():
        codes = ["0", *sorted(attrs)]
        if fg is not None:
            codes.append(fg)
        if bg is not None:
            codes.append(bg)
    else:
        offs = {_OFF[a] for a in gone}
        # One code may turn two attributes off (22: bold and dim): those kept
        # are said again.
        codes = [*sorted(offs), *sorted(a for a in attrs
                                        if a not in old[0] or _OFF.get(a) in offs)]
        if fg != old[1]:
            codes.append(fg or "39")
        if bg != old[2]:
            codes.append(bg or "49")
    return f"\x1b[{';'.join(codes)}m", pen


Pen = tuple[frozenset[str], "str | None", "str | None"]  # attributes, colour, background
_DEFAULT_PEN: Pen = (frozenset(), None, None)
# The code that turns each attribute off (without a reset of the whole pen).
_OFF = {"1": "22", "2": "22", "3": "23", "4": "24", "21": "24", "5": "25", "6": "25",
        "7": "27", "8": "28", "9": "29", "51": "54", "52": "54", "53": "55"}
_PENS: dict[str, Pen] = {}
_CODES: dict[tuple[Pen | None, Pen, bool], tuple[str, Pen]] = {}
# Attributes that show on a blank cell (on the others only the background shows).
_ON_BLANKS = frozenset({"4", "21", "7", "9", "53", "51", "52"})


def _pen_of(style: Style, color_system: ColorSystem) -> Pen:
    """A style's SGR codes as (attributes, colour, background)."""
    ansi = style_ansi(style)
    if ansi is None:
        ansi = Strip.render_ansi(style, color_system)
    pen = _PENS.get(ansi)
    if pen is None:
        codes = ansi.split(";") if ansi else []
        attrs: set[str] = set()
        fg = bg = None
        i = 0
        while i < len(codes):
            code = codes[i]
            if code in ("38", "48", "58"):
                n = 5 if i + 1 < len(codes) and codes[i + 1] == "2" else 3
                part = ";".join(codes[i:i + n])
                if code == "38":
                    fg = part
                elif code == "48":
                    bg = part
                else:
                    attrs.add(part)  # an underline colour: kept whole, as an attribute
                i += n
                continue
            value = int(code) if code.isdigit() else -1
            if 30 <= value <= 37 or 90 <= value <= 97 or value == 39:
                fg = code
            elif 40 <= value <= 47 or 100 <= value <= 107 or value == 49:
                bg = code
            elif value != 0:
                attrs.add(code)
            i += 1
        if len(_PENS) > 4096:
            _PENS.clear()
        pen = _PENS[ansi] = (frozenset(attrs), fg, bg)
    return pen


def _bands(ys: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive numbers in ``ys`` (sorted), as (first, last)."""
    bands: list[tuple[int, int]] = []
    for y in ys:
        if bands and bands[-1][1] == y - 1:
            bands[-1] = (bands[-1][0], y)
        else:
            bands.append((y, y))
    return bands


def _wide(ch: str) -> bool:
    """Whether ``ch`` is (the start of) a wide character."""
    return bool(ch) and ch != UNKNOWN and get_character_cell_size(ch[0]) == 2
