"""Time of a whole game's review (``railgames.core.review.review_game``), for every game.

For each game, a seeded game of greedy bots (3 players) is played out and its
first seat reviewed at the game's review budget (``review_budget``: iterations,
so a review is the same on every machine). Reported per game: the actions of
the game, the seat's decisions, the wall-clock and processor seconds of the
whole review, and how many decisions it found costly (at least one point or $1).
The machine's load average is printed with it: on a shared machine the wall
clock grows with the load, the processor time much less.

    python benchmarks/review_cost.py [--game ID] [--seed 1] [--players 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from railgames.core.review import review_budget, review_game
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

GAMES = ("new-england", "paris-connection", "steel-driver", "railways-of-the-world", "american-rails")


def measure(game_id: str, seed: int = 1, players: int = 3) -> dict[str, Any]:
    ruleset = load_ruleset(game_id)
    record = play_bot_game(ruleset, bot_players(players, "greedy"), seed).record
    wall, cpu = time.perf_counter(), time.process_time()
    review = review_game(ruleset, record, 0)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert review is not None
    return {"game": game_id, "actions": len(record.actions), "decisions": len(review.decisions),
            "iterations": review_budget(ruleset).iterations, "wall": round(wall, 1),
            "cpu": round(cpu, 1), "costly": sum(d.costly for d in review.decisions),
            "load": round(os.getloadavg()[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game_id in [args.game] if args.game else GAMES:
        rows.append(measure(game_id, args.seed, args.players))
        if not args.json:
            r = rows[-1]
            print(f"{r['game']:24} actions {r['actions']:>4}  decisions {r['decisions']:>4}  "
                  f"iterations {r['iterations']:>3}  wall {r['wall']:>5}s  cpu {r['cpu']:>5}s  "
                  f"costly {r['costly']:>3}  load {r['load']}", flush=True)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
