"""The pieces that make the app quick must not change what it shows.

Launcher cards from the cache equal freshly worked-out ones; the launcher starts
without the rules engine; updates written as the cells that change leave the
terminal as Textual's own would; the footer that is rebuilt only when its
keys change always shows the keys that work now.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.geometry import Region
from textual.strip import Strip

from railgames.app import cards
from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screen_diff import ScreenDiff
from railgames.app.screens.game import GameScreen
from railgames.app.widgets.footer import KeyFooter
from railgames.core.record import save_record
from tests.app.driving import bot_record, first_index, run_async, truncated

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ launcher cards
def test_cached_cards_equal_fresh_ones() -> None:
    fresh = cards.work_out_cards()
    first = cards.launcher_cards()  # works them out and writes the cache
    assert (cards.cache_dir() / cards.CACHE_NAME).is_file()
    cached = cards.launcher_cards()  # read back
    console = Console(width=90, color_system="truecolor", force_terminal=True)
    for a, b, c in zip(fresh, first, cached, strict=True):
        assert a.id == b.id == c.id and a.title == b.title == c.title
        assert a.details == b.details == c.details
        assert list(console.render(a.details)) == list(console.render(c.details))


def test_a_stale_cache_is_not_used() -> None:
    path = cards.cache_dir() / cards.CACHE_NAME
    cards.launcher_cards()
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"title": "New England Railways"', '"title": "Old"'),
                    encoding="utf-8")
    assert cards.launcher_cards()[0].title == "Old"  # same fingerprint: the cache is trusted
    data = path.read_text(encoding="utf-8").replace(cards.fingerprint().split("\n")[0], "0 stale")
    path.write_text(data, encoding="utf-8")
    assert cards.launcher_cards()[0].title == "New England Railways"


def test_the_launchers_titles_are_the_games_own() -> None:
    from railgames.games import descriptor, ruleset_class

    assert {g: ruleset_class(g).title for g in cards.launcher_ids()} == {
        g: descriptor(g).title for g in cards.launcher_ids()}


@run_async
async def test_cards_worked_out_after_the_first_frame_fill_the_launcher_in() -> None:
    from textual.widgets import OptionList, Static

    from railgames.app.screens.launcher import LauncherScreen

    LauncherScreen.CARDS_IN_BACKGROUND = True  # as in a terminal, with no cache yet
    try:
        app = RailgamesApp()
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, LauncherScreen)
            # The worker starts after the first frame and hands its cards back through the
            # app's queue: wait for both (generously), not for whichever is first.
            for _ in range(400):
                await app.workers.wait_for_complete()
                await pilot.pause(0.05)
                if not screen.cards_pending:
                    break
            assert not screen.cards_pending
            fresh = cards.work_out_cards()
            shown = screen.query_one("#game-details", Static).visual
            assert cards.WORKING_OUT not in str(shown)
            assert fresh[0].details.plain.split("\n")[0] in str(shown)
            titles = [str(o.prompt) for o in screen.query_one("#game-list", OptionList).options]
            assert titles == [c.title for c in fresh]
            assert cards.cached_cards() is not None  # and the next start finds them
    finally:
        LauncherScreen.CARDS_IN_BACKGROUND = None


def test_the_launcher_starts_without_the_rules_engine(tmp_path: Path) -> None:
    script = (
        "import asyncio, sys\n"
        "from railgames.app.main import RailgamesApp\n"
        "async def main():\n"
        "    app = RailgamesApp()\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        await pilot.pause()\n"
        "        heavy = ['pydantic', 'markdown_it', 'railgames.core.engine',\n"
        "                 'railgames.app.screens.game', 'railgames.app.commands']\n"
        "        print(' '.join(m for m in heavy if m in sys.modules) or 'none')\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "RAILGAMES_DATA_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=120, check=True).stdout.strip() for _ in range(2)]
    assert "pydantic" in runs[0]  # the first start works the cards out
    assert runs[1] == "none"


@run_async
async def test_the_launcher_looks_alike_before_and_after_the_other_screens_rules_load() -> None:
    from textual.widgets import Button

    from railgames.app.screens.guard import SCREENS_CSS
    from railgames.app.screens.launcher import LauncherScreen
    from railgames.app.screens.setup import SetupScreen

    def layout(screen: LauncherScreen) -> list[tuple[object, ...]]:
        return [(w.id, w.region, w.styles.padding, w.styles.margin, w.display)
                for w in screen.walk_children()]

    app = RailgamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        launcher = app.screen
        assert isinstance(launcher, LauncherScreen)
        assert not app.stylesheet.has_source(SCREENS_CSS)  # not parsed for the first frame
        first = layout(launcher)
        assert launcher.query_one("#continue", Button).region.width == 18
        app.push_screen(SetupScreen("new-england"))
        await pilot.pause()
        assert app.stylesheet.has_source(SCREENS_CSS)  # loaded with the first other screen
        app.pop_screen()
        await pilot.pause()
        assert app.screen is launcher and layout(launcher) == first


@run_async
async def test_the_launcher_is_styled_as_it_would_be_styled_again() -> None:
    """The launcher's first showing skips Textual's second styling of every node: at that
    moment, styling them all again, as Textual would have, changes no node."""
    from railgames.app.screens.launcher import LauncherScreen

    def styled(screen: LauncherScreen) -> list[tuple[object, ...]]:
        return [(node, set(node.classes), node._css_styles.get_rules())
                for node in screen.walk_children(with_self=True)]

    checked: list[bool] = []
    resume = LauncherScreen._on_screen_resume

    def resume_and_check(self: LauncherScreen, event: Any) -> None:
        resume(self, event)
        if not event.refresh_styles:  # skipped: what Textual would have done, done here
            before = styled(self)
            self.app.update_styles(self)
            checked.append(styled(self) == before)

    LauncherScreen._on_screen_resume = resume_and_check  # type: ignore[method-assign]
    try:
        app = RailgamesApp()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert app.screen._shown_before  # type: ignore[attr-defined]
    finally:
        LauncherScreen._on_screen_resume = resume  # type: ignore[method-assign]
    assert checked == [True]


# ------------------------------------------------------------------ partial updates
def apply_sgr(pen: tuple[frozenset[str], str, str], params: str) -> tuple[frozenset[str], str, str]:
    """The pen (attributes, colour, background) after an SGR sequence, as a terminal keeps it."""
    attrs, fg, bg = set(pen[0]), pen[1], pen[2]
    codes = params.split(";") if params else ["0"]
    i = 0
    while i < len(codes):
        code = codes[i] or "0"
        if code in ("38", "48"):
            n = 5 if codes[i + 1] == "2" else 3
            part = ";".join(codes[i + 1:i + n])
            if code == "38":
                fg = part
            else:
                bg = part
            i += n
            continue
        value = int(code)
        off = {"22": {"1", "2"}, "23": {"3"}, "24": {"4", "21"}, "25": {"5", "6"}, "27": {"7"},
               "28": {"8"}, "29": {"9"}, "54": {"51", "52"}, "55": {"53"}}.get(code)
        if off:
            attrs -= off
        elif value == 0:
            attrs, fg, bg = set(), "", ""
        elif 30 <= value <= 37 or 90 <= value <= 97:
            fg = code
        elif value == 39:
            fg = ""
        elif 40 <= value <= 47 or 100 <= value <= 107:
            bg = code
        elif value == 49:
            bg = ""
        else:
            attrs.add(code)
        i += 1
    return frozenset(attrs), fg, bg


NO_PEN: tuple[frozenset[str], str, str] = (frozenset(), "", "")


def cell_style(pen: tuple[frozenset[str], str, str], blank: bool) -> str:
    """What a cell shows of the pen it was written with: on a blank, only the
    background, reverse video and lines (not colour or bold)."""
    attrs, fg, bg = pen
    if blank and not attrs & {"4", "7", "9", "53"}:
        return f"bg={bg}"
    return f"{sorted(attrs)} fg={fg} bg={bg}"


def emulate(data: str, screen: list[list[tuple[str, str]]]) -> None:
    """A tiny terminal: cursor moves, colours (as written) and text."""
    y = x = 0
    pen = NO_PEN
    for m in re.finditer(r"\x1b\[(\d+)(?:;(\d+))?H|\x1b\[([0-9;]*)m|(\n)|([^\x1b\n]+)"
                         r"|\x1b\[(\d+)G", data):
        if m.group(6):  # to a column of the same row
            x = int(m.group(6)) - 1
        elif m.group(1):
            y, x = int(m.group(1)) - 1, int(m.group(2) or 1) - 1
        elif m.group(3) is not None:
            pen = apply_sgr(pen, m.group(3))
        elif m.group(4):
            y += 1
        else:
            for ch in m.group(5):
                # As a terminal does: writing over half of a wide character blanks the other half.
                row = screen[y]
                if row[x][0] == "" and x > 0:
                    row[x - 1] = (" ", row[x - 1][1])
                wide = cell_len(ch) == 2
                after = x + (2 if wide else 1)
                if after < len(row) and row[after][0] == "":
                    row[after] = (" ", row[after][1])
                row[x] = (ch, cell_style(pen, ch == " "))
                x += 1
                if wide:  # a wide character covers the next cell too
                    row[x] = ("", cell_style(pen, False))
                    x += 1


def random_strip(rnd: random.Random, width: int, styles: list[Style]) -> Strip:
    segments, used = [], 0
    while used < width:
        n = min(width - used, rnd.randint(1, 6))
        text = "".join(rnd.choice("ab:·═ ") for _ in range(n))
        if n >= 2 and rnd.random() < 0.2:
            text = text[:-2] + "船"  # a wide character: two cells
        segments.append(Segment(text, rnd.choice(styles)))
        used += n
    return Strip(segments, width)


def test_screen_diff_leaves_the_screen_textual_would() -> None:
    console = Console(width=40, color_system="truecolor", force_terminal=True)
    rnd = random.Random(3)
    styles = [Style(color="red"), Style(bold=True), Style(color="blue", bgcolor="white"), Style(),
              Style(meta={"offset": (1, 2)}),  # metadata never reaches the terminal
              # reverse video and underlines show on blanks too; bold does not
              Style(color="green", reverse=True, bold=True), Style(underline=True, color="red"),
              Style(color="yellow", bgcolor="white", bold=True)]
    width, height = 40, 6
    diff = ScreenDiff()
    diff.resize(width, height)
    stock_screen = [[(" ", "")] * width for _ in range(height)]
    diff_screen = [row[:] for row in stock_screen]
    written = stock_written = 0
    for step in range(300):
        if step % 25 == 0:  # now and then the whole screen, as after a new screen opens
            lines = [[random_strip(rnd, width, styles)] for _ in range(height)]
            update: CompositorUpdate = LayoutUpdate(lines, Region(0, 0, width, height))
        else:  # a span of one line, in a chop from column 5
            y = rnd.randrange(height)
            strip = random_strip(rnd, 30, styles)
            x1 = rnd.randrange(0, 29)
            x2 = rnd.randrange(x1 + 1, 31)
            chops: list[dict[int, Strip | None]] = [{} for _ in range(height)]
            chops[y] = {5: strip}
            ends = [[5 + 30] for _ in range(height)]
            update = ChopsUpdate(chops, [(y, 5 + x1, 5 + x2)], ends)
        stock = update.render_segments(console)
        ours = diff.render(update, console)
        emulate(stock, stock_screen)
        emulate(ours, diff_screen)
        assert diff_screen == stock_screen
        written += len(ours)
        stock_written += len(stock)
    assert written < stock_written
    # Forgotten (a resize, back from a suspend): everything painted is written again.
    diff.forget()
    lines = [[random_strip(rnd, width, styles)] for _ in range(height)]
    full = LayoutUpdate(lines, Region(0, 0, width, height))
    blank = [[("?", "")] * width for _ in range(height)]
    emulate(diff.render(full, console), blank)
    emulate(full.render_segments(console), stock_screen)
    assert blank == stock_screen


def test_a_new_colour_on_the_same_background_is_one_code_not_a_whole_style() -> None:
    console = Console(width=40, color_system="truecolor", force_terminal=True)
    on = "rgb(18,18,18)"
    styles = [Style(color="rgb(215,160,0)", bgcolor=on, bold=True),
              Style(color="rgb(153,153,153)", bgcolor=on),
              Style(color="rgb(90,130,255)", bgcolor=on, bold=True)]
    segments = [Segment("ab", styles[i % 3]) for i in range(20)]
    update = LayoutUpdate([[Strip(segments, 40)]], Region(0, 0, 40, 1))
    diff = ScreenDiff()
    diff.resize(40, 1)
    ours, stock = diff.render(update, console), update.render_segments(console)
    mine, theirs = [[("?", "")] * 40], [[("?", "")] * 40]
    emulate(ours, mine)
    emulate(stock, theirs)
    assert mine == theirs
    assert len(ours) < 0.6 * len(stock), (len(ours), len(stock))
    assert ours.count("48;2;18;18;18") < 5  # the background is not said again and again


def test_a_board_of_many_colours_is_written_a_colour_at_a_time() -> None:
    # Rows of route dots with a cost figure every few cells, and a scroll bar's cell at
    # the right edge: piece by piece, each row changes colour 13 times. The terminal is
    # sent each colour once and the cursor moved from piece to piece of it (a move
    # costs 4 to 8 bytes, a 24-bit colour about 20), and shows what Textual meant.
    width, height = 40, 8
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    on = "rgb(18,18,18)"
    dots = Style(color="rgb(153,153,153)", bgcolor=on)
    cost = Style(color="rgb(224,224,224)", bgcolor=on, bold=True)
    bar = Style(color="rgb(0,48,84)", bgcolor="rgb(0,0,0)", reverse=True)
    lines = []
    for y in range(height):
        segments = []
        for i in range(6):
            segments += [Segment("\u00b7\u00b7 \u00b7\u00b7", dots), Segment(str(y + i)[-1], cost)]
        segments += [Segment("   ", dots), Segment("\u2587", bar)]
        lines.append([Strip(segments, width)])
    update = LayoutUpdate(lines, Region(0, 0, width, height))
    diff = ScreenDiff()
    diff.resize(width, height)
    ours, stock = diff.render(update, console), update.render_segments(console)
    term, expected = Terminal(width, height), Terminal(width, height)
    term.feed(ours)
    expected.feed(stock)
    assert term.screen == expected.screen
    for colour in ("153;153;153", "224;224;224", "0;48;84"):
        assert ours.count(colour) == 1, (colour, ours)
    assert len(ours.encode()) < 0.4 * len(stock.encode()), (len(ours), len(stock))


def test_the_order_chosen_never_costs_more_than_screen_order() -> None:
    # Pieces chosen one at a time by what each costs can leave the pen as the pieces
    # after need it less: an update is never sent in more bytes than in screen order.
    class InScreenOrder(ScreenDiff):
        def _write_in_order(self, out: list[str], pieces: list[Any]) -> None:
            for piece in pieces:
                self._write_piece(out, piece)

    width, height = 30, 6
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    styles = [Style(color="red", bgcolor="rgb(18,18,18)"), Style(bold=True, color="white"),
              Style(color="blue", bgcolor="white"), Style(reverse=True, color="green"),
              Style(color="rgb(224,224,224)", reverse=True), Style()]
    rnd = random.Random(4)
    ours = InScreenOrder(), ScreenDiff()
    for diff in ours:
        diff.resize(width, height)
    screen = [[(" ", "")] * width for _ in range(height)]
    expected = [row[:] for row in screen]
    fewer = 0
    for _ in range(300):
        y = rnd.randrange(height)
        x = rnd.randrange(width - 4)
        strip = random_strip(rnd, rnd.randint(4, width - x), styles)
        chops: list[dict[int, Strip | None]] = [{} for _ in range(height)]
        chops[y] = {x: strip}
        update = ChopsUpdate(chops, [(y, x, x + strip.cell_length)],
                             [[x + strip.cell_length] for _ in range(height)])
        in_order, chosen = (diff.render(update, console) for diff in ours)
        assert len(chosen) <= len(in_order)
        fewer += len(chosen) < len(in_order)
        emulate(chosen, screen)
        emulate(update.render_segments(console), expected)
        assert screen == expected
    assert fewer


class Terminal:
    """A small terminal: cursor moves, colours, text, scrolling regions, line feeds,
    reverse index, and inserting and deleting characters."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.screen = [[("?", "")] * width for _ in range(height)]
        self.top, self.bottom = 0, height - 1
        self.y = self.x = 0

    def _scroll(self, up: bool) -> None:
        band = self.screen[self.top:self.bottom + 1]
        blank = [(" ", "")] * self.width
        band = band[1:] + [blank[:]] if up else [blank[:]] + band[:-1]
        self.screen[self.top:self.bottom + 1] = band

    def feed(self, data: str) -> None:
        pattern = (r"\x1b\[(\d+)(?:;(\d+))?H|\x1b\[([0-9;]*)m|\x1b\[(\d+);(\d+)r|\x1b\[r"
                   r"|\x1b\[(\d+)P|\x1b\[(\d+)@|\x1bM|(\n)|([^\x1b\n]+)|\x1b\[(\d+)G")
        pen = NO_PEN
        for m in re.finditer(pattern, data):
            text = m.group(0)
            if m.group(10):  # to a column of the same row
                self.x = int(m.group(10)) - 1
            elif m.group(1):
                self.y, self.x = int(m.group(1)) - 1, int(m.group(2) or 1) - 1
            elif m.group(3) is not None:
                pen = apply_sgr(pen, m.group(3))
            elif m.group(4):
                self.top, self.bottom = int(m.group(4)) - 1, int(m.group(5)) - 1
                self.y = self.x = 0
            elif text == "\x1b[r":
                self.top, self.bottom = 0, self.height - 1
                self.y = self.x = 0
            elif m.group(6):  # delete characters: the rest of the row moves left
                n, row = int(m.group(6)), self.screen[self.y]
                self.screen[self.y] = (row[:self.x] + row[self.x + n:] + [(" ", "")] * n
                                       )[:self.width]
            elif m.group(7):  # insert blanks: the rest of the row moves right
                n, row = int(m.group(7)), self.screen[self.y]
                self.screen[self.y] = (row[:self.x] + [(" ", "")] * n + row[self.x:])[:self.width]
            elif text == "\x1bM":
                if self.y == self.top:
                    self._scroll(up=False)
                else:
                    self.y -= 1
            elif m.group(8):
                if self.y == self.bottom:
                    self._scroll(up=True)
                else:
                    self.y += 1
            else:
                for ch in m.group(9):
                    self.screen[self.y][self.x] = (ch, cell_style(pen, ch == " "))
                    self.x += 1


def board_lines(rnd: random.Random, width: int, height: int, styles: list[Style]
                ) -> list[list[Segment]]:
    """A picture wider and taller than the screen, as rows of segments."""
    rows = []
    for _ in range(height):
        row, used = [], 0
        while used < width:
            n = min(width - used, rnd.randint(1, 5))
            row.append(Segment("".join(rnd.choice("○═╱ ab") for _ in range(n)), rnd.choice(styles)))
            used += n
        rows.append(row)
    return rows


def test_a_scrolled_board_is_moved_on_the_terminal_not_written_again() -> None:
    console = Console(width=40, color_system="truecolor", force_terminal=True)
    rnd = random.Random(5)
    styles = [Style(color="red"), Style(bold=True), Style(color="blue", bgcolor="white"), Style()]
    width, height = 40, 12
    picture = board_lines(rnd, 80, 30, styles)
    footer = Strip([Segment("status line".ljust(width), Style(bgcolor="red"))], width)

    def frame(dx: int, dy: int) -> LayoutUpdate:
        # The board's view at (dx, dy) on rows 0-10, a status line under it.
        view = [[Strip(picture[dy + y], 80).crop(dx, dx + width)] for y in range(height - 1)]
        return LayoutUpdate([*view, [footer]], Region(0, 0, width, height))

    diff = ScreenDiff()
    diff.resize(width, height)
    term = Terminal(width, height)
    expected = Terminal(width, height)
    first = frame(10, 5)
    term.feed(diff.render(first, console))
    for step, (dx, dy) in enumerate([(10, 8), (10, 3), (14, 3), (9, 3), (12, 6), (12, 6)]):
        update = frame(dx, dy)
        stock = update.render_segments(console)
        ours = diff.render(update, console)
        term.feed(ours)
        expected.feed(stock)
        assert term.screen == expected.screen, (dx, dy)
        if step < 4:  # moved, and only the new cells written (a move both ways is not)
            assert len(ours) < len(stock) / 2, (dx, dy)
        elif step == 4:
            assert len(ours) <= len(stock)
        else:  # the same frame again: nothing to write
            assert ours == ""


def test_a_log_moving_down_beside_a_still_board_moves_nothing_on_the_terminal() -> None:
    # The log (right half) moves down three rows as the panel above it grows; the board
    # (left half) stays. Scrolling those rows would move the board too and write it
    # all again: writing the changed cells is cheaper, and is what is sent.
    console = Console(width=40, color_system="truecolor", force_terminal=True)
    rnd = random.Random(8)
    styles = [Style(color="red"), Style(bold=True), Style(color="blue", bgcolor="white"), Style()]
    width, height = 40, 12
    board = board_lines(rnd, 20, height, styles)
    log = [[Segment(f"log line {i:02d} ".ljust(20) , Style(color="green"))] for i in range(40)]

    def frame(first_log_row: int) -> LayoutUpdate:
        rows = []
        for y in range(height):
            right = log[y - first_log_row] if y >= first_log_row else [Segment(" " * 20)]
            rows.append([Strip([*board[y], *right], width)])
        return LayoutUpdate(rows, Region(0, 0, width, height))

    diff = ScreenDiff()
    diff.resize(width, height)
    term, expected = Terminal(width, height), Terminal(width, height)
    term.feed(diff.render(frame(0), console))
    expected.feed(frame(0).render_segments(console))
    ours = diff.render(frame(3), console)
    term.feed(ours)
    expected.feed(frame(3).render_segments(console))
    assert term.screen == expected.screen
    assert "r" not in re.sub(r"\x1b\[[0-9;]*[Hm]", "", ours).replace("log line", ""), ours
    board_text = "".join(seg.text for seg in board[5])
    assert board_text.strip() and board_text not in ours  # the board is not written again


def test_panels_pushed_down_by_a_growing_board_are_moved_on_the_terminal() -> None:
    # The board grows by three rows and shows a new place; the players' lines under it
    # move down, one of them changed a little (the mark of whose turn it is). The
    # terminal scrolls those lines down rather than have them written again.
    console = Console(width=40, color_system="truecolor", force_terminal=True)
    rnd = random.Random(11)
    styles = [Style(color="red"), Style(bold=True), Style(color="blue", bgcolor="white"), Style()]
    width, height = 40, 16
    picture = board_lines(rnd, width, 40, styles)
    names = ["Ann", "Bob", "Cat", "Dan"]
    player_styles = [Style(color="green", bold=True), Style(color="yellow")]

    def frame(board_rows: int, first: int, turn: int) -> LayoutUpdate:
        rows = [[Strip(picture[first + y], width)] for y in range(board_rows)]
        for i, name in enumerate(names):
            mark = "▶" if i == turn else " "
            rows.append([Strip([Segment(f"{mark} {name}", player_styles[0]),
                                Segment(f"  ${100 + 17 * i} cubes {i}".ljust(width - 5),
                                        player_styles[1])], width)])
        while len(rows) < height:
            rows.append([Strip([Segment(" " * width)], width)])
        return LayoutUpdate(rows, Region(0, 0, width, height))

    diff = ScreenDiff()
    diff.resize(width, height)
    term, expected = Terminal(width, height), Terminal(width, height)
    term.feed(diff.render(frame(6, 0, 2), console))
    expected.feed(frame(6, 0, 2).render_segments(console))
    update = frame(9, 20, 0)
    ours, stock = diff.render(update, console), update.render_segments(console)
    term.feed(ours)
    expected.feed(stock)
    assert term.screen == expected.screen
    for name in ("Bob", "Dan", "$134", "$151"):  # the lines that did not change moved
        assert name not in ours, name


def test_screens_whose_rows_move_up_and_down_at_random_end_as_textual_would_leave_them() -> None:
    console = Console(width=30, color_system="truecolor", force_terminal=True)
    styles = [Style(color="red"), Style(bold=True), Style(color="blue", bgcolor="white"), Style(),
              Style(reverse=True, color="green")]
    width, height = 30, 12
    moves = 0
    for seed in range(40):
        rnd = random.Random(seed)
        pool = [Strip(row, width) for row in board_lines(rnd, width, 30, styles)]
        rows = [rnd.choice(pool) for _ in range(height)]
        diff = ScreenDiff()
        diff.resize(width, height)
        term, expected = Terminal(width, height), Terminal(width, height)
        for _ in range(15):
            # Some rows move up or down together; some change; the rest stay.
            first, last = sorted(rnd.sample(range(height), 2))
            shift = rnd.choice([-3, -2, -1, 1, 2, 3])
            block = rows[first:last + 1]
            start = max(0, min(height - len(block), first + shift))
            rows[start:start + len(block)] = block
            for _ in range(rnd.randint(0, 3)):
                rows[rnd.randrange(height)] = rnd.choice(pool)
            update = LayoutUpdate([[row] for row in rows], Region(0, 0, width, height))
            ours = diff.render(update, console)
            moves += "r" in re.sub(r"\x1b\[[0-9;]*[Hm]", "", ours)
            term.feed(ours)
            expected.feed(update.render_segments(console))
            assert term.screen == expected.screen, seed
    assert moves  # rows were moved on the terminal


def test_keys_that_come_and_go_near_a_footers_start_move_the_rest_on_the_terminal() -> None:
    # A footer whose first keys change: the keys after them move a few columns. The
    # terminal moves them (inserting or deleting characters) and only the new keys
    # are written; the screen ends up as Textual would leave it.
    console = Console(width=90, color_system="truecolor", force_terminal=True)
    width, height = 90, 3
    key_style = Style(color="rgb(255,166,43)", bgcolor="rgb(36,47,56)", bold=True)
    text_style = Style(color="rgb(224,224,224)", bgcolor="rgb(36,47,56)")

    def footer(keys: list[tuple[str, str]]) -> LayoutUpdate:
        segments = []
        for key, what in keys:
            segments += [Segment(f" {key} ", key_style), Segment(f"{what} ", text_style)]
        used = sum(len(seg.text) for seg in segments)
        segments.append(Segment(" " * (width - used), text_style))
        rows = [[Strip([Segment("board".ljust(width))], width)] for _ in range(height - 1)]
        return LayoutUpdate([*rows, [Strip(segments, width)]], Region(0, 0, width, height))

    always = [("l", "Log"), ("u", "Undo"), ("s", "Save"), ("v", "History"), ("?", "Help"),
              ("q", "Quit")]
    frames = [[("e", "End build"), ("esc", "Back"), *always],
              [("⏎", "Choose hex"), ("e", "End build"), *always],  # the tail moves right
              [("e", "End"), *always],  # and left
              [("e", "End"), *always]]  # the same: nothing to write
    diff = ScreenDiff()
    diff.resize(width, height)
    term, expected = Terminal(width, height), Terminal(width, height)
    term.feed(diff.render(footer(frames[0]), console))
    expected.feed(footer(frames[0]).render_segments(console))
    sizes = []
    for keys in frames[1:]:
        ours = diff.render(footer(keys), console)
        term.feed(ours)
        expected.feed(footer(keys).render_segments(console))
        assert term.screen == expected.screen, keys
        sizes.append(len(ours))
        assert "History" not in ours  # the keys that stay are moved, not written again
    assert sizes[2] == 0
    assert re.search(r"\x1b\[\d+@", "".join(diff.render(footer(frames[1]), console))), \
        "inserting characters moves the tail right"


def test_the_first_frame_looks_for_no_moves_over_a_screen_it_knows_nothing_of(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Over a terminal whose cells are all unknown (the first frame, a resize) nothing
    # can be moved: every row is written, without the search for a row's end that
    # moved sideways (it cost the first frame of the launcher several milliseconds).
    from railgames.app import screen_diff

    def no_search(*_: object) -> str:
        raise AssertionError("looked for a sideways move over unknown cells")

    monkeypatch.setattr(screen_diff.ScreenDiff, "_tail_shift", no_search)
    console = Console(width=60, color_system="truecolor", force_terminal=True)
    styles = [Style(color="rgb(255,166,43)", bold=True), Style(color="rgb(224,224,224)")]
    rows = [[Strip([Segment(f"row {y} ", styles[y % 2]), Segment("x" * 40, styles[1 - y % 2]),
                    Segment(" " * 14)], 60)] for y in range(6)]
    update = LayoutUpdate(rows, Region(0, 0, 60, 6))
    diff = ScreenDiff()
    diff.resize(60, 6)
    term, expected = Terminal(60, 6), Terminal(60, 6)
    term.feed(diff.render(update, console))
    expected.feed(update.render_segments(console))
    assert term.screen == expected.screen


def test_rows_whose_keys_change_at_random_end_as_textual_would_leave_them() -> None:
    # Footers of random keys, some with a key fixed at the right edge, changed at
    # random: whatever is moved on the terminal, it shows what Textual meant.
    width, height = 50, 2
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    styles = [Style(color="red", bgcolor="blue", bold=True), Style(color="white", bgcolor="blue"),
              Style(bgcolor="blue"), Style(reverse=True)]
    words = ["Log", "Undo", "Save", "History", "Help", "Quit", "End build", "Back", "Choose hex"]

    def footer(rnd: random.Random) -> Strip:
        while True:
            segments = []
            for word in rnd.sample(words, rnd.randint(0, 6)):
                segments += [Segment(f" {word[0]} ", styles[0]),
                             Segment(word + " ", rnd.choice(styles[1:]))]
            right = Segment(" ^p palette ", styles[0]) if rnd.random() < 0.5 else Segment("")
            pad = width - sum(len(seg.text) for seg in segments) - len(right.text)
            if pad >= 0:
                return Strip([*segments, Segment(" " * pad, styles[2]), right], width)

    moved = 0
    for seed in range(60):
        rnd = random.Random(seed)
        diff = ScreenDiff()
        diff.resize(width, height)
        term, expected = Terminal(width, height), Terminal(width, height)
        rows = [footer(rnd) for _ in range(height)]
        for _ in range(25):
            rows[rnd.randrange(height)] = footer(rnd)
            update = LayoutUpdate([[row] for row in rows], Region(0, 0, width, height))
            ours = diff.render(update, console)
            moved += bool(re.search(r"\x1b\[\d+[@P]", ours))
            term.feed(ours)
            expected.feed(update.render_segments(console))
            assert term.screen == expected.screen, seed
    assert moved  # some rows were moved on the terminal


def tail_shift_by_every_character(diff: ScreenDiff, y: int, row: Any) -> Any:
    """ScreenDiff._tail_shift as first written: every shift's common end counted
    character by character (the reference the quicker search must agree with)."""
    from os.path import commonprefix

    from railgames.app.screen_diff import TAIL_MIN, TAIL_SHIFT

    chars, keys, _ = row
    old_chars, old_keys = diff.chars[y], diff.keys[y]
    width = diff.width
    if "" in chars or "" in old_chars:
        return None
    changed = sum(1 for a, b, c, d in zip(chars, keys, old_chars, old_keys, strict=False)
                  if a != c or b != d)
    if changed < TAIL_MIN:
        return None
    e = width
    while e > 0 and chars[e - 1] == old_chars[e - 1] and keys[e - 1] == old_keys[e - 1]:
        e -= 1
    best, best_len = None, 0
    new_text, old_text = "".join(chars), "".join(old_chars)
    for step in range(1, min(TAIL_SHIFT, width // 2) + 1):
        for d in (step, -step):
            end = min(e, width + d)
            if end - d > width or end <= 0 or end - d <= 0:
                continue
            length = len(commonprefix([new_text[end - 1::-1], old_text[end - d - 1::-1][:end]]))
            if length <= best_len:
                continue
            t = end - length
            while t < end and keys[t:end] != old_keys[t - d:end - d]:
                t += 1 + next(i for i in range(end - t) if keys[t + i] != old_keys[t + i - d])
            if end - t > best_len and sum(ch != " " for ch in chars[t:end]) >= TAIL_MIN:
                best, best_len = (d, t, end), end - t
    return best


def test_the_quick_search_for_a_rows_moved_end_finds_what_every_character_would() -> None:
    # Rows that show what was there a few columns away (in part, in other colours, with
    # repeats that match at many shifts) or something else: the shift found is the one
    # counting every character of every shift finds.
    rnd = random.Random(4)
    width = 60
    styles = ["a", "b", "c"]
    found = 0
    for _ in range(3000):
        diff = ScreenDiff()
        diff.resize(width, 1)
        alphabet = rnd.choice(["ab ", "abcdefgh  ", "Log Undo Save History "])
        if rnd.random() < 0.5:
            old = [rnd.choice(alphabet) for _ in range(width)]
        else:  # a pattern that repeats: many shifts match, over many lengths
            period = [rnd.choice(alphabet) for _ in range(rnd.randint(1, 5))]
            old = [period[x % len(period)] if rnd.random() < 0.95 else rnd.choice(alphabet)
                   for x in range(width)]
        old_keys: list[object] = [rnd.choice(styles[:rnd.randint(1, 3)]) for _ in range(width)]
        d = rnd.randint(-45, 45)
        new = [old[x - d] if 0 <= x - d < width else rnd.choice(alphabet) for x in range(width)]
        new_keys = [old_keys[x - d] if 0 <= x - d < width else "a" for x in range(width)]
        for _ in range(rnd.randint(0, 8)):  # a few cells changed besides
            x = rnd.randrange(width)
            new[x], new_keys[x] = rnd.choice(alphabet), rnd.choice(styles)
        if rnd.random() < 0.3:  # the end stays as it was
            keep = rnd.randint(1, 15)
            new[-keep:], new_keys[-keep:] = old[-keep:], old_keys[-keep:]
        if rnd.random() < 0.1:
            old[rnd.randrange(width)] = "\0"  # a cell not known
        diff.chars[0], diff.keys[0] = old, old_keys
        row = (new, new_keys, [None] * width)
        wanted = tail_shift_by_every_character(diff, 0, row)
        assert diff._tail_shift(0, row) == wanted
        found += wanted is not None
    assert found > 500  # moved ends were there to be found
    # Two shifts whose matches differ by one character: the longer is the one found.
    # ("abab…" against "baba…" with one cell changed: one column to the left it
    # matches from that cell on, one column to the right from the cell after it.)
    diff = ScreenDiff()
    diff.resize(width, 1)
    diff.chars[0] = ["z" if x == 20 else "ba"[x % 2] for x in range(width)]
    diff.keys[0] = ["a"] * width
    row = (["ab"[x % 2] for x in range(width)], ["a"] * width, [None] * width)
    assert tail_shift_by_every_character(diff, 0, row) == (-1, 20, width - 1)
    assert diff._tail_shift(0, row) == (-1, 20, width - 1)


# ------------------------------------------------------------------ the footer
def new_england_from_turn(name: str, turn: int = 3) -> RailgamesApp:
    """The app on a New England game of bots, saved as ``name`` where ``turn`` begins."""
    record = bot_record(7)
    start = first_index(record, lambda g: g.state.turn == turn)
    path = saves_dir() / name
    save_record(truncated(record, start), path)
    return RailgamesApp(load_path=path, bot_delay=0, handoff=False)


@run_async
async def test_the_footer_always_shows_the_keys_that_work_now() -> None:
    app = new_england_from_turn("footer.json")
    rnd = random.Random(2)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(40):
            await pilot.press(rnd.choice(["enter", "enter", "p", "y", "n", "tab", "down", "escape"]))
            await pilot.pause()
            screen = app.screen
            if not isinstance(screen, GameScreen):
                break
            footer = screen.query_one(KeyFooter)
            line = footer.render().plain
            keys, _ = footer._drawn
            shown = [(k.key, k.description, k.enabled) for k in keys]
            wanted, actions = [], set()
            for _, binding, enabled, _ in screen.active_bindings.values():
                if binding.show and binding.action not in actions:
                    actions.add(binding.action)
                    wanted.append((binding.key, binding.description, enabled))
            assert shown == wanted
            for key in keys:  # and each is on the line, as it is shown
                assert f" {key.display} {key.description} " in line


# ------------------------------------------------------------------ one frame an action
@run_async
async def test_the_board_shows_the_new_choices_highlight_as_the_action_is_taken(
        tmp_path: Path) -> None:
    # New England's shipping and building steps put the choices on the board; after
    # each Enter the board must already mark what the panel now offers, before any
    # message is handled (a message would put it in a second frame, after the panel).
    app = new_england_from_turn("highlight.json", turn=2)
    changed = 0
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(12):
            screen = app.screen
            if not isinstance(screen, GameScreen):
                break
            panel = screen.panel
            leaves = [leaf for _, _, leaf in panel.options if leaf is not None]
            if not leaves or screen.session.is_bot(screen.session.prompt().seat):
                await pilot.press("enter")
                await pilot.pause()
                continue
            before = screen.board.highlighted
            screen.submit(leaves[0])  # no await: nothing queued has run yet
            if panel.prompt is None or not panel.options:
                await pilot.pause()
                continue
            wanted = screen.ui.highlight(panel.state, panel.prompt, [k for k, _ in panel.prefix],
                                         panel.options[0][0] if panel.options else None)
            assert screen.board.highlighted == frozenset(wanted.cities)
            changed += screen.board.highlighted != before
            await pilot.pause()
    assert changed >= 2  # the check above was put to the test


def count_frames(app: RailgamesApp) -> list[int]:
    """Frames that change the screen, from now on: a new count starts with each append."""
    frames = [0]
    diff = ScreenDiff()
    display = app._display

    def counting(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, (ChopsUpdate, LayoutUpdate)):
            diff.resize(*app.size)
            if diff.render(renderable, app.console):
                frames[-1] += 1
        display(screen, renderable)

    app._display = counting  # type: ignore[method-assign]
    return frames


@run_async
async def test_every_enter_of_a_new_england_game_at_80x24_is_drawn_in_one_frame() -> None:
    # The board at 80x24 is short, and grows and shrinks with the panel beside it: its
    # view follows the cursor in the frame that resizes it. The footer's keys change
    # as actions are taken: they change in that frame too.
    app = new_england_from_turn("frames.json")
    frames = count_frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(30):
            if not isinstance(app.screen, GameScreen):
                break
            frames.append(0)
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause(0.05)
    assert len(frames) > 20 and max(frames[1:]) <= 1, frames


@run_async
async def test_an_enter_whose_choices_need_a_scroll_bar_is_drawn_in_one_frame() -> None:
    # Railways of the World at 80x24: the list of choices is four lines tall, and an
    # action often brings more choices than that. The scroll bar that comes with them
    # is laid out in the frame that shows them, not in a frame of its own after it.
    from railgames.core.record import PlayerSpec
    from railgames.core.simulate import bot_players, play_bot_game
    from railgames.games import load_ruleset

    played = play_bot_game(load_ruleset("railways-of-the-world"), bot_players(4, "greedy"), 3)
    record = played.record.model_copy(deep=True)
    record.players = [PlayerSpec(name=name) for name in ("Ann", "Bob", "Cat", "Dan")]
    record.actions = record.actions[:120]
    path = saves_dir() / "bars.json"
    save_record(record, path)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    frames = count_frames(app)
    bars_changed = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(30):
            screen = app.screen
            if not isinstance(screen, GameScreen):
                break
            options = screen.query_one("#ap-options")
            bar = options.show_vertical_scrollbar
            frames.append(0)
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause(0.05)
            bars_changed += options.show_vertical_scrollbar != bar
    assert bars_changed >= 2  # the case was met
    assert max(frames[1:]) <= 1, frames


def follow_the_terminal(app: RailgamesApp) -> ScreenDiff:
    """What the terminal shows, kept up to date with every update the app sends it."""
    diff = ScreenDiff()
    display = app._display

    def following(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, (ChopsUpdate, LayoutUpdate)):
            diff.resize(*app.size)
            diff.render(renderable, app.console)
        display(screen, renderable)

    app._display = following  # type: ignore[method-assign]
    return diff


def shows_what_a_full_repaint_shows(app: RailgamesApp, terminal: ScreenDiff) -> bool:
    screen = app.screen
    full = screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return terminal.render(full, app.console) == ""


def mid_game_app(game: str, name: str, seed: int = 7, part: float = 0.4) -> RailgamesApp:
    """The app on a game of bots (people in their seats), ``part`` of the way through."""
    record = bot_record(seed, game=game)
    path = saves_dir() / name
    save_record(truncated(record, int(len(record.actions) * part)), path)
    return RailgamesApp(load_path=path, bot_delay=0, handoff=False)


@pytest.mark.parametrize(("game", "size"), [("railways-of-the-world", (80, 24)),
                                            ("steel-driver", (80, 24)),
                                            ("steel-driver", (120, 40)),
                                            ("new-england", (80, 24))])
@run_async
async def test_every_enter_leaves_the_terminal_as_a_full_repaint_would_and_builds_one_scene(
        game: str, size: tuple[int, int]) -> None:
    # An action brings a new state and a new decision: the board's scene is built once
    # for both, and whatever is skipped as unchanged (panels, rows, lines), what the
    # terminal ends up showing is what painting the whole screen again shows.
    app = mid_game_app(game, f"{game}-enter.json")
    terminal = follow_the_terminal(app)
    builds: list[int] = []
    applied = 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        build = board._build_scene

        def counted() -> None:
            builds[-1] += 1
            build()

        board._build_scene = counted
        for _ in range(40):
            if app.screen is not screen or applied >= 15:
                break
            before = len(screen.session.game.record.actions)
            builds.append(0)
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause(0.05)
            if len(screen.session.game.record.actions) > before:
                applied += 1
            else:
                builds.append(0)  # (a highlight that moves builds a scene of its own)
                await pilot.press("tab" if len(builds) % 3 == 0 else "down")
                await pilot.pause()
            assert shows_what_a_full_repaint_shows(app, terminal), len(builds)
            rows = [list(row) for row in board._rows]
            build()  # the scene as it is now, built afresh: nothing is missing from it
            assert [board._with_cursor(r) for r in range(board.layout_.height)] == rows
    assert applied >= 8
    assert max(builds) <= 1, builds


def bars_drawn_as_afresh(screen: Any) -> bool:
    """Whether every scroll bar shown is drawn as a bar drawn afresh would be."""
    for node in screen.walk_children():
        for shown, bar in ((getattr(node, "show_vertical_scrollbar", False),
                            getattr(node, "_vertical_scrollbar", None)),
                           (getattr(node, "show_horizontal_scrollbar", False),
                            getattr(node, "_horizontal_scrollbar", None))):
            if not shown or bar is None or not bar.size:
                continue
            area = Region(0, 0, *bar.size)
            lines = [list(strip) for strip in bar.render_lines(area)]
            bar.refresh()  # (every drawing it keeps dropped)
            if [list(strip) for strip in bar.render_lines(area)] != lines:
                return False
    return True


@run_async
async def test_a_bar_scrolled_before_it_was_mounted_shows_where_it_is(tmp_path: Path) -> None:
    # The demo opens with its board scrolled to the cursor before the board's bars are
    # mounted: what they show is where the board is, not where it was.
    from tests.app.scenes import scenes

    app, _ = scenes(tmp_path)["demo"]()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("_")  # (as the snapshot tests do: a key that does nothing)
        await pilot.pause()
        assert app.screen.query_one("#board").show_vertical_scrollbar
        assert bars_drawn_as_afresh(app.screen)


@run_async
async def test_a_scroll_bar_is_painted_again_only_when_what_it_shows_changes() -> None:
    # At 80x24 the board's height follows the panels under it; its horizontal bar stays
    # as it is and is not drawn again. Every bar on the screen always shows what a bar
    # drawn afresh shows.
    from textual.scrollbar import ScrollBar

    app = mid_game_app("railways-of-the-world", "bars-painted.json")
    drawn: list[ScrollBar] = []
    render = ScrollBar.render

    def counted(self: ScrollBar) -> Any:
        drawn.append(self)
        return render(self)

    ScrollBar.render = counted  # type: ignore[method-assign]
    kept = resized = 0
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            board = screen.board
            assert board.show_horizontal_scrollbar
            across = board.horizontal_scrollbar
            for _ in range(30):
                if app.screen is not screen:
                    break
                seen = (across.window_virtual_size, across.window_size, across.position,
                        across.size, board.has_focus)  # (the bars' colours follow the focus)
                height = board.size.height
                drawn.clear()
                await pilot.press("enter")
                await pilot.pause()
                await pilot.pause(0.05)
                resized += board.size.height != height
                if (across.window_virtual_size, across.window_size, across.position,
                        across.size, board.has_focus) == seen:
                    assert across not in drawn
                    kept += 1
                assert bars_drawn_as_afresh(screen)
    finally:
        ScrollBar.render = render  # type: ignore[method-assign]
    assert kept >= 5 and resized >= 5, (kept, resized)


@run_async
async def test_new_choices_are_laid_out_only_when_the_lists_height_or_bars_change() -> None:
    # A list of choices as tall as its choices, four lines at most, above a line of
    # text: new choices that need as many lines, or (old and new) more than four, ask
    # for no layout; fewer or more lines, or a scroll bar that comes or goes, do. Each
    # time the screen shows what painting it all again shows.
    from textual.app import App
    from textual.widgets import Static
    from textual.widgets.option_list import Option

    from railgames.app import layout_once
    from railgames.app.layout_once import ChoiceList

    layout_once.install()

    class Lists(App[None]):
        CSS = "ChoiceList { height: auto; max-height: 4; border: none; } Static { height: 1; }"

        def compose(self) -> Any:
            yield ChoiceList(*[f"first {i}" for i in range(6)], compact=True)
            yield Static("under the list", id="under")

    app = Lists()
    terminal = follow_the_terminal(app)  # type: ignore[arg-type]
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        choices = app.query_one(ChoiceList)
        under = app.query_one("#under")
        steps = [(8, False, 4, True), (5, False, 4, True), (2, True, 2, False),
                 (2, False, 2, False), (3, True, 3, False), (4, True, 4, False),
                 (7, True, 4, True), (4, True, 4, False)]
        for n, laid_out, height, bar in steps:
            choices.replace_options([Option(f"choice {n}.{i}", id=f"c{i}") for i in range(n)])
            assert choices._layout_required is laid_out, n
            await pilot.pause()
            assert choices.region.height == height and under.region.y == height, n
            assert choices.show_vertical_scrollbar is bar, n
            assert [str(o.prompt) for o in choices.options] == [f"choice {n}.{i}"
                                                                for i in range(n)]
            assert shows_what_a_full_repaint_shows(app, terminal), n  # type: ignore[arg-type]


@run_async
async def test_lines_written_to_the_log_lay_nothing_out_and_show_at_its_end() -> None:
    # The log's size never follows its lines: writing them asks for no layout of the
    # screen, and the log still shows them, its scroll bar where it belongs.
    from rich.text import Text

    from tests.app.driving import screen_text

    app = new_england_from_turn("log-lines.json")
    terminal = follow_the_terminal(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        log = screen.log_widget
        for i in range(8):
            log.write(Text(f"line {i} written"), scroll_end=False)
            assert not log._layout_required
            log.scroll_end(animate=False, immediate=True, x_axis=False)
            await pilot.pause()
            assert f"line {i} written" in screen_text(app)
            bar = log.vertical_scrollbar
            assert log.show_vertical_scrollbar and bar.window_virtual_size == len(log.lines)
            assert bar.position == log.scroll_y == log.max_scroll_y
            assert bars_drawn_as_afresh(screen)
            assert shows_what_a_full_repaint_shows(app, terminal)


@run_async
async def test_a_table_made_again_from_the_same_values_is_not_drawn_and_any_change_shows() -> None:
    # A panel given a table (in a group) built again from the same values keeps what
    # it shows without drawing it; a change anywhere, even one Text's == does not see
    # (its base style, its justification) or a column's, is drawn and shown.
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text
    from textual.app import App

    from railgames.app.widgets.quiet import QuietStatic
    from railgames.app.widgets.render_once import RenderOnce

    def table(style: str = "bold", justify: Any = None, right: bool = False,
              cash: int = 5) -> Group:
        t = Table(box=None, padding=(0, 1), show_edge=False)
        t.add_column("Player", no_wrap=True)
        t.add_column("Cash", justify="right" if right else "left")
        t.add_row(Text("▶ Ann", style=style, justify=justify), f"${cash}")
        t.add_row(Text("  Bob"), "$7")
        return Group(t, Text("Pass row empty", style="dim"))

    class Panel(App[None]):
        def compose(self) -> Any:
            yield QuietStatic(id="panel")

    drawn: list[int] = []
    lines = RenderOnce.lines

    def counted(self: RenderOnce, console: Any, options: Any) -> Any:
        key = self._key(options.update(height=None))
        if key not in self._lines:
            drawn.append(1)
        return lines(self, console, options)

    RenderOnce.lines = counted  # type: ignore[method-assign]
    try:
        app = Panel()
        async with app.run_test(size=(40, 8)) as pilot:
            panel = app.query_one(QuietStatic)
            panel.update(table())
            await pilot.pause()
            for same in range(3):
                shown = panel._shown
                drawn.clear()
                panel.update(table())
                await pilot.pause()
                assert panel._shown is shown and not drawn, same
            for changed in (table(style="italic"), table(justify="right"), table(right=True),
                            table(cash=6)):
                shown = panel._shown
                panel.update(changed)
                await pilot.pause()
                assert panel._shown is not shown
                assert panel._shown.renderable is changed
    finally:
        RenderOnce.lines = lines  # type: ignore[method-assign]


# ------------------------------------------------------------------ the collector
@run_async
async def test_the_cycle_collector_waits_for_a_keys_frame_and_no_longer(monkeypatch) -> None:
    import gc

    monkeypatch.setattr(RailgamesApp, "GC_HOLD_LIMIT", 5.0)
    app = RailgamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert gc.isenabled()
        await pilot.press("down")
        assert not gc.isenabled()  # the key's work is done without a collection
        app.frame_written()  # (a headless app writes no frames: as a terminal's would)
        assert gc.isenabled()
        monkeypatch.setattr(RailgamesApp, "GC_HOLD_LIMIT", 0.05)
        app._hold_collector()  # as a key does
        assert not gc.isenabled()
        await pilot.pause(0.3)  # no frame came: back on after the limit all the same
        assert gc.isenabled()
        await pilot.press("down")
    assert gc.isenabled()  # and never left off by an app that ends
