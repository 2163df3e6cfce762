"""How long one autosave takes: the time between a move shown and the next key handled.

A move is written to disk (temporary file, fsync, rename, fsync of the folder)
once the screen shows it and before the next key is handled (a bot's move:
before it is shown), so this time is part of every move. The record is the longest fixture game (New England, 656 actions).
Printed: mean, p95 and max, with the fsyncs and without them (what the disk's
flushes cost). Target: p95 under 50 ms with the fsyncs.

    .venv/bin/python benchmarks/save_speed.py [--saves 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "fixtures" / "records" / "new-england-3p-greedy.json"
TARGET_MS = 50.0


def measure(save: Callable[[], object], count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        save()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)


def line(label: str, times: list[float]) -> str:
    p95 = times[int(len(times) * 0.95) - 1]
    return f"{label}: mean {statistics.mean(times):.2f} ms, p95 {p95:.2f} ms, max {times[-1]:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=200)
    args = parser.parse_args()
    os.environ["RAILGAMES_DATA_DIR"] = tempfile.mkdtemp(prefix="railgames-bench-")
    sys.path.insert(0, str(ROOT))
    from railgames.core.record import load_record
    from railgames.tables.local import Session

    record = load_record(RECORD)
    session = Session.resume(record)
    session.save()
    size = session.save_path.stat().st_size if session.save_path else 0
    print(f"autosave of a {len(record.actions)}-action record ({size:,} bytes), {args.saves} times")
    synced = measure(session.save, args.saves)
    print(line("  with fsync (as played)", synced))
    real_fsync = os.fsync
    os.fsync = lambda fd: None  # type: ignore[assignment]
    try:
        print(line("  without fsync        ", measure(session.save, args.saves)))
    finally:
        os.fsync = real_fsync
    p95 = synced[int(len(synced) * 0.95) - 1]
    print("within target" if p95 < TARGET_MS else f"OVER TARGET (p95 {p95:.1f} ms >= {TARGET_MS} ms)")
    session.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
