"""How strong is the search bot? It plays against greedy bots, and the share of games it wins is printed.

    python benchmarks/bot_strength.py GAME --games N [--iterations K | --seconds S]
    python benchmarks/bot_strength.py railways-of-the-world --map rotw-mexico --players 2 --games N
    python benchmarks/bot_strength.py GAME --rate      # iterations a second, from a few mid-game positions

Each game seats one search bot among greedy bots (4 seats, or as many as the
game allows if fewer), the search bot's seat rotating from game to game; game i
is dealt with seed ``--seed + i``. A shared win counts as a share of a win.
Printed: the search bot's win share with a 95% (Wilson) interval, its mean
score margin over the best greedy bot, and how much it searched.

A time budget depends on the machine and on what else runs on it; for
measurements, give ``--iterations`` (what a second buys on an idle core, see
``--rate``), which is also reproducible.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from railgames.core.bots import make_bot  # noqa: E402
from railgames.core.engine import Game  # noqa: E402
from railgames.core.record import PlayerSpec  # noqa: E402
from railgames.core.search import Budget, SearchBot  # noqa: E402
from railgames.games import load_ruleset  # noqa: E402

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z * z / n)), min(1.0, (centre + spread) / (1 + z * z / n))


def play_one(ruleset, players: int, seed: int, search_seat: int, budget: Budget) -> dict:
    specs = [PlayerSpec(name=NAMES[i], kind="search" if i == search_seat else "greedy")
             for i in range(players)]
    game = Game.new(ruleset, specs, seed)
    bots = []
    for i in range(players):
        if i == search_seat:
            bots.append(SearchBot(ruleset.bot_makers()["search"], seed * 7919 + i, budget=budget))
        else:
            bots.append(make_bot("greedy", ruleset, seed * 7919 + i))
    iterations = 0
    think = 0.0
    decisions = 0
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        bot = bots[prompt.seat]
        action = bot.choose(ruleset, game.view(prompt.seat), prompt)
        if prompt.seat == search_seat and bot.last is not None and bot.last.iterations:
            iterations += bot.last.iterations
            think += bot.last.cpu
            decisions += 1
        game.apply(action)
    result = game.result()
    assert result is not None
    scores = list(result.scores.values())
    mine = scores[search_seat]
    best_other = max(s for i, s in enumerate(scores) if i != search_seat)
    names = list(result.scores)
    won = 1.0 / len(result.winners) if names[search_seat] in result.winners else 0.0
    return {"seed": seed, "seat": search_seat, "won": won, "margin": mine - best_other,
            "scores": scores, "iterations": iterations, "think": think, "decisions": decisions}


def rate(ruleset, players: int, seconds: float, positions: int = 4) -> float:
    """Iterations a second of processor time, averaged over positions through a greedy game.

    Processor time, not wall-clock time: on a busy machine this still says what a
    second buys on an idle core.
    """
    from railgames.core.simulate import bot_players, play_bot_game

    game = play_bot_game(ruleset, bot_players(players, "greedy"), 12345)
    total = len(game.record.actions)
    done = spent = 0.0
    for k in range(positions):
        upto = total * (k + 1) // (positions + 1)
        mid = Game.replay(ruleset, game.record, upto)
        prompt = mid.prompt()
        if prompt is None:
            continue
        bot = SearchBot(ruleset.bot_makers()["search"], k, budget=Budget(seconds=seconds))
        # A position with one move needs no search; step on to one that has a choice.
        bot.choose(ruleset, mid.view(prompt.seat), prompt)
        while bot.last is not None and bot.last.iterations == 0 and not mid.is_over():
            mid.apply(prompt.choices[0] if prompt.choices else bot.choose(ruleset, mid.view(prompt.seat), prompt))
            prompt = mid.prompt()
            if prompt is None:
                break
            bot.choose(ruleset, mid.view(prompt.seat), prompt)
        if bot.last is not None:
            done += bot.last.iterations
            spent += bot.last.cpu
    return done / spent if spent else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--map", default=None)
    ap.add_argument("--players", type=int, default=None, help="seats (default 4, or the most the game allows)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0,
                    help="index of the first game (seed and seat follow it), to run a series in parts")
    ap.add_argument("--iterations", type=int, default=None, help="search iterations a move")
    ap.add_argument("--seconds", type=float, default=None, help="search seconds a move (default 1)")
    ap.add_argument("--rate", action="store_true", help="measure iterations a second and stop")
    ap.add_argument("--json", metavar="FILE", help="append each game's result to FILE as a JSON line")
    args = ap.parse_args(argv)
    ruleset = load_ruleset(args.game, args.map)
    players = args.players or min(4, ruleset.max_players)
    if args.rate:
        r = rate(ruleset, players, args.seconds or 1.0)
        print(f"{args.game} ({ruleset.map.id}, {players}p): {r:.0f} iterations/s")
        return 0
    if args.iterations is None and args.seconds is None:
        args.seconds = 1.0
    budget = Budget(seconds=args.seconds if args.iterations is None else None, iterations=args.iterations)
    what = f"{args.iterations} iterations" if args.iterations else f"{args.seconds:g} s"
    print(f"{ruleset.title} ({ruleset.map.id}), {players} players: one search bot ({what} a move) "
          f"against {players - 1} greedy bot{'s' if players > 2 else ''}; {args.games} games", flush=True)
    results = []
    start = time.perf_counter()
    for i in range(args.start, args.start + args.games):
        r = play_one(ruleset, players, args.seed + i, i % players, budget)
        results.append(r)
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps({"game": args.game, "map": ruleset.map.id, "players": players,
                                    "budget": what, **r}) + "\n")
        print(f"  game {i + 1:3}: seed {r['seed']}, seat {r['seat']}, "
              f"{'won' if r['won'] == 1 else 'shared' if r['won'] else 'lost'}, "
              f"margin {r['margin']:+}, {r['decisions']} searched moves", flush=True)
    n = len(results)
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, n)
    margin = sum(r["margin"] for r in results) / n
    its = sum(r["iterations"] for r in results)
    think = sum(r["think"] for r in results)
    print(f"win share {wins / n:.0%} ({wins:g}/{n}), 95% interval {low:.0%}-{high:.0%}; "
          f"mean margin {margin:+.1f}; fair share {1 / players:.0%}; "
          f"{its / max(1, sum(r['decisions'] for r in results)):.0f} iterations a searched move, "
          f"{its / think if think else 0:.0f}/s; {time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
