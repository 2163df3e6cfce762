"""Enter that applies an action: time to the last byte and bytes written, every game, in a real pty.

Each game's mid-game record (see midgame.py) is opened in the whole app in a
pseudo-terminal of 80x24 and of 120x40, hand-off screens off. Enter is pressed
again and again: wherever the keyboard is, it takes the choice on offer (the
city under the board cursor, the highlighted line of the list, the suggested
amount), so the game goes on by its own rules: bids, builds, shipments, loans,
whatever comes. Each Enter after which the app's autosave holds one more action
is an applied action; for it, the time from the key to the last byte the app
writes in reply and the bytes written are taken. That time includes whatever of
the autosave comes before the last byte (it is written once the frame that shows
the move is drawn, before the next key); ``--saves-in /dev/shm`` leaves the
disk's part out. (An Enter that opens the next
level of a choice is shown apart.) In Paris Connection, whose holdings are
secret, the other two seats are bots that move a second after the person; the
measure ends before they do.
Targets: last byte p95 <= 50 ms; bytes per applied action <= 6 KB (every one).

    .venv/bin/python benchmarks/app_enter_latency.py [--actions 30] [--games ...] [--sizes ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from appmeasure import GAMES, SIZES, TITLES, Figure, GameInTerminal, load_line, main_serve, verdict

LAST_BYTE_P95_MS = 50.0
BYTES_MAX = 6 * 1024
BOT_DELAY = 1.0


@dataclass
class EnterResult:
    game: str
    cols: int
    rows: int
    last_ms: Figure  # applied actions: key to last byte
    sizes: Figure  # applied actions: bytes
    level_ms: Figure  # Enters that opened a level of a choice
    stuck: int  # Enters that did nothing (refused), then Tab

    @property
    def ok(self) -> bool:
        return bool(self.last_ms.values) and (self.last_ms.p95 <= LAST_BYTE_P95_MS
                                              and self.sizes.max <= BYTES_MAX)


def measure(game_id: str, cols: int, rows: int, actions: int = 30,
            saves_in: str | None = None) -> EnterResult:
    applied_ms: list[float] = []
    applied_bytes: list[float] = []
    level_ms: list[float] = []
    stuck = 0
    has_bots = any(p.is_bot for p in midgame_players(game_id))
    with GameInTerminal(game_id, cols, rows, bot_delay=BOT_DELAY, home_in=saves_in) as term:
        app = term.app
        count = term.actions_saved()
        idle = 0
        for _ in range(actions * 4):
            if len(applied_ms) >= actions or app.closed:
                break
            mark = len(app.output)
            start = time.perf_counter()
            app.send("\r")
            app.drain(quiet=0.3)
            took = (app.last_data_at - start) * 1000 if len(app.output) > mark else 0.0
            now = term.actions_saved()
            if now > count:
                applied_ms.append(took)
                applied_bytes.append(len(app.output) - mark)
                idle = 0
                if has_bots:  # the bots answer after their delay; wait for them
                    app.drain(quiet=BOT_DELAY * 1.6, timeout=30)
                    now = term.actions_saved()
            elif len(app.output) > mark:
                level_ms.append(took)
                idle += 1
            else:
                idle += 1
            count = now
            if idle >= 3:  # Enter chooses nothing here: move to the next panel
                stuck += 1
                app.send("\t")
                app.drain(quiet=0.3)
                idle = 0
    return EnterResult(game_id, cols, rows, Figure(applied_ms), Figure(applied_bytes),
                       Figure(level_ms), stuck)


def midgame_players(game_id: str) -> list:  # type: ignore[type-arg]
    from midgame import seats

    return seats(game_id)


def report(result: EnterResult) -> str:
    return (f"{TITLES[result.game]:<22} {result.cols}x{result.rows}  "
            f"applied: last byte {result.last_ms.show(' ms', 1)}   "
            f"bytes {result.sizes.show()}   {verdict(result.ok)}\n"
            f"{'':<31}other Enters (a level of a choice): last byte "
            f"{result.level_ms.show(' ms', 1)}; Tab after {result.stuck} refusals")


def main() -> int:
    if main_serve():
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--sizes", default=",".join(f"{c}x{r}" for c, r in SIZES))
    parser.add_argument("--saves-in", metavar="DIR",
                        help="keep the autosaves under DIR (e.g. /dev/shm: no disk time)")
    args = parser.parse_args()
    if args.saves_in:
        print(f"autosaves under {args.saves_in}")
    print(f"Enter that applies an action, key to last byte and bytes written, whole app "
          f"through a pty; {load_line()}")
    print(f"targets: last byte p95 <= {LAST_BYTE_P95_MS:.0f} ms; bytes <= {BYTES_MAX:,} "
          "per applied action")
    all_ok = True
    for game_id in args.games.split(","):
        for size in args.sizes.split(","):
            cols, rows = (int(n) for n in size.lower().split("x"))
            result = measure(game_id, cols, rows, args.actions, args.saves_in)
            all_ok &= result.ok
            print(report(result), flush=True)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
