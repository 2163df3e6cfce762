"""Hex-grid arithmetic in axial coordinates (q, r).

Storage and maths use axial coordinates; map files may give hexes by their
offset (column, row) position in the text grid, converted here. Every hex side
has one canonical key, so a ridge or border between two hexes is stored once.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

Orientation = Literal["pointy", "flat"]


class Hex(NamedTuple):
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:  # type: ignore[override]
        assert isinstance(other, Hex)
        return Hex(self.q + other.q, self.r + other.r)


AXIAL_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)


def neighbours(h: Hex) -> list[Hex]:
    return [h + d for d in AXIAL_DIRECTIONS]


# (dq, dr) from a hex to each of its neighbours: the rules ask this on every step.
_NEIGHBOUR_STEPS = frozenset((d.q, d.r) for d in AXIAL_DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # the s difference is -(dq + dr)


def are_adjacent(a: Hex, b: Hex) -> bool:
    return (a[0] - b[0], a[1] - b[1]) in _NEIGHBOUR_STEPS


def side_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The canonical key of the side shared by two adjacent hexes."""
    if (a[0] - b[0], a[1] - b[1]) not in _NEIGHBOUR_STEPS:
        raise ValueError(f"{a} and {b} do not share a side")
    return (a, b) if a <= b else (b, a)


def offset_to_axial(col: int, row: int, orientation: Orientation = "pointy") -> Hex:
    """Odd-r offset rows (pointy tops) or odd-q offset columns (flat tops)."""
    if orientation == "pointy":
        return Hex(col - (row - (row & 1)) // 2, row)
    return Hex(col, row - (col - (col & 1)) // 2)


def axial_to_offset(h: Hex, orientation: Orientation = "pointy") -> tuple[int, int]:
    if orientation == "pointy":
        return h.q + (h.r - (h.r & 1)) // 2, h.r
    return h.q, h.r + (h.q - (h.q & 1)) // 2


def parse_hex(value: Any) -> Any:
    """Read a hex given as "7,3" (or "7, 3") or as [7, 3]; for an action's before-validator.

    A JSON array is turned into a pair here, since strict parsing takes only a
    tuple for a pair once a before-validator has handed it on as Python data.
    """
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts):
            return (int(parts[0]), int(parts[1]))
    if isinstance(value, list):
        return tuple(value)
    return value
