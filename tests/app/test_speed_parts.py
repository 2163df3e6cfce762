"""The pieces that make the app quick must not change what it shows.

Launcher cards from the cache equal freshly worked-out ones; the launcher starts
without the rules engine; partial updates written from where they change leave
the terminal as Textual's own would; the footer that is rebuilt only when its
keys change always shows the keys that work now.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate
from textual.strip import Strip
from textual.widgets._footer import FooterKey

from railgames.app import cards
from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.app.tight_update import TightChopsUpdate
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


# ------------------------------------------------------------------ partial updates
def emulate(data: str, screen: list[list[tuple[str, str]]]) -> None:
    """A tiny terminal: cursor moves, colours (as written) and text."""
    y = x = 0
    sgr = ""
    for m in re.finditer(r"\x1b\[(\d+);(\d+)H|\x1b\[([0-9;]*)m|(\n)|([^\x1b\n]+)", data):
        if m.group(1):
            y, x = int(m.group(1)) - 1, int(m.group(2)) - 1
        elif m.group(3) is not None:
            sgr = "" if m.group(3) in ("", "0") else f"{sgr};{m.group(3)}"
        elif m.group(4):
            y += 1
        else:
            for ch in m.group(5):
                screen[y][x] = (ch, sgr)
                x += 1


def test_tight_updates_leave_the_same_screen() -> None:
    console = Console(width=40, color_system="truecolor", force_terminal=True)
    rnd = random.Random(3)
    styles = [Style(color="red"), Style(bold=True), Style(color="blue", bgcolor="white"), Style()]
    for _ in range(200):
        width = 30
        segments, used = [], 0
        while used < width:
            n = min(width - used, rnd.randint(1, 6))
            segments.append(Segment("".join(rnd.choice("ab:·═") for _ in range(n)),
                                    rnd.choice(styles)))
            used += n
        strip = Strip(segments, width)
        x1 = rnd.randrange(0, 29)
        x2 = rnd.randrange(x1 + 1, 31)
        update = ChopsUpdate([{5: strip}], [(0, 5 + x1, 5 + x2)], [[5 + width]])
        stock = update.render_segments(console)
        tight = TightChopsUpdate.from_update(update).render_segments(console)
        assert len(tight) <= len(stock)
        # The terminal already shows the line as it is outside the changed span.
        before = [[(" ", "")] * 40]
        emulate(ChopsUpdate([{5: strip}], [(0, 0, 40)], [[5 + width]]).render_segments(console),
                before)
        a = [row[:] for row in before]
        b = [row[:] for row in before]
        emulate(stock, a)
        emulate(tight, b)
        assert [ch for ch, _ in a[0]] == [ch for ch, _ in b[0]]
        assert a == b


# ------------------------------------------------------------------ the footer
@run_async
async def test_the_footer_always_shows_the_keys_that_work_now() -> None:
    record = bot_record(7)
    start = first_index(record, lambda g: g.state.turn == 3)
    path = saves_dir() / "footer.json"
    save_record(truncated(record, start), path)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
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
            shown = [(k.key, k.description, k._disabled, "-disabled" in k.classes)
                     for k in footer.query_children(FooterKey)
                     if "-command-palette" not in k.classes]
            wanted, actions = [], set()
            for _, binding, enabled, _ in screen.active_bindings.values():
                if binding.show and binding.action not in actions:
                    actions.add(binding.action)
                    wanted.append((binding.key, binding.description, not enabled, not enabled))
            assert shown == wanted
