"""Keys answered while a search bot thinks, every game, at 80x24 and 120x40, in a real pty.

Each game's mid-game record (see midgame.py) is opened in the whole app in a
pseudo-terminal, with the two seats after the person played by search bots
(``bot:search``, one second a move) that start thinking at once. Whenever a bot
is to move, Tab takes the keys from the log to the board, then arrows move the
board's cursor; the time from each key to the last byte the app writes in reply
is taken. Before each key the screen is left to settle (a move just made is
still being drawn); a key whose reply ran into the bot's move (the save holds
one more action afterwards) is left out, so every figure is a key answered while
the worker process was searching. When the
person is to move, Enter takes the choice on offer and the bots think again.
Target: every key answered in under 50 ms (so p95 and max under 50).

    .venv/bin/python benchmarks/app_think_latency.py [--keys 20] [--games ...] [--sizes ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appmeasure import GAMES, SIZES, TITLES, Figure, GameInTerminal, load_line, main_serve, verdict
from midgame import midgame
from ptyterm import KEYS

TARGET_MS = 50.0
MOVES = ("right", "left", "down", "up")


@dataclass
class ThinkResult:
    game: str
    cols: int
    rows: int
    last_ms: Figure
    dropped: int  # keys whose reply ran into the bot's move: left out

    @property
    def ok(self) -> bool:
        return bool(self.last_ms.values) and self.last_ms.max < TARGET_MS


def thinking_game(game_id: str) -> Any:
    """The mid-game record with seats 2 and 3 played by search bots."""
    from railgames.core.engine import Game
    from railgames.games import load_ruleset

    game = midgame(game_id)
    record = game.record.model_copy(deep=True)
    record.players = [p if i == 0 else p.model_copy(update={"kind": "search"})
                      for i, p in enumerate(record.players)]
    return Game.replay(load_ruleset(game_id), record)


def bot_to_move(term: GameInTerminal) -> bool | None:
    """Whether a bot is to move in the newest save (None once the game is over)."""
    from railgames.core.engine import Game
    from railgames.core.record import parse_record
    from railgames.games import load_ruleset

    saves = [p for p in term.saves.rglob("*.json")
             if not p.name.startswith(".") and "cache" not in p.parts]
    if not saves:
        game = term.game
    else:
        newest = max(saves, key=lambda p: p.stat().st_mtime_ns)
        record = parse_record(newest.read_text(encoding="utf-8"), str(newest))
        game = Game.replay(load_ruleset(term.game_id), record)
    prompt = game.prompt()
    if prompt is None:
        return None
    return game.record.players[prompt.seat].is_bot


def measure(game_id: str, cols: int, rows: int, keys: int = 20) -> ThinkResult:
    game = thinking_game(game_id)
    last: list[float] = []
    dropped = 0
    with GameInTerminal(game_id, cols, rows, bot_delay=0.0, game=game,
                        ready=TITLES[game_id].split()[0]) as term:
        app = term.app
        deadline = time.monotonic() + 240
        k = 0
        tabbed_at = -1
        while len(last) < keys and time.monotonic() < deadline and not app.closed:
            whose = bot_to_move(term)
            if whose is None:
                break
            if not whose:  # the person's turn: take the choice on offer
                app.send("\r")
                app.drain(quiet=0.3)
                continue
            # The screen settles first: a bot's move that has just landed is still
            # being drawn, and its bytes are not the key's.
            before = term.actions_saved()
            app.drain(quiet=0.1)
            count = term.actions_saved()
            if count != before:
                continue
            # While a bot moves the log has the keys; Tab takes them to the board, whose
            # cursor the arrows then move (the Tab is timed like any other key).
            key = "\t" if count != tabbed_at else KEYS[MOVES[k % len(MOVES)]]
            if key == "\t":
                tabbed_at = count
            else:
                k += 1
            start = time.perf_counter()
            app.send(key)
            reply = app.drain(quiet=0.1)
            if not reply:
                continue  # the cursor at the edge: nothing moved
            if term.actions_saved() != count:
                dropped += 1
                continue
            last.append((app.last_data_at - start) * 1000)
    return ThinkResult(game_id, cols, rows, Figure(last), dropped)


def report(result: ThinkResult) -> str:
    return (f"{TITLES[result.game]:<22} {result.cols}x{result.rows}  "
            f"key during a think, last byte {result.last_ms.show(' ms', 1)}  "
            f"(n={len(result.last_ms.values)}, {result.dropped} ran into a move, left out)  "
            f"{verdict(result.ok)}")


def main() -> int:
    if main_serve():
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--sizes", default=",".join(f"{c}x{r}" for c, r in SIZES))
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args()
    print(f"Keys during a search bot's think, key to last byte, whole app through a pty; "
          f"target: every key under {TARGET_MS:.0f} ms; {load_line()}")
    ok = True
    out = []
    for game_id in args.games.split(","):
        for size in args.sizes.split(","):
            cols, rows = map(int, size.split("x"))
            result = measure(game_id, cols, rows, args.keys)
            print(report(result), flush=True)
            ok &= result.ok
            fig = result.last_ms
            out.append({"game": game_id, "size": size, "n": len(fig.values), "mean": fig.mean,
                        "p95": fig.p95, "max": fig.max})
    print(load_line())
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
