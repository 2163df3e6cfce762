"""Find, for each game, the seeded game its tutorial is played in (every rule, fewest moves).

A tutorial (railgames/core/tutorial.py) is one seeded game against bots; the
learner's expected moves seek the rules not yet taught. This script plays the
expected path over player counts, the learner's seat (first or last), seeds,
whether the bots seek rules too, and the game's set-up options (none, each, all),
and keeps the game that teaches every rule with the fewest learner moves (then
the fewest actions). It prints the choice and, with ``--write``, stores it in
railgames/core/tutorials.json.

    .venv/bin/python benchmarks/tutorial_search.py [--game ID] [--seeds 12] [--write]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path as FilePath
from typing import Any

from railgames.core.rulebook import rulebook
from railgames.core.tutorial import TUTORIALS_FILE, Path, TutorialSpec, play_path
from railgames.games import launcher_ids, load_ruleset

OUT = FilePath(__file__).resolve().parents[1] / "railgames" / "core" / TUTORIALS_FILE
MOST_MOVES = 90  # a longer tutorial is not kept, whatever it teaches
# The rules no single move shows, and the moves that work towards them (see the
# module railgames/core/tutorial.py): a hand grown past its limit by taking two; a bid
# made, to drop out of the auction after (with the option on); a build ended early.
LEADS: dict[str, dict[str, dict[str, Any]]] = {
    "paris-connection": {"pc.holding_limit": {"type": "trade", "count": 2}},
    "railways-of-the-world": {"rw.pass_pays_half": {"type": "bid"},
                              "rw.remove_incomplete": {"type": "end_build"}},
}


def variants(ruleset: Any) -> list[dict[str, Any]]:
    labels = list(getattr(ruleset, "option_labels", {}))
    out: list[dict[str, Any]] = [{}]
    out += [{name: True} for name in labels]
    if len(labels) > 1:
        out.append({name: True for name in labels})
    return out


def search(game_id: str, seeds: int, only: int | None = None) -> Path | None:
    ruleset = load_ruleset(game_id)
    best: Path | None = None
    for options in variants(ruleset):
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            if only is not None and players != only:
                continue
            for seat in sorted({0, players - 1}):
                for seeking in (False, True):
                    for seed in range(1, seeds + 1):
                        spec = TutorialSpec(game_id, players, seat, seed, seeking=seeking,
                                            options=options, leads=LEADS.get(game_id, {}))
                        limit = MOST_MOVES if best is None else best.learner_moves
                        path = play_path(ruleset, spec, max_learner_moves=limit)
                        if path.missing or not path.game.is_over():
                            continue
                        key = (path.learner_moves, path.actions)
                        if best is None or key < (best.learner_moves, best.actions):
                            best = path
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=None)
    parser.add_argument("--seeds", type=int, default=12)
    parser.add_argument("--players", type=int, default=None, help="only this many seats")
    parser.add_argument("--write", action="store_true", help=f"store the choice in {OUT.name}")
    args = parser.parse_args(argv)
    games = [args.game] if args.game else launcher_ids()
    stored: dict[str, Any] = json.loads(OUT.read_text()) if OUT.exists() else {}
    for game_id in games:
        path = search(game_id, args.seeds, args.players)
        if path is None:
            print(f"{game_id}: no game found that teaches every rule in {MOST_MOVES} moves")
            continue
        wanted = len(rulebook(load_ruleset(game_id)))
        print(f"{game_id}: {path.spec.spec()}: {len(path.taught)}/{wanted} rules, "
              f"{path.learner_moves} learner moves, {path.actions} actions")
        stored[game_id] = {"spec": path.spec.spec(), "rules": len(path.taught),
                           "learner_moves": path.learner_moves, "actions": path.actions}
    if args.write:
        OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
        print(f"written: {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
