"""What the tests of every game share: player names, whose move it is, refusals."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest

from railgames.core.engine import Game
from railgames.core.errors import RailgamesError

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def seat_of(game: Game, name: str) -> int:
    return [p.name for p in game.players].index(name)


def to_move(game: Game) -> int:
    seat = game.ruleset.to_move(game.state)
    assert seat is not None
    return seat


def assert_refused(game: Game, raw: Any, kind: type[RailgamesError], reason: str) -> RailgamesError:
    """The action is refused with ``kind`` (exactly), a reason containing ``reason``,
    and neither the state nor the record changes."""
    before = copy.deepcopy(game.state)
    count = len(game.record.actions)
    with pytest.raises(RailgamesError) as info:
        game.apply(raw)
    err = info.value
    assert type(err) is kind, f"expected {kind.__name__}, got {type(err).__name__}: {err.reason}"
    assert reason.lower() in err.reason.lower(), f"reason {err.reason!r} lacks {reason!r}"
    assert game.state == before
    assert len(game.record.actions) == count
    return err


def _changeable(obj: Any, found: dict[int, Any]) -> dict[int, Any]:
    """Every list, dict, set and object with attributes reachable from ``obj``, by id."""
    if isinstance(obj, (str, bytes, int, float, bool)) or obj is None:
        return found
    if isinstance(obj, tuple):
        for item in obj:
            _changeable(item, found)
        return found
    if id(obj) in found:
        return found
    found[id(obj)] = obj
    if isinstance(obj, dict):
        for key, value in obj.items():
            _changeable(key, found)
            _changeable(value, found)
    elif isinstance(obj, (list, set, frozenset)):
        for item in obj:
            _changeable(item, found)
    elif hasattr(obj, "__dict__"):
        for value in vars(obj).values():
            _changeable(value, found)
    return found


def assert_copies_like_deepcopy(state: Any) -> None:
    """A state's own ``__deepcopy__`` gives what the generic deep copy gives, and the
    copy shares nothing that can change with the state (events, being frozen, may be shared
    only where the generic copy shares them too)."""
    cls = type(state)
    own = copy.deepcopy(state)
    method = cls.__dict__["__deepcopy__"]
    delattr(cls, "__deepcopy__")
    try:
        generic = copy.deepcopy(state)
    finally:
        cls.__deepcopy__ = method
    assert type(own) is cls and own == generic
    assert list(vars(own)) == list(vars(generic))
    for name in vars(state):
        assert type(getattr(own, name)) is type(getattr(generic, name)), name
    shared = set(_changeable(own, {})) & set(_changeable(state, {}))
    allowed = set(_changeable(generic, {})) & set(_changeable(state, {}))
    assert shared <= allowed, [type(_changeable(state, {})[i]).__name__ for i in shared - allowed]



def _module_file(name: str) -> str | None:
    """The source file of module ``name``, or None if it is not a module (a class, say)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, AttributeError):  # a name inside a module, not a module
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return spec.origin


def modules_imported_from(module: str) -> set[str]:
    """Every railgames name ``module`` reaches by its import statements, wherever they
    stand (a function's own imports too), read from the sources without importing them:
    the modules, and each name imported from one as "module.name"."""
    import ast

    seen: set[str] = set()
    todo = [module]
    while todo:
        path = _module_file(todo.pop())
        if path is None:
            continue
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for found in names:
                if found.startswith("railgames.") and found not in seen:
                    seen.add(found)
                    todo.append(found)
    return seen


@contextmanager
def host_events() -> Iterator[list[dict[str, Any]]]:
    """The events the host logs in this process (``railgames.host``), as they come."""
    import logging

    records: list[dict[str, Any]] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(getattr(record, "fields", {}))

    logger = logging.getLogger("railgames.host")
    handler, level = Keep(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait for ``check`` to hold (TimeoutError naming ``what`` after ``timeout`` seconds)."""
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.05)


def running(pid: int) -> bool:
    """Whether process ``pid`` is alive (a zombie, ended but not reaped, is not)."""
    from pathlib import Path

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@asynccontextmanager
async def host_running(config: Any) -> AsyncIterator[Any]:
    """An SSH host (``railgames.net.sshhost.Host``) started in this process, closed after."""
    from railgames.net.sshhost import Host

    host = Host(config)
    await host.start()
    try:
        yield host
    finally:
        await host.close()
