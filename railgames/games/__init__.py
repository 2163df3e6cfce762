"""The games of the suite, each a folder like a title folder in the 18xx engine.

The registry maps a game id to its ruleset class by import path, so that
looking a game up never imports the others (or Textual).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from railgames.core.errors import MapError, RailgamesError

if TYPE_CHECKING:  # the engine and the map models (pydantic) load with the first ruleset
    from railgames.core.engine import Ruleset
    from railgames.core.maps import BaseMap

GAMES: dict[str, str] = {
    "new-england": "railgames.games.new_england.rules:NewEnglandRules",
    "paris-connection": "railgames.games.paris_connection.rules:ParisConnectionRules",
    "steel-driver": "railgames.games.steel_driver.rules:SteelDriverRules",
    "american-rails": "railgames.games.american_rails.rules:AmericanRailsRules",
    "railways-of-the-world": "railgames.games.railways_of_the_world.rules:RailwaysOfTheWorldRules",
}

# Games whose rules are complete (simulate, replay and maps check know them) but
# whose board is not drawn in the app yet: the launcher leaves them out.
NOT_IN_LAUNCHER: frozenset[str] = frozenset()


class UnknownGame(RailgamesError):
    pass


def ruleset_class(game_id: str) -> type[Ruleset[Any]]:
    try:
        target = GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"no game called '{game_id}' (known games: {known})") from None
    module, _, name = target.partition(":")
    cls: type[Ruleset[Any]] = getattr(importlib.import_module(module), name)
    return cls


@lru_cache(maxsize=16)
def _load_map(game_id: str, map_id: str) -> BaseMap:
    from railgames.core.maps import find_map, load_map_file

    cls = ruleset_class(game_id)
    game_map = load_map_file(find_map(map_id), cls.map_model)
    if game_map.game != game_id:
        raise MapError(f"map '{map_id}' is for the game '{game_map.game}', not '{game_id}'")
    return game_map


def load_ruleset(game_id: str, map_id: str | None = None) -> Ruleset[Any]:
    cls = ruleset_class(game_id)
    return cls(_load_map(game_id, map_id or cls.default_map))


def playable_games() -> list[type[Ruleset[Any]]]:
    """Games that play from set-up to final scores (the only ones the launcher lists)."""
    return [ruleset_class(g) for g in GAMES if g not in NOT_IN_LAUNCHER]


def maps_for(game_id: str) -> list[tuple[str, str]]:
    """(map id, title) of every map file for ``game_id``, its default map first."""
    from railgames.core.maps import maps_dirs, peek_header

    cls = ruleset_class(game_id)
    found: dict[str, str] = {}
    for folder in maps_dirs():
        for path in sorted(folder.glob("*.toml")):
            try:
                header = peek_header(path)
            except MapError:
                continue
            if header.get("game") == game_id and path.stem not in found:
                found[path.stem] = str(header.get("title", path.stem))
    return sorted(found.items(), key=lambda kv: (kv[0] != cls.default_map, kv[0]))
