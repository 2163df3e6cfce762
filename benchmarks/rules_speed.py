"""Speed of the rules layer (New England Railways, 4 players, random bots).

Targets (median, this machine): a whole random-bot game under 100 ms; replaying
a finished game's record under 50 ms; listing the legal actions plus applying
one under 1 ms.

    .venv/bin/python benchmarks/rules_speed.py [--games 60] [--players 4]
"""

from __future__ import annotations

import argparse
import statistics
import time

from railgames.core.engine import Game
from railgames.core.simulate import bot_players, bots_for, play_bot_game
from railgames.games import load_ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="new-england")
    args = parser.parse_args()
    ruleset = load_ruleset(args.game)
    players = bot_players(args.players, "random")
    play_bot_game(ruleset, players, 0)  # warm caches and imports

    game_times, replay_times, step_times = [], [], []
    actions = 0
    for seed in range(1, args.games + 1):
        t0 = time.perf_counter()
        game = play_bot_game(ruleset, players, seed)
        game_times.append(time.perf_counter() - t0)
        actions += len(game.record.actions)

        t0 = time.perf_counter()
        again = Game.replay(ruleset, game.record)
        replay_times.append(time.perf_counter() - t0)
        assert again.result() == game.result()

        # legal_actions() + apply(one of them), timed step by step over a fresh game.
        fresh = Game.new(ruleset, players, seed)
        bots = bots_for(fresh, seed)
        while not fresh.is_over():
            t0 = time.perf_counter()
            legal = fresh.legal_actions()
            prompt = fresh.prompt()
            assert prompt is not None and legal
            choice = bots[prompt.seat].choose(ruleset, fresh.view(prompt.seat), prompt)
            fresh.apply(choice)
            step_times.append(time.perf_counter() - t0)

    ms = 1000
    g_med, r_med = statistics.median(game_times), statistics.median(replay_times)
    s_med = statistics.median(step_times)
    s_p95 = sorted(step_times)[int(len(step_times) * 0.95)]
    print(f"{ruleset.title}, {args.players} random bots, {args.games} games, {actions} actions")
    print(f"  whole game        median {g_med * ms:7.2f} ms   (target < 100 ms)  "
          f"-> {1 / statistics.mean(game_times):.1f} games/s")
    print(f"  replay a record   median {r_med * ms:7.2f} ms   (target < 50 ms)   "
          f"-> {actions / sum(replay_times):,.0f} replayed actions/s")
    print(f"  legal + apply     median {s_med * ms:7.3f} ms   (target < 1 ms), p95 {s_p95 * ms:.3f} ms")


if __name__ == "__main__":
    main()
