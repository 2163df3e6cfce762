"""Key press to updated screen for a bid in the whole app (Pilot-driven, 160x50).

A New England game in the middle of an auction (three human seats, no hand-off
screens) is opened in the app under Textual's Pilot. Each Enter bids the
suggested amount; the time is taken from the key press until the last screen
update it causes has been composed and turned into terminal output (the
headless driver discards the bytes, so the script renders them itself).
Target: median under 50 ms.

    .venv/bin/python benchmarks/app_bid_latency.py [--bids 12]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from midgame import auction_record, write_record

TARGET_MS = 50.0
SETTLE = 0.15  # seconds without a screen update that count as "done"


async def measure(record: Path, bids: int) -> tuple[list[float], list[int], list[float]]:
    from railgames.app.main import RailgamesApp
    from railgames.games.new_england.state import Step

    app = RailgamesApp(load_path=record, bot_delay=0.0, handoff=False)
    updates: list[tuple[float, int]] = []
    original = app._display

    def display(screen: Any, renderable: Any) -> None:
        original(screen, renderable)
        if renderable is not None:
            data = renderable.render_segments(app.console)
            updates.append((time.perf_counter(), len(data)))

    app._display = display  # type: ignore[method-assign]
    latencies: list[float] = []
    firsts: list[float] = []
    sizes: list[int] = []
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause(0.5)
        for _ in range(bids):
            session = app.session
            assert session is not None, "the game did not open"
            state = session.state
            if state.step is not Step.AUCTION or state.auction is None:
                break
            before = len(session.game.record.actions)
            updates.clear()
            start = time.perf_counter()
            await pilot.press("enter")
            while True:  # wait until the screen has been quiet for SETTLE seconds
                seen = len(updates)
                await asyncio.sleep(SETTLE)
                if len(updates) == seen:
                    break
            if len(session.game.record.actions) == before:
                raise RuntimeError("Enter did not place a bid (is the amount box focused?)")
            if not updates:
                raise RuntimeError("the bid did not update the screen")
            latencies.append((updates[-1][0] - start) * 1000)
            firsts.append((updates[0][0] - start) * 1000)
            if os.environ.get("BID_TRACE"):
                print([(round((t - start) * 1000, 1), n) for t, n in updates])
            sizes.append(sum(size for _, size in updates))
    return latencies, sizes, firsts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bids", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_DATA_HOME"] = home  # autosaves go to a scratch folder
        os.environ["XDG_CONFIG_HOME"] = home
        record = write_record(auction_record(), Path(home), "auction.json")
        latencies, sizes, firsts = asyncio.run(measure(record, args.bids))
    if not latencies:
        print("no bid could be measured")
        return 1
    print("Key press (Enter = bid) to updated screen, whole app, 160x50, Pilot-driven")
    for i, (ms, first, size) in enumerate(zip(latencies, firsts, sizes, strict=True), start=1):
        print(f"  bid {i:2d}: last update {ms:6.1f} ms (first {first:5.1f} ms)   "
              f"{size:6d} bytes of screen updates")
    median = statistics.median(latencies)
    verdict = "OK" if median < TARGET_MS else "OVER TARGET"
    print(f"median {median:.1f} ms to the last update (min {min(latencies):.1f}, "
          f"max {max(latencies):.1f}); median {statistics.median(firsts):.1f} ms to the first; "
          f"{len(latencies)} bids (target < {TARGET_MS:.0f} ms): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
