"""The games of the suite, each a folder like a title folder in the 18xx engine.

This is the one registry: it reads each game's descriptor (``<game>/game.py``, see
descriptor.py) and nothing else names the games. Looking a game up imports its
descriptor only, never its rules or Textual. A game from outside the package
(a test's toy game, say) joins with ``register`` and leaves with ``unregister``.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from railgames.core.errors import MapError, RailgamesError, RecordError
from railgames.games.descriptor import GameDescriptor

if TYPE_CHECKING:  # the engine and the map models (pydantic) load with the first ruleset
    from railgames.core.engine import Ruleset
    from railgames.core.maps import BaseMap
    from railgames.core.record import GameRecord

# The games shipped, by folder, in the order the launcher lists them.
SHIPPED = ("new_england", "paris_connection", "steel_driver", "american_rails",
           "railways_of_the_world")

GAMES: dict[str, GameDescriptor] = {}
for _folder in SHIPPED:
    _game: GameDescriptor = importlib.import_module(f"{__name__}.{_folder}.game").GAME
    GAMES[_game.id] = _game

# Games whose rules are complete (simulate, replay and maps check know them) but
# whose board is not drawn in the app yet: the launcher leaves them out.
NOT_IN_LAUNCHER: frozenset[str] = frozenset(g for g, d in GAMES.items() if not d.in_launcher)


class UnknownGame(RailgamesError):
    pass


def register(game: GameDescriptor) -> None:
    """Adds a game (after the shipped ones); its maps folder, if any, is searched for maps."""
    from railgames.core.maps import added_maps_dirs

    if game.id in GAMES:
        raise RailgamesError(f"a game called '{game.id}' is registered already")
    GAMES[game.id] = game
    if game.maps is not None:
        added_maps_dirs.append(game.maps)
    _load_map.cache_clear()


def unregister(game_id: str) -> None:
    """Takes a game added by ``register`` away again (a shipped game stays)."""
    from railgames.core.maps import added_maps_dirs

    game = GAMES.get(game_id)
    if game is None or game.package.startswith(f"{__name__}."):
        raise RailgamesError(f"'{game_id}' is not a game added by register()")
    del GAMES[game_id]
    if game.maps is not None and game.maps in added_maps_dirs:
        added_maps_dirs.remove(game.maps)
    _load_map.cache_clear()


def descriptor(game_id: str) -> GameDescriptor:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"no game called '{game_id}' (known games: {known})") from None


def ruleset_class(game_id: str) -> type[Ruleset[Any]]:
    game = descriptor(game_id)
    cls: type[Ruleset[Any]] = game.load(game.rules)
    return cls


def launcher_ids() -> list[str]:
    """The games the launcher lists, in its order."""
    return [g for g, d in GAMES.items() if d.in_launcher]


def help_text(game_id: str) -> str | None:
    """A game's rules help (its help file), None when it has none."""
    from importlib import resources  # (it loads tempfile and shutil: not for every command)

    game = descriptor(game_id)
    try:
        return resources.files(game.package).joinpath(game.help).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


@lru_cache(maxsize=16)
def _load_map(game_id: str, map_id: str) -> BaseMap:
    from railgames.core.maps import checked_board, find_map, header_of, kept_board, read_map_text

    cls = ruleset_class(game_id)
    path = find_map(map_id)
    text = read_map_text(path)
    game_map = kept_board(path, text, cls.map_model)  # its game is the file's, as below
    if game_map is None:
        # Whose map it is, asked before it is read as this game's map (another game's
        # map would otherwise fail as a pile of field errors).
        owner = header_of(text, path).get("game")
        if owner != game_id:
            raise MapError(_not_its_map(map_id, owner, game_id))
        game_map = checked_board(path, text, cls.map_model)
    if game_map.game != game_id:
        raise MapError(_not_its_map(map_id, game_map.game, game_id))
    return game_map


def _not_its_map(map_id: str, owner: Any, game_id: str) -> str:
    """One line: whose map ``map_id`` is, and the maps ``game_id`` has."""
    whose = (f"is a {descriptor(owner).title} map" if isinstance(owner, str) and owner in GAMES
             else "names no game of this suite")
    own = ", ".join(m for m, _ in maps_for(game_id)) or "none"
    return f"map '{map_id}' {whose}; {descriptor(game_id).title} is played on: {own}"


def load_ruleset(game_id: str, map_id: str | None = None) -> Ruleset[Any]:
    cls = ruleset_class(game_id)
    return cls(_load_map(game_id, map_id or cls.default_map))


def playable_games() -> list[type[Ruleset[Any]]]:
    """Games that play from set-up to final scores (the only ones the launcher lists)."""
    return [ruleset_class(g) for g in launcher_ids()]


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


def ruleset_for_record(record: GameRecord, source: str) -> Ruleset[Any]:
    """The game's rules on the very map version the record was played on, if they know
    the edition of the rules it was played under (each keeps its earlier editions).

    Every refusal is a RecordError naming ``source`` and saying what is missing.
    """
    from railgames.core.map_pins import check_map_game, map_played_on
    from railgames.core.maps import find_map

    try:
        cls = ruleset_class(record.game)
    except RailgamesError as exc:
        raise RecordError(f"{source}: {exc.reason}") from None
    try:
        current_path = find_map(record.map)
    except MapError:
        raise RecordError(f"{source}: this game needs the map '{record.map}', which this "
                          "installation does not have") from None
    try:
        current = load_ruleset(record.game, record.map).map
    except MapError as exc:
        # Why: a file for another game (then read as this game's map it fails in ways
        # that would say little), or not TOML at all, or this game's map but broken.
        check_map_game(record, source, current_path)
        raise RecordError(f"{source}: its map cannot be used: {exc.reason}") from None
    try:
        ruleset = cls(map_played_on(record, source, current, cls.map_model))
    except MapError as exc:
        raise RecordError(f"{source}: its map cannot be used: {exc.reason}") from None
    problem = ruleset.edition_problem(record)
    if problem:
        raise RecordError(f"{source}: {problem}")
    return ruleset
