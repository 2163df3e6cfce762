"""A board-cursor move and an Enter that plays, as ratios to a bare Textual app in the same run.

Times on a shared machine move with its load, so the app's are judged against
a reference taken beside them: bare_app.py (a plain Textual app of the same
shape: a map drawn line by line, a status line, a side panel, a log, a footer).
For every game and terminal size (80x24 and 120x40) both run in pseudo-terminals
of that size, and the keys go to them in turn, bare app and railgames, one key
each (which of the two goes first swaps at every pair); each pair gives one
ratio (railgames' time over the bare app's). A time is from the key to the last
byte written in reply (until the terminal is quiet for a quarter of a second).

* Board-cursor moves: the walk over the map of app_cursor_bytes.py, in the
  game's mid-game record (midgame.py); a key that moves nothing (the cursor at
  the map's edge) is left out. Target: railgames' p95 <= 0.5x the bare app's.
* Enter that plays (as app_enter_latency.py: Enter again and again, whatever it
  takes, Tab after three that choose nothing): for every Enter after which the
  autosave holds one more action, its time (the autosave included) is paired
  with the bare app's Enter just before or after it, which rewrites its side
  panel and writes one log line. Target: railgames' p95 <= 1.0x the bare app's,
  and every applied action writes at most 6 KB.

Each figure is shown as mean / p95 / max of the railgames times, of the bare
app's, and of the per-pair ratios, with the ratio of the two p95s (what the
targets are on).

    python benchmarks/key_ratio.py [--quick] [--games new-england,...] [--sizes 80x24,120x40]
        [--actions 30]
    (--quick: 15 applied actions a game and size)

The before figures: run this same script with an older checkout first on the path
(cd OLD && PYTHONPATH=$PWD python /path/to/benchmarks/key_ratio.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from app_cursor_bytes import MOVES  # noqa: E402
from app_enter_latency import BOT_DELAY, midgame_players  # noqa: E402
from appmeasure import (  # noqa: E402
    GAMES,
    SIZES,
    TITLES,
    Figure,
    GameInTerminal,
    load_line,
)
from ptyterm import KEYS, PtyApp, terminal_env  # noqa: E402

HERE = Path(__file__).resolve().parent
CURSOR_RATIO = 0.5
ENTER_RATIO = 1.0
BYTES_MAX = 6 * 1024
CURSOR_QUIET = 0.25
ENTER_QUIET = 0.3
SAVE_WAIT = 1.0  # seconds an Enter's save may come after its last byte


class BareInTerminal:
    """bare_app.py in a ``cols`` x ``rows`` pty, its first screen drawn."""

    def __init__(self, cols: int, rows: int) -> None:
        self.app = PtyApp([sys.executable, str(HERE / "bare_app.py")], cols=cols, rows=rows,
                          env=terminal_env(), cwd=str(HERE))

    def __enter__(self) -> BareInTerminal:
        try:
            self.app.wait_for_text("Bare app", timeout=60)
            self.app.drain(quiet=1.0)
        except BaseException:
            self.app.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.app.close()


def press(app: PtyApp, key: str, quiet: float) -> tuple[float, int]:
    """Send ``key``; (ms from the key to the last byte of the reply, bytes), (0, 0) if none."""
    mark = len(app.output)
    start = time.perf_counter()
    app.send(KEYS.get(key, key))
    app.drain(quiet=quiet)
    written = len(app.output) - mark
    return ((app.last_data_at - start) * 1000 if written else 0.0), written


@dataclass
class Paired:
    """One kind of key: each pair's times, railgames' and the bare app's."""

    ours: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)
    ours_bytes: list[float] = field(default_factory=list)
    bare_bytes: list[float] = field(default_factory=list)

    def add(self, ours: tuple[float, int], bare: tuple[float, int]) -> None:
        self.ours.append(ours[0])
        self.bare.append(bare[0])
        self.ours_bytes.append(ours[1])
        self.bare_bytes.append(bare[1])

    @property
    def ratios(self) -> Figure:
        return Figure([o / b for o, b in zip(self.ours, self.bare, strict=True) if b > 0])

    @property
    def p95_ratio(self) -> float:
        if not self.ours or not self.bare:
            return float("nan")
        return Figure(self.ours).p95 / Figure(self.bare).p95


@dataclass
class KeyResult:
    game: str
    cols: int
    rows: int
    cursor: Paired
    enter: Paired
    still: int  # cursor keys that moved nothing in railgames: left out
    stuck: int  # Tabs after Enters that chose nothing

    @property
    def size(self) -> str:
        return f"{self.cols}x{self.rows}"

    @property
    def cursor_ok(self) -> bool:
        return bool(self.cursor.ours) and self.cursor.p95_ratio <= CURSOR_RATIO

    @property
    def enter_ok(self) -> bool:
        return bool(self.enter.ours) and self.enter.p95_ratio <= ENTER_RATIO

    @property
    def bytes_ok(self) -> bool:
        return bool(self.enter.ours_bytes) and max(self.enter.ours_bytes) <= BYTES_MAX


def in_turn(bare: PtyApp, ours: PtyApp, key: str, quiet: float, n: int,
            ) -> tuple[tuple[float, int], tuple[float, int]]:
    """``key`` to both, the bare app first on even ``n``: (railgames', the bare app's)."""
    if n % 2 == 0:
        b = press(bare, key, quiet)
        o = press(ours, key, quiet)
    else:
        o = press(ours, key, quiet)
        b = press(bare, key, quiet)
    return o, b


def measure_cursor(game_id: str, cols: int, rows: int) -> tuple[Paired, int]:
    pairs = Paired()
    still = 0
    with BareInTerminal(cols, rows) as bare, GameInTerminal(game_id, cols, rows) as term:
        for n, key in enumerate(MOVES):
            ours, ref = in_turn(bare.app, term.app, key, CURSOR_QUIET, n)
            if not ours[1] or not ref[1]:  # the cursor at the edge of the map: not a move
                still += 1
                continue
            pairs.add(ours, ref)
    return pairs, still


def saved_after(term: GameInTerminal, count: int, wait: float = SAVE_WAIT) -> int:
    """The actions the autosave holds, waiting up to ``wait`` seconds for more than
    ``count``: the save of a move comes after its frame (a busy machine may hold it
    back past the quiet time that ends the frame's bytes)."""
    deadline = time.perf_counter() + wait
    now = term.actions_saved()
    while now <= count and time.perf_counter() < deadline:
        time.sleep(0.02)
        now = term.actions_saved()
    return now


def measure_enter(game_id: str, cols: int, rows: int, actions: int) -> tuple[Paired, int]:
    pairs = Paired()
    stuck = 0
    has_bots = any(p.is_bot for p in midgame_players(game_id))
    with BareInTerminal(cols, rows) as bare, \
            GameInTerminal(game_id, cols, rows, bot_delay=BOT_DELAY) as term:
        app = term.app
        count = term.actions_saved()
        idle = 0
        for n in range(actions * 4):
            if len(pairs.ours) >= actions or app.closed:
                break
            ours, ref = in_turn(bare.app, app, "enter", ENTER_QUIET, n)
            now = saved_after(term, count)
            if now > count:
                pairs.add(ours, ref)
                idle = 0
                if has_bots:  # the bots answer after their delay; wait for them
                    app.drain(quiet=BOT_DELAY * 1.6, timeout=30)
                    now = term.actions_saved()
            else:
                idle += 1
            count = now
            if idle >= 3:  # Enter chooses nothing here: move to the next panel
                stuck += 1
                press(app, "tab", ENTER_QUIET)
                idle = 0
    return pairs, stuck


def measure(game_id: str, cols: int, rows: int, actions: int = 30) -> KeyResult:
    cursor, still = measure_cursor(game_id, cols, rows)
    enter, stuck = measure_enter(game_id, cols, rows, actions)
    return KeyResult(game_id, cols, rows, cursor, enter, still, stuck)


def triple(values: list[float], digits: int = 1) -> str:
    fig = Figure(values)
    if not values:
        return "no data"
    return f"{fig.mean:,.{digits}f} / {fig.p95:,.{digits}f} / {fig.max:,.{digits}f}"


def values_text(pairs: Paired) -> str:
    """The ratio of p95s, then mean / p95 / max of the per-pair ratios and of both apps' times."""
    return (f"p95 ratio {pairs.p95_ratio:.2f}x; per pair {triple(pairs.ratios.values, 2)}; "
            f"railgames {triple(pairs.ours)} ms; bare {triple(pairs.bare)} ms "
            f"(n={len(pairs.ours)})")


def rows_of(result: KeyResult) -> list[dict[str, object]]:
    return [
        {"figure": "board-cursor move, key to last byte, vs bare Textual app (mean / p95 / max)",
         "game": result.game, "size": result.size, "values": values_text(result.cursor),
         "target": f"p95 ratio <= {CURSOR_RATIO}x", "ok": result.cursor_ok},
        {"figure": "Enter that plays, key to last byte (autosave in), vs bare app Enter "
                   "(mean / p95 / max)",
         "game": result.game, "size": result.size, "values": values_text(result.enter),
         "target": f"p95 ratio <= {ENTER_RATIO}x", "ok": result.enter_ok},
        {"figure": "bytes per applied action (mean / p95 / max)", "game": result.game,
         "size": result.size,
         "values": f"{triple(result.enter.ours_bytes, 0)} "
                   f"(bare app's Enter {triple(result.enter.bare_bytes, 0)})",
         "target": f"max <= {BYTES_MAX:,}", "ok": result.bytes_ok},
    ]


def ratio_rows(games: list[str], quick: bool) -> list[dict[str, object]]:
    """The rows of benchmarks/run_all.py's table: three per game and size."""
    rows: list[dict[str, object]] = []
    for game_id in games:
        for cols, rows_ in SIZES:
            rows += rows_of(measure(game_id, cols, rows_, 15 if quick else 30))
    return rows


def report(result: KeyResult) -> str:
    head = f"{TITLES[result.game]:<22} {result.size}"
    pad = " " * len(head)
    return (f"{head}  cursor  {values_text(result.cursor)}  {verdict(result.cursor_ok)}"
            f"  ({result.still} keys moved nothing, left out)\n"
            f"{pad}  Enter   {values_text(result.enter)}  {verdict(result.enter_ok)}\n"
            f"{pad}  bytes per applied action {triple(result.enter.ours_bytes, 0)} "
            f"(bare {triple(result.enter.bare_bytes, 0)})  {verdict(result.bytes_ok)}"
            f"; Tab after {result.stuck} refusals")


def verdict(ok: bool) -> str:
    return "OK" if ok else "OVER TARGET"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="15 applied actions a game and size")
    parser.add_argument("--actions", type=int, default=None)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--sizes", default=",".join(f"{c}x{r}" for c, r in SIZES))
    args = parser.parse_args()
    actions = args.actions or (15 if args.quick else 30)
    print(f"Key to last byte, railgames against a bare Textual app in turn, through ptys; "
          f"{load_line()}")
    print(f"targets: cursor p95 ratio <= {CURSOR_RATIO}x; Enter p95 ratio <= {ENTER_RATIO}x; "
          f"bytes per applied action <= {BYTES_MAX:,}")
    print("figures: mean / p95 / max", flush=True)
    all_ok = True
    for game_id in args.games.split(","):
        for size in args.sizes.split(","):
            cols, rows = (int(n) for n in size.lower().split("x"))
            result = measure(game_id, cols, rows, actions)
            all_ok &= result.cursor_ok and result.enter_ok and result.bytes_ok
            print(report(result), flush=True)
    print(load_line())
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
