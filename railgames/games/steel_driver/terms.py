"""Steel Driver's numbers, what goods sets are worth, and the words for counts.

Kept apart from the rules so that the phases, the bots, the board and the
panel all read one copy without importing the rules class.
"""

from __future__ import annotations

from railgames.games.steel_driver.board_map import COLOURS

CUBES_PER_TURN = {3: 10, 4: 8, 5: 7, 6: 6}
TURNS = 5
TRANSCONTINENTAL_BUILDER = 50
TRANSCONTINENTAL_OTHERS = 30
# What a set of 1, 2, 3, 4 or 5 goods cubes of different colours is worth.
SET_VALUES = (0, 10, 30, 60, 100, 150)


def goods_sets(goods: dict[str, int]) -> list[list[str]]:
    """The best way to arrange goods cubes into sets of different colours.

    Ruling "arranging sets": a set is worth more the bigger it is, and each
    extra cube adds more than the one before (10, 20, 30, 40, 50), so the best
    arrangement puts one cube of every colour held in the first set, one of
    every colour still left in the second, and so on.
    """
    left = {c: k for c, k in goods.items() if k > 0}
    sets: list[list[str]] = []
    while left:
        layer = [c for c in COLOURS if c in left] + sorted(c for c in left if c not in COLOURS)
        sets.append(layer)
        for c in layer:
            left[c] -= 1
            if left[c] == 0:
                del left[c]
    return sets


def set_value(goods: dict[str, int]) -> int:
    return sum(SET_VALUES[len(s)] for s in goods_sets(goods))


def goods_text(goods: dict[str, int]) -> str:
    """Goods cubes by colour, in the colours' order: "2 white, 1 red"."""
    parts = [f"{goods[c]} {c}" for c in COLOURS if goods.get(c)]
    return ", ".join(parts) if parts else "no goods"


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def cubes(count: int) -> str:
    """A count of cubes in words: "1 cube", "3 cubes"."""
    return f"{count} cube{'s' if count != 1 else ''}"
