"""Validated boards, kept between runs so that a map file is read strictly only once.

Reading a map means parsing its TOML and checking every field and every rule of
its model (pydantic, and the model's own checks): a good part of the time a
short command such as ``railgames replay`` takes. Once a board has passed, what
it holds is written to the cache folder (``boards/``) beside:

* the map file's whole text: a board is reused only for exactly that text;
* the model it was read as (module and class);
* the stamp of the sources (``sources.source_stamp``) and pydantic's version:
  any change to the code that checks a map makes the entry stale;
* the digest of the map's rules content (``maps.map_digest``);
* a checksum of the rest, so that a damaged entry is never used.

Anything that does not match exactly, or fails to read, is passed over and the
map is read and checked in full, as without a cache (and the entry rewritten).
An entry is as trusted as the user's own cache folder, like Python's compiled
bytecode in ``__pycache__``. Writing is best effort: a read-only or full disk
only means no cache.

A board is rebuilt from the entry with ``model_construct``, model by model, field
by field, through the field types the map models use (models, lists, tuples,
dictionaries keyed by text or whole numbers, optional values, literals, text,
numbers and truth values); the fields a file left out stay unset, as they
would after validation. A model with any other kind of field, private
attributes or a post-init hook is simply never cached.
"""

from __future__ import annotations

import copy
import json
import os
import types
import typing
import zlib
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from railgames.compat import model_without_validation, plain_model

CACHE_FORMAT = 1
FOLDER = "boards"
_UNION_TYPES = (typing.Union, types.UnionType)
_SCALARS: dict[type, tuple[type, ...]] = {
    str: (str,),
    int: (int,),
    bool: (bool,),
    float: (float, int),
}


class Unsupported(Exception):
    """A field type the cache does not rebuild (or data that does not fit one)."""


def _model_name(model: type[BaseModel]) -> str:
    return f"{model.__module__}:{model.__qualname__}"


_REQUIRED = object()
_PLAIN_FACTORIES = (list, dict, set, frozenset, tuple)
_plans: dict[type, dict[str, tuple[Any, Any, Any]]] = {}


def _fields_of(model: type[BaseModel]) -> dict[str, tuple[Any, Any, Any]]:
    """Each field's type, default (or _REQUIRED) and default factory, by name in order."""
    plan = _plans.get(model)
    if plan is not None:
        return plan
    if not plain_model(model):
        raise Unsupported(_model_name(model))
    plan = {}
    for name, info in model.model_fields.items():
        if info.alias is not None or info.validation_alias is not None:
            raise Unsupported(f"{_model_name(model)}.{name}")
        factory = info.default_factory
        # (Built-in types take no validated data; asking pydantic would read their signature.)
        if factory is not None and factory not in _PLAIN_FACTORIES \
                and info.default_factory_takes_validated_data:
            raise Unsupported(f"{_model_name(model)}.{name}")
        default = _REQUIRED if info.is_required() else info.default
        plan[name] = (info.annotation, default, factory)
    _plans[model] = plan
    return plan


def _construct(model: type[BaseModel], data: dict[str, Any]) -> Any:
    """What ``model.model_construct(**values)`` makes of the fields in ``data`` (the rest
    take their defaults and stay unset), without looking the defaults up each time."""
    fields = _fields_of(model)
    if not data.keys() <= fields.keys():
        raise Unsupported(f"not the fields of {model.__name__}")
    values: dict[str, Any] = {}
    for name, (tp, default, factory) in fields.items():
        if name in data:
            values[name] = _build(tp, data[name])
        elif factory is not None:
            values[name] = factory()
        elif default is _REQUIRED:
            raise Unsupported(f"{model.__name__}.{name} is missing")
        else:
            values[name] = copy.deepcopy(default)
    return model_without_validation(model, values, set(data))


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _plain(tp: Any, value: Any) -> Any:
    """``value`` (of type ``tp``, from a validated board) as JSON data."""
    if _is_model(tp):
        if type(value) is not tp:
            raise Unsupported(f"a {type(value).__name__} where {tp.__name__} is declared")
        fields = _fields_of(tp)
        return {name: _plain(fields[name][0], getattr(value, name))
                for name in fields if name in value.model_fields_set}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return _plain(args[0], value)
    if origin in _UNION_TYPES:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise Unsupported(str(tp))
        return None if value is None else _plain(rest[0], value)
    if origin is typing.Literal:
        if value not in args:
            raise Unsupported(f"{value!r} is not one of {args}")
        return value
    if origin is list:
        return [_plain(args[0], v) for v in value]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return [_plain(args[0], v) for v in value]
        if len(args) != len(value):
            raise Unsupported(str(tp))
        return [_plain(a, v) for a, v in zip(args, value, strict=True)]
    if origin is dict:
        if args[0] not in (str, int):
            raise Unsupported(str(tp))
        return {str(_scalar(args[0], k)): _plain(args[1], v) for k, v in value.items()}
    return _scalar(tp, value)


def _scalar(tp: Any, value: Any) -> Any:
    kinds = _SCALARS.get(tp)
    if kinds is None:
        raise Unsupported(str(tp))
    if type(value) not in kinds:
        raise Unsupported(f"{value!r} is not a {tp.__name__}")
    return float(value) if tp is float else value


def _build(tp: Any, data: Any) -> Any:
    """The inverse of ``_plain``: checks the shape as it goes (a damaged entry fails)."""
    if _is_model(tp):
        if type(data) is not dict:
            raise Unsupported(f"not the fields of {tp.__name__}")
        return _construct(tp, data)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return _build(args[0], data)
    if origin in _UNION_TYPES:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise Unsupported(str(tp))
        return None if data is None else _build(rest[0], data)
    if origin is typing.Literal:
        if data not in args:
            raise Unsupported(f"{data!r} is not one of {args}")
        return data
    if type(data) is list and origin is list:
        return [_build(args[0], v) for v in data]
    if type(data) is list and origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], v) for v in data)
        if len(args) != len(data):
            raise Unsupported(str(tp))
        return tuple(_build(a, v) for a, v in zip(args, data, strict=True))
    if type(data) is dict and origin is dict:
        key = int if args[0] is int else str
        if args[0] not in (str, int):
            raise Unsupported(str(tp))
        return {key(k): _build(args[1], v) for k, v in data.items()}
    if origin is not None:
        raise Unsupported(f"{data!r} for {tp}")
    return _scalar(tp, data)


def _entry_path(path: Path, model: type[BaseModel]) -> Path:
    from railgames.core.sources import cache_dir

    where = f"{path.resolve()} {_model_name(model)}".encode()
    return cache_dir() / FOLDER / f"{path.stem}-{zlib.crc32(where):08x}.json"


def _stamp() -> str:
    import pydantic

    from railgames.core.sources import source_stamp

    return f"{CACHE_FORMAT} pydantic {pydantic.VERSION}\n{source_stamp()}"


def _checksum(board: Any, digest: str) -> int:
    return zlib.crc32(json.dumps([board, digest], sort_keys=True).encode())


def load(path: Path, text: str, model: type[Any]) -> tuple[Any, str] | None:
    """The board and its digest kept for exactly this file text and model, or None."""
    try:
        entry_path = _entry_path(path, model)
        with entry_path.open(encoding="utf-8") as handle:
            entry = json.load(handle)
        if (type(entry) is not dict or entry.get("stamp") != _stamp()
                or entry.get("model") != _model_name(model) or entry.get("source") != text):
            return None
        board, digest = entry["board"], entry["digest"]
        if type(digest) is not str or entry.get("check") != _checksum(board, digest):
            return None
        return _build(model, board), digest
    except (OSError, ValueError, KeyError, TypeError, Unsupported, RecursionError):
        return None


def store(path: Path, text: str, model: type[Any], board: Any, digest: str) -> None:
    """Keep a board that has just passed every check (best effort, never raises)."""
    try:
        plain = _plain(model, board)
        if _build(model, plain) != board:  # a field the rebuild would not give back
            return
        entry = {"stamp": _stamp(), "model": _model_name(model), "source": text,
                 "digest": digest, "board": plain, "check": _checksum(plain, digest)}
        entry_path = _entry_path(path, model)
        entry_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry_path.with_name(f".{entry_path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(tmp, entry_path)  # whole or not at all, with two processes at once
        finally:
            tmp.unlink(missing_ok=True)
    except (OSError, ValueError, TypeError, Unsupported, RecursionError):
        return
