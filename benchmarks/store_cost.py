"""What keeping one action costs the host's table store, early and late in a game.

The host keeps each action as it is played: one ``extend`` of one ``act`` entry,
synced to the disk before the move is shown (SQLite: WAL with ``synchronous=FULL``;
the file store: an ``fsync`` per line). The cost must not grow with the game: the
target is that an action at move 1,000 costs at most 1.3 times one at move 10.

Tables are prepared with a game begun and 10 actions, and with 1,000 (``--tables``
of each, written without syncing, then the store opened again as the host opens it).
Then actions are appended alternately, one to an early table and one to a late one
(which comes first alternates too), each timed on its own, so both positions see the
same disk, caches and neighbours; each table takes ``--reps / --tables`` of them, so
the early figures are of moves 11 to 10 + reps/tables, the late of moves 1,001 on.
Printed for SQLite (the default store) and for the file store of earlier versions:
mean, p95 and max in milliseconds at each position, and the ratio of the means.

    .venv/bin/python benchmarks/store_cost.py [--reps N] [--tables N] [--json]

The action appended is one of Railways of the World's longer entries (a build of
three links): what the store writes does not depend on what the action means.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET = 1.3
EARLY, LATE = 10, 1000
HEADER: dict[str, Any] = {
    "code": "", "game": "railways-of-the-world", "humans": 3, "bot_kind": "greedy",
    "options": {}, "seed": 7, "map": "eastern-us",
    "seats": [{"name": name, "kind": "human", "key": None, "bot_taken": False}
              for name in ("ann", "bob", "cat")],
}
START = {"start": {"format": 1, "game": "railways-of-the-world", "map": "eastern-us",
                   "seed": 7, "players": 3, "options": {}}, "at": "2026-01-01T10:00:00+00:00"}
ACT = {"act": {"type": "build", "seat": 1, "links": ["pittsburgh-wheeling",
                                                     "wheeling-columbus",
                                                     "columbus-cincinnati"],
               "cost": 6, "urbanize": None},
       "at": "2026-01-01T10:42:17+00:00"}


def codes(prefix: str, count: int) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [prefix + letters[i // 26] + letters[i % 26] + "A" for i in range(count)]


def open_store(kind: str, folder: Path, sync: bool) -> Any:
    from railgames.net.sqlstore import SqliteTableStore
    from railgames.net.store import FileTableStore

    if kind == "sqlite":
        return SqliteTableStore(folder / "tables.sqlite3", sync=sync)
    return FileTableStore(folder / "tables", sync=sync)


def prepare(kind: str, folder: Path, early: list[str], late: list[str]) -> dict[str, int]:
    """The tables, written without syncing; each one's version (changes kept) after."""
    store = open_store(kind, folder, sync=False)
    versions = {}
    try:
        for code_list, actions in ((early, EARLY), (late, LATE)):
            for code in code_list:
                store.create(code, {**HEADER, "code": code})
                versions[code] = store.extend(code, [{"seats": HEADER["seats"]}, START,
                                                     *[ACT] * actions])
    finally:
        store.close()
    return versions


def measure(kind: str, reps: int, tables: int) -> dict[str, Any]:
    early, late = codes("E", tables), codes("L", tables)
    with tempfile.TemporaryDirectory(prefix="railgames-store-cost-") as tmp:
        folder = Path(tmp)
        versions = prepare(kind, folder, early, late)
        store = open_store(kind, folder, sync=True)  # as the host keeps its tables
        try:
            times: dict[str, list[float]] = {"early": [], "late": []}
            for i in range(reps):
                pair = [("early", early[i % tables]), ("late", late[i % tables])]
                if i % 2:
                    pair.reverse()
                for where, code in pair:
                    started = time.perf_counter()
                    versions[code] = store.extend(code, [ACT], after=versions[code])
                    times[where].append(time.perf_counter() - started)
        finally:
            store.close()
    each = -(-reps // tables)  # the actions appended to one table
    return {"store": kind, "reps": reps, "tables": tables,
            "early_moves": [EARLY + 1, EARLY + each], "late_moves": [LATE + 1, LATE + each],
            "early": figures(times["early"]), "late": figures(times["late"]),
            "ratio": statistics.fmean(times["late"]) / statistics.fmean(times["early"])}


def figures(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {"mean": statistics.fmean(ms), "p95": ms[min(len(ms) - 1, int(len(ms) * 0.95))],
            "max": ms[-1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=600,
                        help="actions timed at each position, per store (default 600)")
    parser.add_argument("--tables", type=int, default=30,
                        help="tables prepared at each position (default 30)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.reps < 2 or not 1 <= args.tables <= 26 * 26:
        parser.error("--reps at least 2, --tables 1 to 676")
    results = [measure(kind, args.reps, args.tables) for kind in ("sqlite", "files")]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        print(f"{r['store']}: {r['reps']} actions at each position, alternating, over "
              f"{r['tables']} tables each (sync on)")
        for where in ("early", "late"):
            f = r[where]
            first, last = r[f"{where}_moves"]
            print(f"  moves {first:>5,}-{last:<5,}  mean {f['mean']:7.3f} ms   "
                  f"p95 {f['p95']:7.3f} ms   max {f['max']:8.3f} ms")
        verdict = "ok" if r["ratio"] <= TARGET else "OVER TARGET"
        print(f"  late/early mean: {r['ratio']:.2f} (target <= {TARGET}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
