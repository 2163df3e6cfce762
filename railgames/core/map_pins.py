"""Which version of a map a saved game was played on, and finding that version again.

A record names its map and the digest of what the rules read from it
(``maps.map_digest``: cities, links, values, colours, decks, terrain; not the
drawing). A change to what the rules read orphans the saves played on the old
version, so that version is kept under ``maps/archive/`` as
``<map id>-<digest>.toml`` for the saves that name it.

Nothing here knows the games: the registry (``railgames.games``) passes in the
map model of the record's game and puts the pieces together.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from railgames.core.errors import MapError, RecordError
from railgames.core.maps import BaseMap, load_map_file, map_digest, maps_dirs, peek_header

if TYPE_CHECKING:
    from railgames.core.record import GameRecord


def archive_dirs() -> list[Path]:
    return [d / "archive" for d in maps_dirs()]


def archived_map_path(map_id: str, digest: str) -> Path | None:
    for folder in archive_dirs():
        path = folder / f"{map_id}-{digest}.toml"
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=32)
def load_checked(map_model: type[BaseMap], path: Path, digest: str | None) -> BaseMap:
    """The map in ``path`` (read as ``map_model``), refused unless it is version ``digest``."""
    game_map = load_map_file(path, map_model)
    if digest is not None and map_digest(game_map) != digest:
        raise MapError(f"{path}: holds version {map_digest(game_map)} of the map, "
                       f"not {digest} as its name says")
    return game_map


def check_map_game(record: GameRecord, source: str, path: Path) -> None:
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


def map_played_on(record: GameRecord, source: str, current: BaseMap,
                  map_model: type[BaseMap]) -> BaseMap:
    """The version of the record's map it was played on: ``current`` (the map as this
    installation has it) when the digests agree or the record names none, else the
    archived version (read as ``map_model``, the record's game's map model).

    A missing version is a RecordError naming ``source``; a broken one a MapError.
    """
    if record.map_digest is None or map_digest(current) == record.map_digest:
        return current
    archived = archived_map_path(record.map, record.map_digest)
    if archived is None:
        raise RecordError(
            f"{source}: this game was played on version {record.map_digest} of the map "
            f"'{record.map}' (maps/archive/{record.map}-{record.map_digest}.toml), which "
            f"this installation does not have; its map is now version {map_digest(current)}"
        )
    return load_checked(map_model, archived, record.map_digest)
