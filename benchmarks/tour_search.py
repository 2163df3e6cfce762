"""Find, for each game, the seeded bot games a quick tour shows (every rule once, shortest).

A tour (railgames/core/tour.py) shows only the actions that explain a rule for
the first time and skips the stretches between with a line each. This script
plays bot games over seeds, bot kinds, player counts and the game's set-up
options, and picks pieces greedily: first the game that explains the most rules
(the shortest tour among those), then, while rules are missing, the game that
explains the most of the missing ones, and so on. It prints each game's tour
(pieces, actions shown, lines skipped, seconds at the default pace) and, with
``--write``, stores the chosen pieces in railgames/core/tours.json.

    .venv/bin/python benchmarks/tour_search.py [--game ID] [--seeds 20] [--write]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from railgames.core.rulebook import rulebook
from railgames.core.tour import (
    PIECE_SECONDS,
    SKIP_SECONDS,
    TOURS_FILE,
    Piece,
    Tour,
    build_tour,
    new_rule_stops,
    play_piece,
)
from railgames.games import launcher_ids, load_ruleset

KINDS = ("greedy", "random")
OUT = Path(__file__).resolve().parents[1] / "railgames" / "core" / TOURS_FILE


def candidates(ruleset: Any, seeds: int) -> list[Piece]:
    variants: list[dict[str, Any]] = [{}]
    variants += [{name: True} for name in getattr(ruleset, "option_labels", {})]
    return [Piece(n, kind, seed, options)
            for options in variants for kind in KINDS
            for n in range(ruleset.min_players, ruleset.max_players + 1)
            for seed in range(1, seeds + 1)]


def search(game_id: str, seeds: int) -> Tour:
    ruleset = load_ruleset(game_id)
    wanted = {r.id for r in rulebook(ruleset)}
    played = [(piece, play_piece(ruleset, piece).log) for piece in candidates(ruleset, seeds)]
    seen: set[str] = set()
    chosen: list[Piece] = []
    while not wanted <= seen:
        best: tuple[int, float, int] | None = None
        pick: Piece | None = None
        for index, (piece, log) in enumerate(played):
            stops = new_rule_stops(log, set(seen))
            gain = len({r for s in stops for r in s.rules} & wanted)
            if not gain:
                continue
            cost = (PIECE_SECONDS + sum(1 for s in stops if s.position > 0)
                    + SKIP_SECONDS * sum(1 for s in stops if s.skipped))
            key = (-gain, cost, index)  # most rules, then the quickest, then the first found
            if best is None or key < best:
                best, pick = key, piece
        if pick is None:
            break  # no game played here explains the rest
        chosen.append(pick)
        new_rule_stops(next(log for p, log in played if p is pick), seen)
    return build_tour(ruleset, chosen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=None)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--write", action="store_true", help=f"store the pieces in {OUT.name}")
    args = parser.parse_args(argv)
    games = [args.game] if args.game else launcher_ids()
    stored: dict[str, Any] = json.loads(OUT.read_text()) if OUT.exists() else {}
    for game_id in games:
        ruleset = load_ruleset(game_id)
        tour = search(game_id, args.seeds)
        wanted = {r.id for r in rulebook(ruleset)}
        missing = sorted(wanted - tour.rules)
        full = sum(len(g.record.actions) for g in tour.games)
        print(f"{game_id}: {len(tour.rules)}/{len(wanted)} rules, {len(tour.pieces)} game(s) "
              f"{[p.spec() for p in tour.pieces]}, {tour.actions} actions shown of {full}, "
              f"{tour.skips} skipped stretches, {tour.seconds:.0f} s at speed 1"
              + (f"; never explained: {missing}" if missing else ""))
        stored[game_id] = {
            "pieces": [p.spec() for p in tour.pieces],
            "rules": len(tour.rules), "actions_shown": tour.actions, "actions_played": full,
            "skipped_stretches": tour.skips, "seconds": round(tour.seconds),
        }
    if args.write:
        OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"written: {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
