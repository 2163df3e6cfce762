"""Key press to updated screen for a bid, in the whole app in a real terminal (160x50).

A New England game in the middle of an auction is opened in the app, in a
pseudo-terminal: three human seats that each took $100 of Bank Loans at the
start of the turn (so the bidding can go on for many bids), and no hand-off
screens. Each Enter bids the suggested amount, one more than the high bid. The
time is taken from writing the key to the terminal until the terminal has
received the screen that shows the new state: the turn banner with the next
prompt ("high bid $4 by Bob — Cat to bid or pass") and the new lines of the log
("Bob bids $4 for ..."), as the rules engine words them for the same record. The
time until the app falls quiet (its last byte for that key) and the bytes written
are shown too.
Target: median under 50 ms.

    .venv/bin/python benchmarks/app_bid_latency.py [--bids 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from midgame import auction_record, write_record
from ptyterm import PtyApp, plain, terminal_env

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 50.0
COLS, ROWS = 160, 50


def serve(record: str) -> None:
    """The child process: the whole app, resuming the record, hand-off screens off."""
    from railgames.app.main import RailgamesApp

    RailgamesApp(load_path=record, bot_delay=0.0, handoff=False).run()


def squeezed(text: str) -> str:
    return "".join(text.split())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bids", type=int, default=20)
    parser.add_argument("--serve", metavar="RECORD", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0

    game = auction_record(borrow=100)
    shown_ms: list[float] = []
    quiet_ms: list[float] = []
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as home:
        record = write_record(game, Path(home), "auction.json")
        env = terminal_env(XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)  # autosaves go to scratch
        argv = [sys.executable, str(Path(__file__).resolve()), "--serve", str(record)]
        app = PtyApp(argv, cols=COLS, rows=ROWS, env=env, cwd=str(ROOT))
        try:
            app.wait_for_text(game.prompt().text, timeout=60)
            app.drain(quiet=1.0)
            for _ in range(args.bids):
                prompt = game.prompt()
                if prompt is None or prompt.step != "Auction" or prompt.amount is None:
                    break
                logged = len(game.log)
                game.apply({"type": "bid", "seat": prompt.seat, "amount": prompt.amount.default})
                after = game.prompt()
                if after is None or after.step != "Auction":
                    break  # the bid ended the auction: no banner to wait for
                # The new state is on the screen when the banner asks the next bidder and
                # the log (further down the screen) has the lines the bid added.
                wanted = [squeezed(after.text)] + [squeezed(e.text) for e in game.log[logged:]]
                mark = len(app.output)
                start = time.perf_counter()
                app.send("\r")

                def is_shown(out: bytes, wanted: list[str] = wanted, mark: int = mark) -> bool:
                    text = squeezed(plain(out[mark:]))
                    return all(w in text for w in wanted)

                shown = app.wait_for(is_shown, timeout=10)
                app.drain(quiet=0.3)
                shown_ms.append((app.started + shown - start) * 1000)
                quiet_ms.append((app.last_data_at - start) * 1000)
                sizes.append(len(app.output) - mark)
        finally:
            app.close()

    if not shown_ms:
        print("no bid could be measured")
        return 1
    print(f"Key press (Enter = bid) to the screen showing the new prompt, whole app, "
          f"{COLS}x{ROWS}, through a pty")
    for i, (ms, last, size) in enumerate(zip(shown_ms, quiet_ms, sizes, strict=True), start=1):
        print(f"  bid {i:2d}: shown after {ms:6.1f} ms   last byte after {last:6.1f} ms   "
              f"{size:6d} bytes")
    median = statistics.median(shown_ms)
    verdict = "OK" if median < TARGET_MS else "OVER TARGET"
    print(f"median {median:.1f} ms to the new screen (min {min(shown_ms):.1f}, "
          f"max {max(shown_ms):.1f}); median {statistics.median(quiet_ms):.1f} ms to the last byte; "
          f"{len(shown_ms)} bids (target < {TARGET_MS:.0f} ms): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
