"""Speed of the rules layer, for every game: mean, p50, p95 and max, judged against targets.

For each game (4 players):

* bot game: a whole random-bot game in this process, over ``--games`` seeds
  (target p50 <= 15 ms);
* step: listing the legal actions plus applying one, step by step (reported);
* replay, in process: the game's longest saved record (tests/fixtures/records)
  replayed ``--replays`` times in a row; the target is on max / median <= 2, the
  figure that shows pauses of the garbage collector. The collector is settled
  first (``railgames.core.collector.settle``), as ``railgames replay`` and
  ``simulate`` do once the rules are loaded; the rules keep what they work out
  from a board (shipping paths, listed choices), so replays after the first
  reuse it, as an undo in the app does;
* replay, whole process: ``railgames replay FILE`` on that record, as a new
  process each time, ``--runs`` times (target p50 <= 120 ms);
* import: ``import railgames.core.engine`` in a new process (reported).

The machine's load average is printed: timings on a busy machine are noisy, so
repeat a run before believing one figure. Processor time (this process's, or the
child's) is given beside the clock time: it is the steadier figure for comparing
two versions of the code on a shared machine; the targets are on clock time.

    .venv/bin/python benchmarks/rules_speed.py [--game ID] [--games 40] [--json]

``measure(game_id, ...)`` returns the same figures as a dict (``--json`` prints
a list of them), for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:
    from railgames.core.collector import settle  # noqa: E402
except ImportError:  # an older checkout measured for comparison
    def settle() -> None:
        pass
from railgames.core.engine import Game  # noqa: E402
from railgames.core.record import load_record  # noqa: E402
from railgames.core.simulate import bot_players, bots_for, play_bot_game  # noqa: E402
from railgames.games import GAMES, load_ruleset  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "records"

TARGET_BOT_GAME_P50_MS = 15.0
TARGET_REPLAY_PROCESS_P50_MS = 120.0
TARGET_REPLAY_SPREAD = 2.0  # in-process replay, max / median


def stats(values_s: list[float]) -> dict[str, float]:
    """mean, p50, p95 and max in milliseconds."""
    ordered = sorted(values_s)
    n = len(ordered)
    return {
        "n": n,
        "mean": 1000 * statistics.fmean(ordered),
        "p50": 1000 * statistics.median(ordered),
        "p95": 1000 * ordered[min(n - 1, int(0.95 * n))],
        "max": 1000 * ordered[-1],
    }


def longest_record(game_id: str) -> Path:
    """The saved record of ``game_id`` with the most actions."""
    best: tuple[int, Path] | None = None
    for path in sorted(FIXTURES.glob(f"{game_id}-*.json")):
        count = len(json.loads(path.read_text())["actions"])
        if best is None or count > best[0]:
            best = (count, path)
    assert best is not None, f"no saved record for {game_id} in {FIXTURES}"
    return best[1]


def railgames_command() -> list[str]:
    script = Path(sys.executable).with_name("railgames")
    return [str(script)] if script.exists() else [sys.executable, "-m", "railgames"]


def process_times(argv: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and processor seconds of ``runs`` new processes running ``argv``."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="")
    wall, cpu = [], []
    subprocess.run(argv, check=True, capture_output=True, env=env)  # warm the file cache
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, env=env)
        wall.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall, cpu


def measure(game_id: str, games: int = 40, players: int = 4, replays: int = 40,
            runs: int = 15, steps: bool = True) -> dict[str, Any]:
    ruleset = load_ruleset(game_id)
    specs = bot_players(players, "random")
    play_bot_game(ruleset, specs, 0)  # warm caches and imports
    settle()

    game_times: list[float] = []
    game_cpu: list[float] = []
    step_times: list[float] = []
    actions = 0
    for seed in range(1, games + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        game = play_bot_game(ruleset, specs, seed)
        game_times.append(time.perf_counter() - t0)
        game_cpu.append(time.process_time() - c0)
        actions += len(game.record.actions)
        if steps:
            fresh = Game.new(ruleset, specs, seed)
            bots = bots_for(fresh, seed)
            while not fresh.is_over():
                t0 = time.perf_counter()
                legal = fresh.legal_actions()
                prompt = fresh.prompt()
                assert prompt is not None and legal
                fresh.apply(bots[prompt.seat].choose(ruleset, fresh.view(prompt.seat), prompt))
                step_times.append(time.perf_counter() - t0)

    path = longest_record(game_id)
    record = load_record(path)
    from railgames.games import ruleset_for_record

    on_its_map = ruleset_for_record(record, str(path))
    Game.replay(on_its_map, record)
    replay_times, replay_cpu = [], []
    for _ in range(replays):
        t0, c0 = time.perf_counter(), time.process_time()
        Game.replay(on_its_map, record)
        replay_times.append(time.perf_counter() - t0)
        replay_cpu.append(time.process_time() - c0)

    out: dict[str, Any] = {
        "game": game_id,
        "players": players,
        "bot_game": stats(game_times) | {"actions_mean": actions / games},
        "replay_in_process": stats(replay_times) | {"record": path.name,
                                                   "actions": len(record.actions)},
        # The same, counting only this process's processor time: on a busy machine
        # this is the steadier figure for comparing two versions of the code.
        "cpu": {"bot_game": stats(game_cpu), "replay_in_process": stats(replay_cpu)},
        "step": stats(step_times) if step_times else None,
    }
    rep = out["replay_in_process"]
    rep["spread"] = rep["max"] / rep["p50"]
    # A collector pause is processor work; a wait for a busy machine's cores is not.
    cpu_rep = out["cpu"]["replay_in_process"]
    rep["spread_cpu"] = cpu_rep["max"] / cpu_rep["p50"] if cpu_rep["p50"] else 0.0
    if runs:
        wall, cpu = process_times([*railgames_command(), "replay", str(path)], runs)
        out["replay_process"] = stats(wall) | {"record": path.name}
        out["cpu"]["replay_process"] = stats(cpu)
    out["verdict"] = {
        "bot_game_p50": out["bot_game"]["p50"] <= TARGET_BOT_GAME_P50_MS,
        "replay_spread": rep["spread"] <= TARGET_REPLAY_SPREAD,
    }
    if runs:
        out["verdict"]["replay_process_p50"] = (
            out["replay_process"]["p50"] <= TARGET_REPLAY_PROCESS_P50_MS)
    return out


def import_times(runs: int) -> dict[str, float]:
    wall, cpu = process_times([sys.executable, "-c", "import railgames.core.engine"], runs)
    return stats(wall) | {"cpu_p50": stats(cpu)["p50"]}


def line(label: str, s: dict[str, float], target: str = "", ok: bool | None = None) -> str:
    judged = "" if ok is None else ("  OK" if ok else "  MISSED")
    return (f"  {label:<24} mean {s['mean']:7.2f}  p50 {s['p50']:7.2f}  p95 {s['p95']:7.2f}  "
            f"max {s['max']:7.2f} ms  {target}{judged}")


def report(results: list[dict[str, Any]], imports: dict[str, float] | None) -> None:
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  "
          f"(python {sys.version.split()[0]})")
    if imports:
        print(line("import core.engine", imports, "(new process, reported)"))
    for r in results:
        v = r["verdict"]
        print(f"{r['game']}, {r['players']} random bots, {r['bot_game']['n']} games, "
              f"{r['bot_game']['actions_mean']:.0f} actions per game")
        print(line("bot game", r["bot_game"], f"target p50 <= {TARGET_BOT_GAME_P50_MS:.0f}",
                   v["bot_game_p50"]))
        if r["step"]:
            print(line("legal + apply, a step", r["step"], "(reported)"))
        rep = r["replay_in_process"]
        print(line(f"replay x{rep['n']}, in process", rep,
                   f"max/p50 {rep['spread']:.2f} (target <= {TARGET_REPLAY_SPREAD:.0f})",
                   v["replay_spread"]))
        print(f"    record {rep['record']}, {rep['actions']} actions; "
              f"max/p50 of processor time {rep['spread_cpu']:.2f}")
        if "replay_process" in r:
            print(line("railgames replay FILE", r["replay_process"],
                       f"target p50 <= {TARGET_REPLAY_PROCESS_P50_MS:.0f}",
                       v["replay_process_p50"]))
        cpu = r["cpu"]
        print("  processor time, p50:  " + "   ".join(
            f"{label} {cpu[key]['p50']:.1f} ms" for key, label in (
                ("bot_game", "bot game"), ("replay_in_process", "replay in process"),
                ("replay_process", "replay FILE")) if key in cpu))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="a game to measure (repeatable); every game by default")
    parser.add_argument("--games", type=int, default=40, help="random-bot games per game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--replays", type=int, default=40, help="in-process replays of the record")
    parser.add_argument("--runs", type=int, default=15, help="whole-process replays (0: none)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    results = [measure(g, args.games, args.players, args.replays, args.runs)
               for g in (args.game or list(GAMES))]
    imports = import_times(args.runs) if args.runs else None
    if args.json:
        print(json.dumps({"load": os.getloadavg(), "import_engine": imports,
                          "games": results}, indent=1))
    else:
        report(results, imports)


if __name__ == "__main__":
    main()
