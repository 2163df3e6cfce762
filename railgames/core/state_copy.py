"""Deep copies of game states made field by field, for the search bot.

A search copies the state it plays from on every iteration; ``copy.deepcopy``
walks every object it meets. A state that knows its fields copies each the
cheapest way that still gives what ``copy.deepcopy`` gives: immutable values
are shared, known containers are copied by a function of the game's, and any
other field is deep-copied as before.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection
from typing import Any, TypeVar

T = TypeVar("T")


def copy_by_fields(state: T, memo: dict[int, Any], copiers: dict[str, Callable[[Any], Any]],
                   shared: Collection[type]) -> T:
    """A deep copy of ``state``: ``copiers[name]`` copies that field, a value of a type in
    ``shared`` (immutable) is kept as it is, and anything else is deep-copied."""
    new = object.__new__(type(state))
    memo[id(state)] = new
    fields = new.__dict__
    for name, value in state.__dict__.items():
        how = copiers.get(name)
        if how is not None:
            fields[name] = how(value)
        elif type(value) in shared:
            fields[name] = value
        else:
            fields[name] = copy.deepcopy(value, memo)
    return new
