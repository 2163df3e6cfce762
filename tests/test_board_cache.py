"""Validated boards kept between runs (core/board_cache.py): the same board as a full
read, and never used once the map text, the code or the entry itself has changed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from railgames.core import board_cache
from railgames.core.errors import MapError
from railgames.core.map_pins import archive_dirs, map_digest
from railgames.core.maps import find_map, load_map_file, parse_map, peek_header, read_map_text
from railgames.games import GAMES, ruleset_class


@pytest.fixture(autouse=True)
def own_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data" / "cache" / board_cache.FOLDER


def shipped_maps() -> list[tuple[str, Path]]:
    found = []
    for game in GAMES:
        for folder in [find_map(ruleset_class(game).default_map).parent, *archive_dirs()]:
            for path in sorted(folder.glob("*.toml")):
                if peek_header(path).get("game") == game:
                    found.append((game, path))
    return found


def same_board(a: Any, b: Any) -> None:
    """Equal field by field, of the same classes, with the same fields counted as set."""
    assert type(a) is type(b)
    if isinstance(a, BaseModel):
        assert a.model_fields_set == b.model_fields_set
        assert list(a.__dict__) == list(b.__dict__) or set(a.__dict__) >= set(type(a).model_fields)
        for name in type(a).model_fields:
            same_board(getattr(a, name), getattr(b, name))
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same_board(x, y)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            assert type(key) is type(next(k for k in b if k == key))
            same_board(a[key], b[key])
    else:
        assert a == b


@pytest.mark.parametrize(("game", "path"), shipped_maps(), ids=lambda v: getattr(v, "name", v))
def test_a_kept_board_is_the_board_a_full_read_gives(game: str, path: Path, own_cache: Path) -> None:
    model = ruleset_class(game).map_model
    full = parse_map(read_map_text(path), str(path), model)
    first = load_map_file(path, model)  # read in full, then kept
    assert list(own_cache.glob(f"{path.stem}-*.json"))
    kept = board_cache.load(path, read_map_text(path), model)
    assert kept is not None, "the board was not kept"
    board, digest = kept
    same_board(board, full)
    same_board(first, full)
    assert board == full and digest == map_digest(full)
    again = load_map_file(path, model)
    assert again is not first and again == full
    assert map_digest(again) == map_digest(full)
    # What the rules read from it (cached properties, worked out afresh) is alike too.
    assert board.model_dump(mode="json") == full.model_dump(mode="json")


def nine_map(tmp_path: Path) -> tuple[Path, type[Any]]:
    model = ruleset_class("new-england").map_model
    path = tmp_path / "my-map.toml"
    path.write_text(read_map_text(find_map("new-england")), encoding="utf-8")
    return path, model


def entry_of(own_cache: Path) -> Path:
    (entry,) = own_cache.glob("my-map-*.json")
    return entry


def test_a_changed_map_file_is_read_in_full_again(tmp_path: Path) -> None:
    path, model = nine_map(tmp_path)
    load_map_file(path, model)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("value = 5", "value = 99", 1), encoding="utf-8")
    with pytest.raises(MapError, match="less than or equal to 12"):
        load_map_file(path, model)


@pytest.mark.parametrize("damage", ["board", "digest", "stamp", "truncated", "not json", "shape"])
def test_a_damaged_or_stale_entry_is_never_used(tmp_path: Path, own_cache: Path,
                                                 damage: str) -> None:
    path, model = nine_map(tmp_path)
    good = load_map_file(path, model)
    entry = entry_of(own_cache)
    data = json.loads(entry.read_text(encoding="utf-8"))
    if damage == "board":  # a value changed, the checksum left as it was
        data["board"]["links"][0]["value"] = 12 if data["board"]["links"][0]["value"] != 12 else 11
    elif damage == "digest":
        data["digest"] = "0" * 16
    elif damage == "stamp":  # as if the code that checks maps had changed since
        data["stamp"] = data["stamp"].replace("pydantic", "pydantic 0")
    elif damage == "shape":  # a list where a city should be, checksum made to match
        data["board"]["cities"][0] = ["BOS"]
        data["check"] = board_cache._checksum(data["board"], data["digest"])
    text = json.dumps(data)
    if damage == "truncated":
        text = text[: len(text) // 2]
    elif damage == "not json":
        text = "\x00" * 40
    entry.write_text(text, encoding="utf-8")
    assert board_cache.load(path, read_map_text(path), model) is None
    again = load_map_file(path, model)  # read in full, and kept afresh
    assert again == good and map_digest(again) == map_digest(good)
    assert board_cache.load(path, read_map_text(path), model) is not None


def test_a_board_is_kept_per_model(tmp_path: Path, own_cache: Path) -> None:
    from railgames.core.maps import GraphMap

    path, model = nine_map(tmp_path)
    load_map_file(path, model)
    assert board_cache.load(path, read_map_text(path), GraphMap) is None
    with pytest.raises(MapError, match="Extra inputs are not permitted"):
        load_map_file(path, GraphMap)  # read in full as that model, which it does not fit


def test_no_cache_folder_only_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(blocker))  # its cache folder cannot be made
    path, model = nine_map(tmp_path)
    assert load_map_file(path, model) == load_map_file(path, model, cached=False)


def test_maps_check_always_reads_the_file_in_full(tmp_path: Path, own_cache: Path) -> None:
    from railgames.cli import check_map_file

    path, model = nine_map(tmp_path)
    assert "ok" in check_map_file(str(path))
    assert not list(own_cache.glob("my-map-*.json"))


@pytest.mark.skipif(sys.platform != "linux", reason="the short way is taken on Linux only")
@pytest.mark.parametrize("xdg", [None, "", "/tmp/xdg-cache", "relative/cache", "/"])
@pytest.mark.parametrize("home", [None, "/home/ann", "/home/ann/", "/", "", "relative"])
def test_the_cache_folder_is_where_platformdirs_puts_it(
        monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str | None) -> None:
    from platformdirs import user_cache_dir

    from railgames.core import sources

    monkeypatch.delenv("RAILGAMES_DATA_DIR")
    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert str(sources.cache_dir()) == str(Path(user_cache_dir("railgames")))


def test_a_game_takes_a_kept_board_without_reading_its_toml(
        own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    from railgames import games

    games._load_map.cache_clear()
    first = games.load_ruleset("new-england").map  # read in full, and kept
    games._load_map.cache_clear()

    def refuse(text: str) -> Any:
        raise AssertionError("the TOML was read again")

    monkeypatch.setattr(tomllib, "loads", refuse)
    try:
        again = games.load_ruleset("new-england").map
        assert again is not first and again == first
    finally:
        games._load_map.cache_clear()


def test_another_games_map_is_still_refused_in_one_line(own_cache: Path) -> None:
    from railgames import games

    games._load_map.cache_clear()
    try:
        with pytest.raises(MapError) as refused:
            games.load_ruleset("new-england", "rotw-mexico")
    finally:
        games._load_map.cache_clear()
    assert refused.value.reason.startswith("map 'rotw-mexico' is a Railways of the World map; ")
