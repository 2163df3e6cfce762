"""Game objects as plain JSON, for what the host sends to the app processes.

A seat's view is a game state (dataclasses of the game's, enums, hexes, sets,
dicts keyed by tuples), its prompt holds actions (pydantic models) and its log
holds events. ``encode`` turns any of these into JSON-ready values, tagging
what JSON has no word for; ``decode`` makes the same objects again. Only
classes defined in railgames are made on the way back (by name, from modules
already imported), and nothing is ever unpickled.

What a state keeps only for speed (dataclass fields declared with
``compare=False``, such as what the rules worked out from the pieces) is left
out and comes back as the field's default. A seeded random source never
travels: the other side gets one of its own that knows nothing of the seed.

Tags (a JSON object with one of these keys is always a tagged value; a plain
dict whose keys are all strings without a leading ``#`` stays a JSON object):

``#t`` tuple, ``#s`` set, ``#f`` frozenset, ``#m`` dict with other keys,
``#n`` named tuple, ``#e`` enum, ``#c`` dataclass, ``#p`` pydantic model,
``#r`` a random source.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from functools import cache, lru_cache
from typing import Any

from pydantic import BaseModel

from railgames.core.rng import Chance

_PLAIN = (str, int, float, bool, type(None))


def class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


@cache
def _kept_fields(cls: type) -> tuple[str, ...]:
    """The fields of a dataclass that travel: all but those kept only for speed."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.compare)


def encode(obj: Any) -> Any:
    """``obj`` as values ``json.dumps`` takes as they are."""
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    if kind is list:
        return [encode(v) for v in obj]
    if kind is dict:
        if all(type(k) is str and not k.startswith("#") for k in obj):
            return {k: encode(v) for k, v in obj.items()}
        return {"#m": [[encode(k), encode(v)] for k, v in obj.items()]}
    if kind is tuple:
        return {"#t": [encode(v) for v in obj]}
    if isinstance(obj, enum.Enum):
        return {"#e": class_name(kind), "v": obj.value}
    if isinstance(obj, tuple) and hasattr(kind, "_fields"):  # a named tuple (a hex)
        return {"#n": class_name(kind), "v": [encode(v) for v in obj]}
    if kind is set:
        return {"#s": [encode(v) for v in _in_order(obj)]}
    if kind is frozenset:
        return {"#f": [encode(v) for v in _in_order(obj)]}
    if isinstance(obj, Chance):
        return {"#r": 0}
    if dataclasses.is_dataclass(obj):
        values = obj.__dict__
        return {"#c": class_name(kind),
                "f": {name: encode(values[name]) for name in _kept_fields(kind) if name in values}}
    if isinstance(obj, BaseModel):
        return {"#p": class_name(kind), "v": obj.model_dump(mode="json")}
    if isinstance(obj, list):  # a list of the game's own (lazy choices): its items
        return [encode(v) for v in obj]
    from railgames.core.engine import Choices

    if isinstance(obj, Choices):
        return [encode(v) for v in obj.as_list()]
    if isinstance(obj, dict):  # a dict of the game's own kind: its items
        return encode(dict(obj))
    raise TypeError(f"cannot send a {kind.__name__} to an app process")


def _in_order(items: set[Any] | frozenset[Any]) -> list[Any]:
    """A set's members in one order whatever order they were added in, where they have
    one: the same set is then always sent the same way (a part of a view is sent again
    only when its text changes)."""
    try:
        return sorted(items)
    except TypeError:
        return list(items)


def made(cls: type, values: dict[str, Any]) -> Any:
    """An object of dataclass ``cls`` with these fields; those that did not travel (kept
    only for speed) get their defaults, as a new object would."""
    obj = object.__new__(cls)
    for f in dataclasses.fields(cls):
        if f.name not in values:
            if f.default_factory is not dataclasses.MISSING:
                values[f.name] = f.default_factory()
            elif f.default is not dataclasses.MISSING:
                values[f.name] = f.default
    obj.__dict__.update(values)
    return obj


class WireError(Exception):
    """What came from the host is not what ``encode`` makes (a bug, or not our host)."""


def class_named(name: str) -> type:
    """The class ``class_name`` named (a class of railgames only)."""
    cls = _class(name)
    if not (dataclasses.is_dataclass(cls) or issubclass(cls, (BaseModel, enum.Enum, tuple))):
        raise WireError(f"{name} is not a class that travels")
    return cls


@lru_cache(maxsize=256)
def _class(name: str) -> type:
    module_name, _, qualname = name.partition(":")
    if not module_name.startswith("railgames.") or not qualname:
        raise WireError(f"'{name}' is not a class of railgames")
    module = sys.modules.get(module_name)
    if module is None:
        import importlib

        try:
            module = importlib.import_module(module_name)
        except ImportError:
            raise WireError(f"no module {module_name}") from None
    obj: Any = module
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    if not isinstance(obj, type):
        raise WireError(f"no class {name}")
    return obj


def decode(data: Any) -> Any:
    """The objects ``encode`` was given, made again."""
    kind = type(data)
    if kind in _PLAIN:
        return data
    if kind is list:
        return [decode(v) for v in data]
    if kind is not dict:
        raise WireError(f"unexpected {kind.__name__}")
    if not data or not next(iter(data)).startswith("#"):
        return {k: decode(v) for k, v in data.items()}
    if "#t" in data:
        return tuple(decode(v) for v in data["#t"])
    if "#n" in data:
        return _class(data["#n"])(*(decode(v) for v in data["v"]))
    if "#e" in data:
        return _class(data["#e"])(data["v"])
    if "#m" in data:
        return {decode(k): decode(v) for k, v in data["#m"]}
    if "#s" in data:
        return {decode(v) for v in data["#s"]}
    if "#f" in data:
        return frozenset(decode(v) for v in data["#f"])
    if "#r" in data:
        return Chance(0)
    if "#c" in data:
        cls = _class(data["#c"])
        if not dataclasses.is_dataclass(cls):
            raise WireError(f"{data['#c']} is not a dataclass")
        return made(cls, {name: decode(v) for name, v in data["f"].items()})
    if "#p" in data:
        cls = _class(data["#p"])
        if not issubclass(cls, BaseModel):
            raise WireError(f"{data['#p']} is not a model")
        return cls.model_validate(data["v"])
    raise WireError(f"unknown tag {next(iter(data))!r}")
