"""Which version of a map a saved game was played on, and finding that version again.

A record names its map and the digest of what the rules read from it: cities,
links, values, colours, decks, terrain. The drawing (the text grid of a graph
map, city label text, the bend points of drawn links, the title) is left out,
so redrawing a board for a new layout never orphans a save; changing a value or
a link does, and then the old version is kept under ``maps/archive/`` as
``<map id>-<digest>.toml`` for the saves that name it.

A hex map's grid *is* its terrain, so for hex maps the digest covers the
terrain of every hex (read from the grid), not the grid's characters.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from railgames.core.errors import MapError, RailgamesError, RecordError
from railgames.core.maps import (
    BaseMap,
    GraphMap,
    HexMap,
    find_map,
    load_map_file,
    maps_dirs,
    peek_header,
)

if TYPE_CHECKING:
    from railgames.core.engine import Ruleset
    from railgames.core.record import GameRecord

DIGEST_LENGTH = 16  # hex characters: 64 bits tell the versions of one map apart

# Fields that only say how a map is drawn. A new field is counted in the digest
# unless it is named here: a change the rules might read is never missed.
DRAWING_FIELDS = frozenset({"grid", "title", "spaced_rows"})
DRAWING_CITY_FIELDS = frozenset({"label"})
DRAWING_LINK_FIELDS = frozenset({"via"})

# The digest of each shipped map while records were in format 1 (which did not
# store one): a format-1 record was played on this version.
FORMAT_1_MAP_DIGESTS: dict[str, str] = {
    "new-england": "7ddc7533f0e14a9e",
    "paris-connection": "f3c0d96aea525cc0",
    "steel-driver": "1de06fe72d74c669",
}


def rules_content(game_map: BaseMap) -> dict[str, Any]:
    """What the rules read from a map, as plain JSON data."""
    data = game_map.model_dump(mode="json", exclude=set(DRAWING_FIELDS))
    if isinstance(game_map, GraphMap):
        data["cities"] = [{k: v for k, v in c.items() if k not in DRAWING_CITY_FIELDS}
                          for c in data["cities"]]
        data["links"] = [{k: v for k, v in link.items() if k not in DRAWING_LINK_FIELDS}
                         for link in data["links"]]
    if isinstance(game_map, HexMap):
        # The terrain of each hex, whatever characters the grid uses to draw it.
        data.pop("legend", None)
        data["terrain"] = sorted([h.q, h.r, t] for h, t in game_map.terrain.items())
    return data


_digests: dict[int, tuple[BaseMap, str]] = {}


def map_digest(game_map: BaseMap) -> str:
    """The digest of ``rules_content``: equal digests replay every record alike."""
    cached = _digests.get(id(game_map))
    if cached is not None and cached[0] is game_map:
        return cached[1]
    import hashlib

    text = json.dumps(rules_content(game_map), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_LENGTH]
    _digests[id(game_map)] = (game_map, digest)
    return digest


def remember_digest(game_map: BaseMap, digest: str) -> None:
    """``map_digest(game_map)`` is ``digest``: kept with a board read from the board cache."""
    _digests[id(game_map)] = (game_map, digest)


def archive_dirs() -> list[Path]:
    return [d / "archive" for d in maps_dirs()]


def archived_map_path(map_id: str, digest: str) -> Path | None:
    for folder in archive_dirs():
        path = folder / f"{map_id}-{digest}.toml"
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=32)
def _load_checked(game_id: str, path: Path, digest: str | None) -> BaseMap:
    from railgames.games import ruleset_class

    game_map = load_map_file(path, ruleset_class(game_id).map_model)
    if digest is not None and map_digest(game_map) != digest:
        raise MapError(f"{path}: holds version {map_digest(game_map)} of the map, "
                       f"not {digest} as its name says")
    return game_map


def _check_map_game(record: GameRecord, source: str, path: Path) -> None:
    """Refuses (a RecordError naming ``source``) a map file that is not TOML, or is
    for another game than the record's."""
    try:
        header_game = peek_header(path).get("game")
    except MapError as exc:
        raise RecordError(f"{source}: its map cannot be read: {exc.reason}") from None
    if header_game != record.game:
        raise RecordError(
            f"{source}: the record's game '{record.game}' and map '{record.map}' do not belong "
            f"together (that map is for '{header_game}')"
        )


def ruleset_for_record(record: GameRecord, source: str) -> Ruleset[Any]:
    """The game's rules on the very map version the record was played on, if they know
    the edition of the rules it was played under (each keeps its earlier editions).

    Every refusal is a RecordError naming ``source`` and saying what is missing.
    """
    from railgames.games import load_ruleset, ruleset_class

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
        _check_map_game(record, source, current_path)
        raise RecordError(f"{source}: its map cannot be used: {exc.reason}") from None
    try:
        if record.map_digest is None or map_digest(current) == record.map_digest:
            ruleset = cls(current)
        else:
            archived = archived_map_path(record.map, record.map_digest)
            if archived is None:
                raise RecordError(
                    f"{source}: this game was played on version {record.map_digest} of the map "
                    f"'{record.map}' (maps/archive/{record.map}-{record.map_digest}.toml), which "
                    f"this installation does not have; its map is now version {map_digest(current)}"
                )
            ruleset = cls(_load_checked(record.game, archived, record.map_digest))
    except MapError as exc:
        raise RecordError(f"{source}: its map cannot be used: {exc.reason}") from None
    problem = ruleset.edition_problem(record)
    if problem:
        raise RecordError(f"{source}: {problem}")
    return ruleset
