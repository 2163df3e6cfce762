"""Map files: the boards, as text a person can read and edit.

A map is a TOML file under ``maps/``. It holds the text grid the board widget
draws, and tables describing what is on it. Two shapes are supported:

* graph maps (``kind = "graph"``): cities placed by their label in the grid and
  links between pairs of cities;
* hex maps (``kind = "hex"``): a terrain grid of one character per hex, cities
  on hexes, and features on hex sides (ridges, impassable borders).

Each game may extend these models with its own fields. Whatever goes wrong, the
loader raises one ``MapError`` whose message names the file, the line or field,
and the problem.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from railgames.core.errors import MapError, more_problems
from railgames.core.files import read_regular
from railgames.core.hexgrid import (
    Hex,
    Orientation,
    are_adjacent,
    axial_to_offset,
    offset_to_axial,
    side_key,
)

ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]*$"
# The largest map file read. The shipped ones are under 20 kB; a board a hundred
# times larger still fits.
MAX_MAP_BYTES = 2 * 1024 * 1024


class MapModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# ---------------------------------------------------------------- graph maps


class GraphCity(MapModel):
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    label: str | None = None  # text marking the city in the grid; defaults to name

    @property
    def grid_label(self) -> str:
        return self.label or self.name


class GraphLink(MapModel):
    id: str = Field(pattern=ID_PATTERN)
    a: str
    b: str
    # Optional bend points (column, row) the drawn line passes through.
    via: list[tuple[int, int]] = Field(default_factory=list)


class BaseMap(MapModel):
    id: str = Field(pattern=ID_PATTERN)
    game: str
    title: str
    grid: str = Field(min_length=1)

    @cached_property
    def grid_lines(self) -> list[str]:
        lines = self.grid.split("\n")
        if lines and lines[0] == "":
            lines = lines[1:]
        while lines and not lines[-1].strip():
            lines.pop()
        return lines

    @property
    def grid_size(self) -> tuple[int, int]:
        lines = self.grid_lines
        return (max((len(line) for line in lines), default=0), len(lines))


class GraphMap(BaseMap):
    kind: Literal["graph"] = "graph"
    cities: list[GraphCity]
    links: list[GraphLink]

    @model_validator(mode="after")
    def _check_graph(self) -> GraphMap:
        seen: set[str] = set()
        for i, city in enumerate(self.cities):
            if city.id in seen:
                raise ValueError(f"cities.{i}.id: city id '{city.id}' is used twice")
            seen.add(city.id)
        pairs: set[frozenset[str]] = set()
        link_ids: set[str] = set()
        for i, link in enumerate(self.links):
            if link.id in link_ids:
                raise ValueError(f"links.{i}.id: link id '{link.id}' is used twice")
            link_ids.add(link.id)
            for end in (link.a, link.b):
                if end not in seen:
                    raise ValueError(f"links.{i}: link '{link.id}' names unknown city '{end}'")
            if link.a == link.b:
                raise ValueError(f"links.{i}: link '{link.id}' joins '{link.a}' to itself")
            pair = frozenset((link.a, link.b))
            if pair in pairs:
                raise ValueError(f"links.{i}: a second link joins '{link.a}' and '{link.b}'")
            pairs.add(pair)
        width, height = self.grid_size
        for i, city in enumerate(self.cities):
            hits = _find_all(self.grid_lines, city.grid_label)
            if len(hits) != 1:
                found = "does not appear" if not hits else f"appears {len(hits)} times"
                raise ValueError(
                    f"cities.{i}: the label '{city.grid_label}' of city '{city.id}' {found} "
                    "in the grid (it must appear exactly once)"
                )
        for i, link in enumerate(self.links):
            for col, row in link.via:
                if not (0 <= col < width and 0 <= row < height):
                    raise ValueError(f"links.{i}.via: point ({col}, {row}) is outside the grid")
        return self

    @cached_property
    def city_by_id(self) -> dict[str, GraphCity]:
        return {c.id: c for c in self.cities}

    @cached_property
    def link_by_id(self) -> dict[str, GraphLink]:
        return {link.id: link for link in self.links}

    @cached_property
    def label_spans(self) -> dict[str, tuple[int, int, int]]:
        """City id -> (row, first column, last column + 1) of its label."""
        spans = {}
        for city in self.cities:
            row, col = _find_all(self.grid_lines, city.grid_label)[0]
            spans[city.id] = (row, col, col + len(city.grid_label))
        return spans

    @cached_property
    def anchors(self) -> dict[str, tuple[int, int]]:
        """City id -> (column, row) where drawn links meet the city."""
        return {cid: ((c0 + c1 - 1) // 2, row) for cid, (row, c0, c1) in self.label_spans.items()}


_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _find_all(lines: list[str], label: str) -> list[tuple[int, int]]:
    """(row, column) of each place ``label`` stands in the grid as a word of its own:
    no ASCII letter just before or after it (as the regular expression
    ``(?<![A-Za-z])label(?![A-Za-z])`` would find them, without compiling one per city)."""
    hits: list[tuple[int, int]] = []
    size = len(label)
    for row, line in enumerate(lines):
        at = line.find(label)
        while at >= 0:
            end = at + size
            if (at == 0 or line[at - 1] not in _LETTERS) and \
                    (end == len(line) or line[end] not in _LETTERS):
                hits.append((row, at))
                at = line.find(label, end)
            else:
                at = line.find(label, at + 1)
    return hits


# ------------------------------------------------------------------ hex maps


class HexCity(MapModel):
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    col: int
    row: int


class HexSideFeature(MapModel):
    """A feature on the side between two neighbouring hexes, given by offset position."""

    a: tuple[int, int]
    b: tuple[int, int]
    feature: str = Field(min_length=1)


class HexMap(BaseMap):
    """``grid`` holds one terrain character per hex, hexes separated by spaces.

    Rows are offset rows (odd rows shifted right for pointy-top hexes); the
    legend maps each character to a terrain name. A space-only cell or '_' is
    off the board.
    """

    kind: Literal["hex"] = "hex"
    orientation: Orientation = "pointy"
    legend: dict[str, str]
    cities: list[HexCity] = Field(default_factory=list)
    sides: list[HexSideFeature] = Field(default_factory=list)

    @cached_property
    def terrain(self) -> dict[Hex, str]:
        return _parse_terrain(self.grid_lines, self.orientation, self.legend)

    @cached_property
    def side_features(self) -> dict[tuple[Hex, Hex], str]:
        out = {}
        for s in self.sides:
            a = offset_to_axial(*s.a, self.orientation)
            b = offset_to_axial(*s.b, self.orientation)
            out[side_key(a, b)] = s.feature
        return out

    def place_cities(self) -> dict[Hex, int]:
        """Each city's hex (to its index in ``cities``), for maps that draw cities as
        'city' hexes: every city stands on one, alone, and every one has its city."""
        terrain = self.terrain
        at: dict[Hex, int] = {}
        for i, city in enumerate(self.cities):
            h = offset_to_axial(city.col, city.row, self.orientation)
            if terrain[h] != "city":
                raise ValueError(f"cities.{i}: city '{city.id}' stands on a {terrain[h]} hex, "
                                 "not a city hex ('o')")
            if h in at:
                raise ValueError(f"cities.{i}: a second city on hex [{city.col}, {city.row}]")
            at[h] = i
        for h, t in terrain.items():
            if t == "city" and h not in at:
                col, row = axial_to_offset(h, self.orientation)
                raise ValueError(f"grid: the city hex [{col}, {row}] has no entry in the cities table")
        return at

    @model_validator(mode="after")
    def _check_hexes(self) -> HexMap:
        for ch in self.legend:
            if len(ch) != 1 or ch in " _":
                raise ValueError(f"legend: '{ch}' must be one character other than space or '_'")
        terrain = _parse_terrain(self.grid_lines, self.orientation, self.legend)
        ids: set[str] = set()
        for i, city in enumerate(self.cities):
            if city.id in ids:
                raise ValueError(f"cities.{i}.id: city id '{city.id}' is used twice")
            ids.add(city.id)
            if offset_to_axial(city.col, city.row, self.orientation) not in terrain:
                raise ValueError(
                    f"cities.{i}: city '{city.id}' is at ({city.col}, {city.row}), off the board"
                )
        seen: set[tuple[Hex, Hex]] = set()
        for i, s in enumerate(self.sides):
            a = offset_to_axial(*s.a, self.orientation)
            b = offset_to_axial(*s.b, self.orientation)
            if not are_adjacent(a, b):
                raise ValueError(f"sides.{i}: hexes {s.a} and {s.b} are not neighbours")
            key = side_key(a, b)
            if key in seen:
                raise ValueError(f"sides.{i}: the side between {s.a} and {s.b} is listed twice")
            seen.add(key)
        return self


def _parse_terrain(lines: list[str], orientation: Orientation, legend: dict[str, str]) -> dict[Hex, str]:
    terrain: dict[Hex, str] = {}
    for row, line in enumerate(lines):
        cells = line.split()
        # In the text, odd rows are indented by one space; cells are split on spaces.
        for col, ch in enumerate(cells):
            if ch == "_":
                continue
            if ch not in legend:
                raise ValueError(f"grid line {row + 1}: terrain character '{ch}' is not in the legend")
            terrain[offset_to_axial(col, row, orientation)] = legend[ch]
    return terrain


# ---------------------------------------------------------------- the rules' digest
# A record names its map and the digest of what the rules read from it (see
# core/map_pins.py for finding that version again). The drawing is left out, so
# redrawing a board never orphans a save; changing a value or a link does.

# Fields that only say how a map is drawn. A new field is counted in the digest
# unless it is named here: a change the rules might read is never missed.
DRAWING_FIELDS = frozenset({"grid", "title", "spaced_rows"})
DRAWING_CITY_FIELDS = frozenset({"label"})
DRAWING_LINK_FIELDS = frozenset({"via"})
DIGEST_LENGTH = 16  # hex characters: 64 bits tell the versions of one map apart


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
    import json

    text = json.dumps(rules_content(game_map), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_LENGTH]
    _digests[id(game_map)] = (game_map, digest)
    return digest


def remember_digest(game_map: BaseMap, digest: str) -> None:
    """``map_digest(game_map)`` is ``digest``: kept with a board read from the board cache."""
    _digests[id(game_map)] = (game_map, digest)


# ------------------------------------------------------------------- loading

M = TypeVar("M", bound=BaseMap)


# Folders of map files a game from outside the package brings with it (the registry
# adds them when such a game is registered, and takes them away again).
added_maps_dirs: list[Path] = []


def maps_dirs() -> list[Path]:
    """Where map files live: inside the installed package, then the checkout, then the
    folders of games registered from outside the package."""
    dirs: list[Path] = []
    package = Path(__file__).resolve().parents[1]  # the installed railgames package
    packaged = package / "maps"
    if packaged.is_dir():
        dirs.append(packaged)
    checkout = package.parent / "maps"
    if checkout.is_dir() and checkout not in dirs:
        dirs.append(checkout)
    return dirs + [d for d in added_maps_dirs if d not in dirs]


def find_map(map_id: str) -> Path:
    for d in maps_dirs():
        path = d / f"{map_id}.toml"
        if path.is_file():
            return path
    searched = ", ".join(str(d) for d in maps_dirs()) or "(no maps folder found)"
    raise MapError(f"no map called '{map_id}' (looked in {searched})")


def _line_of_table(text: str, table: str, index: int) -> int | None:
    """Line number (1-based) of the index-th ``[[table]]`` header in a TOML text."""
    pattern = re.compile(r"^\s*\[\[\s*" + re.escape(table) + r"\s*\]\]\s*$")
    count = -1
    for lineno, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            count += 1
            if count == index:
                return lineno
    return None


def _line_of_key(text: str, key: str) -> int | None:
    pattern = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
    for lineno, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return lineno
    return None


def _where(text: str, loc: list[str]) -> str:
    """Turn a field path like ['cities', '3', 'demand'] into 'line 40, cities.3.demand'."""
    dotted = ".".join(loc)
    line = None
    if len(loc) >= 2 and loc[1].isdigit():
        line = _line_of_table(text, loc[0], int(loc[1]))
    elif loc:
        line = _line_of_key(text, loc[0])
    return f"line {line}, field {dotted}" if line else f"field {dotted}"


def parse_map(text: str, source: str, model: type[M]) -> M:
    import tomllib

    try:
        raw: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{source}: not valid TOML: {exc}") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = [str(p) for p in first["loc"]]
        msg = first["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
            # Our own validators put the field path at the front of the message.
            head, sep, rest = msg.partition(": ")
            if sep and re.match(r"^[a-z_]+(\.\d+)?(\.[a-z_]+)?$", head):
                loc, msg = head.split("."), rest
        more = more_problems(exc.error_count() - 1)
        raise MapError(f"{source}: {_where(text, loc)}: {msg}{more}") from None


def read_map_text(path: Path) -> str:
    """A map file's text, newlines as ``\\n``. A named pipe, device, socket or folder is
    refused at once, never waited on; so is a file over ``MAX_MAP_BYTES``."""
    data = read_regular(path, MAX_MAP_BYTES, "a map", MapError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MapError(f"{path}: cannot be read ({exc})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as reading in text mode does


def load_map_file(path: str | Path, model: type[M], *, cached: bool = True) -> M:
    """The map in ``path``, read and checked in full as ``model`` — or, with ``cached``,
    the board kept from an earlier run for exactly this text, model and code
    (see core/board_cache.py); a board read in full is kept for the next run."""
    path = Path(path)
    text = read_map_text(path)
    if not cached:
        return parse_map(text, str(path), model)
    kept = kept_board(path, text, model)
    return kept if kept is not None else checked_board(path, text, model)


def kept_board(path: Path, text: str, model: type[M]) -> M | None:
    """The board the cache holds for exactly this text of ``path`` read as ``model``
    (its digest remembered), or None."""
    from railgames.core import board_cache

    kept = board_cache.load(path, text, model)
    if kept is None:
        return None
    board, digest = kept
    remember_digest(board, digest)
    return board  # type: ignore[no-any-return]


def checked_board(path: Path, text: str, model: type[M]) -> M:
    """The map ``text`` (of ``path``) read and checked in full, then kept in the cache."""
    from railgames.core import board_cache

    board = parse_map(text, str(path), model)
    board_cache.store(path, text, model, board, map_digest(board))
    return board


def header_of(text: str, path: str | Path) -> dict[str, Any]:
    """A map file's TOML (its ``text``) without validating it (to learn its game and kind)."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{path}: not valid TOML: {exc}") from None


def peek_header(path: str | Path) -> dict[str, Any]:
    """Read a map file's TOML without validating it (to learn its game and kind)."""
    return header_of(read_map_text(Path(path)), path)
