"""Instructions one random-bot 4-player game costs, counted by valgrind, for every game.

A time moves with the machine's load; the count of instructions the processor runs
does not, so this figure is judged as it is: each game's count must be at most half
its count at the starting commit of the speed work (``rules_instructions_before.json``
beside this file, taken by this very script on that commit).

How it counts: for each game (and map), one process under callgrind loads the rules,
plays one warm-up game (seed 0, not counted: the rules keep what they work out from a
board, as a search's playouts reuse it) and then, for each seed, plays one whole
random-bot game (``railgames.core.simulate.play_bot_game`` with
``bot_players(4, "random")``) inside ``sys.call_tracing``. Callgrind counts only
inside that C function (``--collect-atstart=no --toggle-collect=sys_call_tracing``)
and writes one profile as each call ends (``--dump-after``), so interpreter start,
imports and loading the rules are left out, and each seed's game is one exact count
(``PYTHONHASHSEED=0`` keeps it the same from run to run). Reported per game: mean,
p95 and max over the seeds, in millions of instructions (Ir).

    PYTHONHASHSEED=0 .venv/bin/python benchmarks/rules_instructions.py [--quick] [--seeds 5]
        [--game ID] [--json] [--save-before]

Before figures, on the starting commit (a checkout of it at BEFORE_DIR):

    cd BEFORE_DIR && PYTHONPATH=$PWD python /path/to/benchmarks/rules_instructions.py --save-before

``--save-before`` writes the figures to ``rules_instructions_before.json`` beside
this script (not in the checkout measured). ``--quick`` counts 2 seeds.
``ratio_rows(games, quick)`` gives the rows of ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BEFORE_FILE = HERE / "rules_instructions_before.json"
VALGRIND = shutil.which("valgrind") or "/usr/bin/valgrind"
TARGET_RATIO = 0.5

# (label, game id, map id or None for the default). Railways of the World's default map
# is the eastern United States; its other one, Mexico, is for 2 or 3 players.
CASES: list[tuple[str, str, str | None]] = [
    ("new-england", "new-england", None),
    ("paris-connection", "paris-connection", None),
    ("steel-driver", "steel-driver", None),
    ("railways-of-the-world", "railways-of-the-world", None),
    ("american-rails", "american-rails", None),
]

# Run inside callgrind: the code measured is whatever ``railgames`` imports as (the
# checkout on PYTHONPATH, or this script's own checkout).
CHILD = r"""
import sys
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset
game_id, map_id = sys.argv[1], sys.argv[2] or None
seeds = [int(s) for s in sys.argv[3].split(",")]
ruleset = load_ruleset(game_id, map_id)
specs = bot_players(4, "random")
play_bot_game(ruleset, specs, 0)  # warm-up, not counted
actions = []
def one(seed):
    actions.append(len(play_bot_game(ruleset, specs, seed).record.actions))
for seed in seeds:
    sys.call_tracing(one, (seed,))
print(",".join(map(str, actions)))
"""


def count(game_id: str, map_id: str | None, seeds: list[int]) -> tuple[list[int], list[int]]:
    """Instructions and actions of the random-bot game of each seed, in seed order."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        done = subprocess.run(
            [VALGRIND, "--tool=callgrind", "--collect-atstart=no",
             "--toggle-collect=sys_call_tracing", "--dump-after=sys_call_tracing",
             f"--callgrind-out-file={out}.%p", sys.executable, "-c", CHILD,
             game_id, map_id or "", ",".join(map(str, seeds))],
            env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{game_id}: the counted run failed:\n{done.stderr[-2000:]}")
        actions = [int(a) for a in done.stdout.split()[-1].split(",")]
        counts: list[tuple[int, int]] = []  # (dump number, Ir)
        for path in Path(tmp).glob("cg.out.*"):
            text = path.read_text(errors="replace")
            part = re.search(r"^part: (\d+)", text, re.M)
            total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
            if part and total and int(total.group(1)) > 0:
                counts.append((int(part.group(1)), int(total.group(1))))
        counts.sort()
    if len(counts) != len(seeds):
        raise SystemExit(f"{game_id}: {len(counts)} counts for {len(seeds)} seeds")
    return [c for _, c in counts], actions


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def measure(labels: list[str] | None, seeds: list[int],
            each: Callable[[dict[str, dict[str, Any]]], None] | None = None) -> dict[str, dict[str, Any]]:
    """The figures of each game named (all when None); ``each`` is given them so far
    after each game."""
    figures: dict[str, dict[str, Any]] = {}
    for label, game_id, map_id in CASES:
        if labels and label not in labels and game_id not in labels:
            continue
        irs, actions = count(game_id, map_id, seeds)
        millions = [ir / 1e6 for ir in irs]
        figures[label] = {"seeds": seeds, "ir": irs, "actions": actions,
                          "mean_m": sum(millions) / len(millions), "p95_m": p95(millions),
                          "max_m": max(millions)}
        print(f"  {label}: {triple(figures[label])} M instructions  (actions {actions})",
              file=sys.stderr, flush=True)
        if each is not None:
            each(figures)
    return figures


def triple(fig: dict[str, Any]) -> str:
    return f"{fig['mean_m']:,.1f} / {fig['p95_m']:,.1f} / {fig['max_m']:,.1f}"


def load_before() -> dict[str, dict[str, Any]]:
    if not BEFORE_FILE.exists():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(BEFORE_FILE.read_text())["games"]
    return data


def rows_for(figures: dict[str, dict[str, Any]], before: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for label, fig in figures.items():
        was = before.get(label)
        if was is None or was["seeds"] != fig["seeds"]:
            values = f"{triple(fig)} M (no before figures for these seeds)"
            ok = False
        else:
            ratios = [now / then for now, then in zip(fig["ir"], was["ir"], strict=True)]
            values = (f"ratio {sum(ratios) / len(ratios):.2f} / {p95(ratios):.2f} / "
                      f"{max(ratios):.2f}; now {triple(fig)} M, before {triple(was)} M")
            ok = max(ratios) <= TARGET_RATIO
        rows.append({"figure": "random-bot 4-player game, instructions (mean / p95 / max)",
                     "game": label, "size": "-", "values": values,
                     "target": f"each seed <= {TARGET_RATIO} x before", "ok": ok})
    return rows


def seeds_for(quick: bool, n: int = 5) -> list[int]:
    return list(range(1, (2 if quick else n) + 1))


def ratio_rows(games: list[str], quick: bool) -> list[dict[str, Any]]:
    labels = [label for label, game_id, _ in CASES if game_id in games or label in games]
    before = load_before()
    seeds = seeds_for(quick)
    if quick and before:  # the before file's first seeds: compare like with like
        seeds = seeds[:2]
        before = {k: _first(v, 2) for k, v in before.items()}
    return rows_for(measure(labels, seeds), before)


def _first(fig: dict[str, Any], n: int) -> dict[str, Any]:
    millions = [ir / 1e6 for ir in fig["ir"][:n]]
    return {**fig, "seeds": fig["seeds"][:n], "ir": fig["ir"][:n],
            "mean_m": sum(millions) / len(millions), "p95_m": p95(millions),
            "max_m": max(millions)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--game", action="append", help="a game id or label (repeatable)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--save-before", action="store_true",
                        help=f"write the figures to {BEFORE_FILE.name} (on the starting commit)")
    args = parser.parse_args()
    seeds = seeds_for(args.quick, args.seeds)
    import railgames
    print(f"measuring {Path(railgames.__file__).parent.parent}", file=sys.stderr)
    if args.save_before:
        def save(figures: dict[str, dict[str, Any]]) -> None:
            old = load_before()
            old.update(figures)
            BEFORE_FILE.write_text(json.dumps({"games": old}, indent=1) + "\n")
        measure(args.game, seeds, save)
        print(f"wrote {BEFORE_FILE}", file=sys.stderr)
        return
    figures = measure(args.game, seeds)
    before = load_before()
    if not args.quick:
        rows = rows_for(figures, before)
    else:
        rows = rows_for(figures, {k: _first(v, len(seeds)) for k, v in before.items()})
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(f"{row['game']:<30} {row['values']}  [{row['target']}: "
              f"{'OK' if row['ok'] else 'OVER'}]")


if __name__ == "__main__":
    main()
