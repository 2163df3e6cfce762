"""Bytes and time per board-cursor move, for every game at 80x24 and 120x40, in a real pty.

Each game's mid-game record (see midgame.py: a person to move, choosing a place
on the board) is opened in the whole app in a pseudo-terminal. Once the screen
has settled, arrow keys and h/j/k/l are sent one at a time; for each, every byte
the app writes in reply is counted, and the time from the key to the last of
those bytes is taken (a key that moves nothing, the cursor being at the edge of
the map, is left out of the figures). Targets: bytes per move mean <= 600 and max <= 2,000; last
byte p95 <= 16 ms.

    .venv/bin/python benchmarks/app_cursor_bytes.py [--games new-england,...] [--sizes 80x24,120x40]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from appmeasure import GAMES, SIZES, TITLES, Figure, GameInTerminal, load_line, main_serve, verdict
from ptyterm import KEYS

BYTES_MEAN, BYTES_MAX, LAST_BYTE_P95_MS = 600, 2000, 16.0
# A walk over the board and back: long runs one way (the cursor reaches the edges
# of the view), then the vi keys.
MOVES = (["right"] * 6 + ["down"] * 5 + ["left"] * 6 + ["up"] * 5
         + ["l", "j", "h", "k", "l", "l", "j", "j", "h", "h", "k", "k"])


@dataclass
class CursorResult:
    game: str
    cols: int
    rows: int
    sizes: Figure  # bytes per move
    last_ms: Figure  # key to last byte
    full_screen: int
    still: int  # keys that moved nothing (the cursor at the edge of the map): left out

    @property
    def ok(self) -> bool:
        return (self.sizes.mean <= BYTES_MEAN and self.sizes.max <= BYTES_MAX
                and self.last_ms.p95 <= LAST_BYTE_P95_MS)


def measure(game_id: str, cols: int, rows: int) -> CursorResult:
    with GameInTerminal(game_id, cols, rows) as term:
        app = term.app
        full_screen = len(app.output)
        sizes: list[float] = []
        last: list[float] = []
        still = 0
        for key in MOVES:
            start = time.perf_counter()
            app.send(KEYS.get(key, key))
            reply = app.drain(quiet=0.25)
            if not reply:  # nothing there to move to: not a move
                still += 1
                continue
            sizes.append(len(reply))
            last.append((app.last_data_at - start) * 1000)
    return CursorResult(game_id, cols, rows, Figure(sizes), Figure(last), full_screen, still)


def report(result: CursorResult) -> str:
    return (f"{TITLES[result.game]:<22} {result.cols}x{result.rows}  "
            f"bytes {result.sizes.show()}   last byte {result.last_ms.show(' ms', 1)}   "
            f"{verdict(result.ok)}  ({result.still} keys moved nothing, left out)")


def main() -> int:
    if main_serve():
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--sizes", default=",".join(f"{c}x{r}" for c, r in SIZES))
    args = parser.parse_args()
    print(f"Bytes and key-to-last-byte time per board-cursor move, {len(MOVES)} moves, "
          f"whole app through a pty; {load_line()}")
    print(f"targets: bytes mean <= {BYTES_MEAN}, max <= {BYTES_MAX:,}; "
          f"last byte p95 <= {LAST_BYTE_P95_MS:.0f} ms")
    all_ok = True
    for game_id in args.games.split(","):
        for size in args.sizes.split(","):
            cols, rows = (int(n) for n in size.lower().split("x"))
            result = measure(game_id, cols, rows)
            all_ok &= result.ok
            print(report(result), flush=True)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
