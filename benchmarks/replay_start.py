"""``railgames replay FILE`` as a whole process, against ``python -c "import pydantic"``.

Both run as new processes of the same interpreter with the same environment,
output discarded, in alternating pairs (the reference first, then the replay);
each pair gives one ratio, replay time over reference time, so that the load of
a shared machine weighs on both alike. The target is on clock time; the ratio of
the processor time each used is shown beside it, the steadier figure on a busy
machine. The replay runs as
``python -m railgames.cli replay FILE`` (the console script would add its own
small start-up, and may point at another checkout). The mean, p95 and max of the
ratios are shown, with the raw times of both.

The records are those under tests/fixtures/records (of the checkout whose
``railgames`` the interpreter imports: run with PYTHONPATH set to measure
another one). The target (ratio <= 1.2, on the mean of the ratios) is on the
record with the most actions of all; the longest record of each other game is
shown as information.

Compiled bytecode is kept for both commands in a folder of its own for the run
(PYTHONPYCACHEPREFIX; PYTHONDONTWRITEBYTECODE is left out), as an installed
copy has it: without it every module of the checkout is compiled anew on every
run, which is not what a player waits for. One run of each command comes first,
unmeasured, to fill it.

    python benchmarks/replay_start.py [--quick] [--pairs 15] [--games new-england,...]

``ratio_rows(games, quick)`` gives the same figures as rows for benchmarks/run_all.py.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

TARGET_RATIO = 1.2
PAIRS = 15
QUICK_PAIRS = 5
REFERENCE = ("-c", "import pydantic")


def p95(values: Sequence[float]) -> float:
    """The 95th percentile, nearest rank (with 20 values or fewer: the largest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def checkout() -> Path:
    """The checkout whose ``railgames`` this interpreter imports (not imported here)."""
    spec = importlib.util.find_spec("railgames")
    if spec is None or spec.origin is None:
        raise SystemExit("railgames cannot be imported: set PYTHONPATH to a checkout")
    return Path(spec.origin).resolve().parents[1]


@dataclass
class Record:
    path: Path
    game: str
    actions: int


def records(root: Path) -> list[Record]:
    """Every saved game among the fixtures, longest first."""
    found = []
    for path in sorted((root / "tests" / "fixtures" / "records").rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("actions"), list) \
                and isinstance(data.get("game"), str):
            found.append(Record(path, data["game"], len(data["actions"])))
    return sorted(found, key=lambda r: (-r.actions, str(r.path)))


def longest_per_game(found: list[Record]) -> dict[str, Record]:
    best: dict[str, Record] = {}
    for rec in found:  # longest first: the first of each game is its longest
        best.setdefault(rec.game, rec)
    return best


def child_env(cache: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The clock time of one run, and the processor time it used (user and system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode})")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


@dataclass
class Pairs:
    record: Record
    reference: list[float]  # seconds
    replay: list[float]
    reference_cpu: list[float]  # processor seconds
    replay_cpu: list[float]

    @property
    def ratios(self) -> list[float]:
        return [b / a for a, b in zip(self.reference, self.replay, strict=True)]

    @property
    def cpu_ratios(self) -> list[float]:
        return [b / a for a, b in zip(self.reference_cpu, self.replay_cpu, strict=True)]

    def triple(self, values: list[float], scale: float = 1.0, digits: int = 2,
               unit: str = "") -> str:
        return " / ".join(f"{v * scale:.{digits}f}{unit}"
                          for v in (sum(values) / len(values), p95(values), max(values)))

    @property
    def ok(self) -> bool:
        return sum(self.ratios) / len(self.ratios) <= TARGET_RATIO

    def values(self) -> str:
        return (f"{self.triple(self.ratios)}x  (replay {self.triple(self.replay, 1000, 0, ' ms')}"
                f"; import pydantic {self.triple(self.reference, 1000, 0, ' ms')}"
                f"; n={len(self.ratios)}; processor time ratio {self.triple(self.cpu_ratios)}x)")


def measure(rec: Record, pairs: int, env: dict[str, str]) -> Pairs:
    python = sys.executable
    reference = [python, *REFERENCE]
    replay = [python, "-m", "railgames.cli", "replay", str(rec.path)]
    run(reference, env)  # fill the bytecode folder, and check both run
    run(replay, env)
    out = Pairs(rec, [], [], [], [])
    for _ in range(pairs):
        wall, cpu = run(reference, env)
        out.reference.append(wall)
        out.reference_cpu.append(cpu)
        wall, cpu = run(replay, env)
        out.replay.append(wall)
        out.replay_cpu.append(cpu)
    return out


def measure_all(games: list[str] | None, quick: bool,
                pairs: int | None = None) -> tuple[Pairs, list[Pairs]]:
    """The longest record of all, then the longest of each game in ``games`` (None: all)
    other than its game."""
    found = records(checkout())
    if not found:
        raise SystemExit("no saved games under tests/fixtures/records")
    n = pairs or (QUICK_PAIRS if quick else PAIRS)
    with tempfile.TemporaryDirectory(prefix="replay-start-pyc-") as cache:
        env = child_env(cache)
        longest = measure(found[0], n, env)
        others = [measure(rec, n, env) for game, rec in longest_per_game(found).items()
                  if rec is not found[0] and (games is None or game in games)]
    return longest, others


def ratio_rows(games: list[str], quick: bool) -> list[dict[str, object]]:
    longest, others = measure_all(games, quick)
    rows: list[dict[str, object]] = [{
        "figure": f"replay process / import pydantic, longest record "
                  f"({longest.record.actions} actions; mean / p95 / max)",
        "game": longest.record.game, "size": "-", "values": longest.values(),
        "target": f"mean <= {TARGET_RATIO}x", "ok": longest.ok,
    }]
    for other in others:
        rows.append({
            "figure": f"replay process / import pydantic, the game's longest record "
                      f"({other.record.actions} actions; mean / p95 / max)",
            "game": other.record.game, "size": "-", "values": other.values(),
            "target": "- (information)", "ok": True,
        })
    return rows


def load_line() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min); {os.cpu_count()} cores"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PAIRS} pairs a record")
    parser.add_argument("--pairs", type=int, default=None, help=f"pairs a record (default {PAIRS})")
    parser.add_argument("--games", default=None,
                        help="comma-separated game ids shown besides the longest record")
    parser.add_argument("--raw", action="store_true", help="also print every time, in ms")
    args = parser.parse_args()
    games = args.games.split(",") if args.games else None
    print(f"{sys.executable}; checkout {checkout()}")
    print(load_line())
    longest, others = measure_all(games, args.quick, args.pairs)
    for i, fig in enumerate([longest, *others]):
        head = "TARGET" if i == 0 else "info  "
        verdict = ("OK" if fig.ok else "OVER") if i == 0 else ""
        print(f"{head} {fig.record.path.name} ({fig.record.game}, {fig.record.actions} actions): "
              f"ratio mean / p95 / max {fig.values()}  {verdict}")
        if args.raw or i == 0:
            print("       reference ms: " + " ".join(f"{v * 1000:.0f}" for v in fig.reference))
            print("       replay ms:    " + " ".join(f"{v * 1000:.0f}" for v in fig.replay))
    print(f"target: mean of the ratios <= {TARGET_RATIO}x on the longest record")
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
