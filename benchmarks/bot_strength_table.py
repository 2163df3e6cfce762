"""The strength table, from the games recorded by ``bot_strength.py --json``.

    python benchmarks/bot_strength_table.py [FILE]

One row per game, map, seat count and budget: games played, the search bot's
win share with its 95% (Wilson) interval, its mean margin over the best greedy
bot, and whether the interval's lower end reaches the target (50% of 4-player
games, 70% head to head). A seed played twice under the same budget counts once
(the later line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_strength import wilson  # noqa: E402

DEFAULT = Path(__file__).resolve().parent / "bot_strength_results.jsonl"


def rows(path: Path) -> list[dict]:
    games: dict[tuple, dict[int, dict]] = {}
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        key = (r["game"], r["map"], r["players"], r["budget"])
        games.setdefault(key, {})[r["seed"]] = r
    out = []
    for (game, map_id, players, budget), by_seed in games.items():
        played = list(by_seed.values())
        n = len(played)
        wins = sum(r["won"] for r in played)
        low, high = wilson(wins, n)
        target = 0.7 if players == 2 else 0.5
        out.append({"game": game, "map": map_id, "players": players, "budget": budget, "games": n,
                    "wins": wins, "share": wins / n, "low": low, "high": high,
                    "margin": sum(r["margin"] for r in played) / n, "target": target,
                    "met": low >= target})
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT
    print("| Game | Map | Seats | Budget | Games | Won | 95% interval | Mean margin | Target | Met? |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows(path):
        print(f"| {r['game']} | {r['map']} | {r['players']} | {r['budget']} | {r['games']} | "
              f"{r['share']:.0%} ({r['wins']:g}/{r['games']}) | {r['low']:.0%}–{r['high']:.0%} | "
              f"{r['margin']:+.1f} | {r['target']:.0%} | {'yes' if r['met'] else 'no'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
