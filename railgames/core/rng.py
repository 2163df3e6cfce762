"""Seeded chance: dice, cups of cubes and decks of cards.

Every random draw in a game comes from one ``Chance`` object built from the
record's seed, and draws happen only inside ``apply``. Replaying the same
actions therefore draws the same numbers in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Chance:
    """A seeded random source whose equality compares its internal position."""

    __slots__ = ("_rng",)

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, dice: int = 1, sides: int = 6) -> list[int]:
        return [self._rng.randint(1, sides) for _ in range(dice)]

    def pick(self, items: Sequence[T]) -> T:
        return items[self._rng.randrange(len(items))]

    def pick_weighted(self, counts: dict[str, int]) -> str:
        """Draw one item from a bag given as counts (e.g. cubes in a cup)."""
        total = sum(counts.values())
        if total <= 0:
            raise ValueError("cannot draw from an empty bag")
        n = self._rng.randrange(total)
        for key in sorted(counts):
            n -= counts[key]
            if n < 0:
                return key
        raise AssertionError("unreachable")

    def shuffle(self, items: list[T]) -> None:
        self._rng.shuffle(items)

    def randrange(self, n: int) -> int:
        return self._rng.randrange(n)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Chance) and self._rng.getstate() == other._rng.getstate()

    def __hash__(self) -> int:  # pragma: no cover - not used as a key
        return id(self)

    def __deepcopy__(self, memo: dict) -> Chance:
        new = Chance(0)
        new._rng.setstate(self._rng.getstate())
        return new

    def __repr__(self) -> str:
        return "Chance(...)"
