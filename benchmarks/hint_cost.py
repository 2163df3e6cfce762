"""Processor time of a hint (``railgames.core.coach.advise``) in the middle of a game, for every game.

For each game, whole games of greedy bots (3 players, ``--seeds`` seeds) are
replayed to a few points between a quarter and two thirds of their length, at a
decision with more than one legal answer, and the seat to move is given a hint
at the game's hint budget (``hint_budget``: iterations, so a hint is the same
on every machine). Reported per game: the processor time of the hint (this
process's, steady on a shared machine) as mean, p95 and max, and the
iterations a second, which is what the budget is set from (about one second).

    python benchmarks/hint_cost.py [--game ID] [--seeds 3] [--iterations N] [--json]

``--iterations`` replaces the games' budgets (to calibrate them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from railgames.core.coach import advise, hint_budget
from railgames.core.engine import Game
from railgames.core.search import Budget
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

GAMES = ("new-england", "paris-connection", "steel-driver", "railways-of-the-world", "american-rails")
PARTS = (0.25, 0.4, 0.55, 0.67)


def positions(game_id: str, seeds: int, players: int = 3) -> list[Game]:
    """Mid-game positions with a real choice, from seeded games of greedy bots."""
    ruleset = load_ruleset(game_id)
    out = []
    for seed in range(1, seeds + 1):
        done = play_bot_game(ruleset, bot_players(players, "greedy"), seed)
        for part in PARTS:
            upto = int(len(done.record.actions) * part)
            while upto < len(done.record.actions):
                game = Game.replay(ruleset, done.record, upto)
                if len(ruleset.legal_actions(game.state)) > 1:
                    out.append(game)
                    break
                upto += 1
    return out


def measure(game_id: str, seeds: int = 3, iterations: int | None = None) -> dict[str, Any]:
    ruleset = load_ruleset(game_id)
    budget = hint_budget(ruleset) if iterations is None else Budget(seconds=None, iterations=iterations)
    cpu: list[float] = []
    done = 0
    for game in positions(game_id, seeds):
        prompt = game.prompt()
        assert prompt is not None
        start = time.process_time()
        advice = advise(ruleset, game.view(prompt.seat), prompt, budget=budget, seed=len(cpu))
        cpu.append(time.process_time() - start)
        done += advice.iterations
    cpu.sort()
    p95 = cpu[min(len(cpu) - 1, round(0.95 * (len(cpu) - 1)))]
    return {"game": game_id, "positions": len(cpu), "iterations": budget.iterations,
            "cpu_mean": round(statistics.fmean(cpu), 3), "cpu_p95": round(p95, 3),
            "cpu_max": round(cpu[-1], 3), "iterations_per_cpu_second": round(done / sum(cpu))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(g, args.seeds, args.iterations) for g in ([args.game] if args.game else GAMES)]
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'game':24} {'pos':>4} {'iters':>6} {'mean s':>7} {'p95 s':>7} {'max s':>7} {'it/s':>6}")
    for r in rows:
        print(f"{r['game']:24} {r['positions']:>4} {r['iterations']:>6} {r['cpu_mean']:>7} "
              f"{r['cpu_p95']:>7} {r['cpu_max']:>7} {r['iterations_per_cpu_second']:>6}")


if __name__ == "__main__":
    main()
