"""A trace of seeded bot games, to show that a change made for speed changes nothing else.

For each game (or those named), on each of its maps, for every player count the map
allows, with random bots, greedy bots (where the game has them) and the two mixed,
and with each set-up option: seeded games played to the end. Every prompt (seat,
step, texts, choices, amount), every action and the form the record keeps, every
log line with its data, the result, the record and the final state are written as
JSON lines; each game is also replayed from its record, which must reach the same
state. The digest of it all is printed last.

Run it on the code before a change and after it; the two files must be the same,
byte for byte:

    PYTHONHASHSEED=0 .venv/bin/python benchmarks/rules_trace.py --out before.jsonl
    ...change...
    PYTHONHASHSEED=0 .venv/bin/python benchmarks/rules_trace.py --out after.jsonl
    cmp before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from railgames.core.engine import Game, Prompt  # noqa: E402
from railgames.core.events import Event  # noqa: E402
from railgames.core.record import PlayerSpec  # noqa: E402
from railgames.core.simulate import bots_for  # noqa: E402
from railgames.games import GAMES, load_ruleset, maps_for  # noqa: E402

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def event_form(e: Event) -> list[Any]:
    return [e.action, e.text, e.kind, repr(e.data), e.chance,
            None if e.visible_to is None else sorted(e.visible_to), list(e.rules)]


def prompt_form(p: Prompt) -> dict[str, Any]:
    return {"seat": p.seat, "step": p.step, "text": p.text, "help": p.help,
            "choices": [[type(c).__name__, c.model_dump(mode="json")] for c in p.choices],
            "amount": None if p.amount is None else dataclasses.asdict(p.amount)}


def setups(game_id: str, seeds: int) -> list[tuple[str, int, str, dict[str, bool], int]]:
    """(map, players, bots, options, seed) of every game traced for ``game_id``."""
    out = []
    labels = list(load_ruleset(game_id).option_labels)
    options: list[dict[str, bool]] = [{}] + [{label: True} for label in labels]
    seed = 1000
    for map_id, _ in maps_for(game_id):
        rules = load_ruleset(game_id, map_id)
        kinds = ["random", "greedy", "mixed"] if "greedy" in rules.bot_makers() else ["random"]
        for players in range(rules.min_players, rules.max_players + 1):
            for kind in kinds:
                for _ in range(seeds):
                    seed += 1
                    out.append((map_id, players, kind, options[seed % len(options)], seed))
    return out


def trace_game(game_id: str, map_id: str, players: int, kind: str, options: dict[str, bool],
               seed: int) -> list[str]:
    rules = load_ruleset(game_id, map_id)
    specs = [PlayerSpec(name=NAMES[i], kind=("greedy" if kind == "mixed" and i % 2 else
                                              "random" if kind == "mixed" else kind))  # type: ignore[arg-type]
             for i in range(players)]
    game = Game.new(rules, specs, seed, options)
    bots = bots_for(game, seed)
    lines = [json.dumps({"game": [game_id, map_id, players, kind, options, seed],
                         "setup": [event_form(e) for e in game.log]})]
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        action = bots[prompt.seat].choose(rules, game.view(prompt.seat), prompt)
        events = game.apply(action)
        lines.append(json.dumps({"prompt": prompt_form(prompt),
                                 "action": [type(action).__name__, action.model_dump(mode="json")],
                                 "recorded": game.record.actions[-1],
                                 "events": [event_form(e) for e in events]}))
    result = game.result()
    again = Game.replay(rules, game.record)
    assert repr(again.state) == repr(game.state), f"{game_id} seed {seed}: replay differs"
    lines.append(json.dumps({"result": None if result is None else dataclasses.asdict(result),
                             "record": game.record.model_dump(mode="json",
                                                              exclude={"created", "updated"}),
                             "state": repr(game.state)}))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="a game to trace (repeatable); every game by default")
    parser.add_argument("--seeds", type=int, default=2, help="games per set-up")
    parser.add_argument("--out", type=Path, required=True, help="the JSON lines file to write")
    args = parser.parse_args()
    digest = hashlib.sha256()
    games = 0
    with args.out.open("w") as out:
        for game_id in args.game or list(GAMES):
            for setup in setups(game_id, args.seeds):
                for line in trace_game(game_id, *setup):
                    out.write(line + "\n")
                    digest.update(line.encode())
                games += 1
    print(f"{games} games traced; digest {digest.hexdigest()}")


if __name__ == "__main__":
    main()
