"""Bytes written to the terminal per board-cursor move, measured through a real pty.

A mid-game New England record (turn 4, shipping step, links owned, cubes on
the board) is opened in a pseudo-terminal; once the screen has settled, arrow
keys and h/j/k/l are sent one at a time and every byte the app writes in reply
is counted. Target: under 1 KB per move (a whole-screen repaint is shown for
comparison).

    .venv/bin/python benchmarks/app_cursor_bytes.py            # the whole app: railgames load FILE
    .venv/bin/python benchmarks/app_cursor_bytes.py --board    # a bare app hosting only the board
    options: --size 160x50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from midgame import shipping_record, write_record
from ptyterm import KEYS, PtyApp, plain, terminal_env

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1024
MOVES = ["right", "right", "down", "down", "left", "left", "up", "up",
         "l", "j", "h", "k", "l", "l", "j", "j"]


def serve_board(record_path: str) -> None:
    """The child process of --board: a minimal app showing only the board and its slots."""
    from textual.app import App, ComposeResult

    from railgames.core.engine import Game
    from railgames.core.record import load_record
    from railgames.games import load_ruleset
    from railgames.games.new_england.board import NewEnglandBoard, NewEnglandSlots

    record = load_record(Path(record_path))
    ruleset = load_ruleset(record.game)
    game = Game.replay(ruleset, record)

    class BoardOnly(App[None]):
        def compose(self) -> ComposeResult:
            slots = NewEnglandSlots(ruleset)  # type: ignore[arg-type]
            slots.update_state(game.state)
            yield slots
            board = NewEnglandBoard(ruleset, id="board")  # type: ignore[arg-type]
            board.update_state(game.state)
            yield board

        def on_mount(self) -> None:
            self.query_one(NewEnglandBoard).focus()

    BoardOnly().run()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="store_true", help="host only the board widget")
    parser.add_argument("--size", default="160x50", help="terminal columns x rows")
    parser.add_argument("--serve-board", metavar="RECORD", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_board:
        serve_board(args.serve_board)
        return 0
    cols, rows = (int(n) for n in args.size.lower().split("x"))

    with tempfile.TemporaryDirectory() as home:
        game = shipping_record()
        record = write_record(game, Path(home), "midgame.json")
        env = terminal_env(XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)
        if args.board:
            argv = [sys.executable, str(Path(__file__).resolve()), "--serve-board", str(record)]
            what = "the board alone in a minimal app"
        else:
            script = Path(sys.executable).with_name("railgames")
            argv = [str(script) if script.exists() else sys.executable, *([] if script.exists() else ["-m", "railgames"]),
                    "load", str(record)]
            what = "the whole app (railgames load)"
        app = PtyApp(argv, cols=cols, rows=rows, env=env, cwd=str(ROOT))
        try:
            app.wait_for_text("Boston", timeout=60)
            first = app.drain(quiet=1.0)
            full_screen = len(app.output)
            sizes: list[int] = []
            replies: list[str] = []
            for key in MOVES:
                app.send(KEYS.get(key, key))
                reply = app.drain(quiet=0.3)
                sizes.append(len(reply))
                replies.append(plain(reply).strip())
        finally:
            app.close()

    print(f"Bytes written per board-cursor move, {what}, terminal {cols}x{rows}")
    print(f"first full screen: {full_screen} bytes (settled with {len(first)} more)")
    for key, size, text in zip(MOVES, sizes, replies, strict=True):
        shown = " ".join(text.split())[:60]
        print(f"  {key:>5}: {size:5d} bytes   {shown}")
    median = statistics.median(sizes)
    verdict = "OK" if median < TARGET else "OVER TARGET"
    print(f"median {median:.0f} bytes, mean {statistics.mean(sizes):.0f}, max {max(sizes)} "
          f"(target < {TARGET}): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
