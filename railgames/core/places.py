"""Naming a spot on a map as a player would: by the nearest named place and a compass
direction ("north-east of Denver"), never by grid coordinates the board does not show.

Any game can use it: positions are points on a flat plane, ``x`` growing east and
``y`` growing south (as on the screen); a hex map passes its hexes' centres (see
``hex_point``). Places are ``(name, position)`` pairs, usually the map's cities.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from railgames.core.hexgrid import Hex

Point = tuple[float, float]
Place = tuple[str, Point]

COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
           "south-east")
# The sixteen points, for telling apart spots further away that eight would name alike.
COMPASS16 = ("east", "east-north-east", "north-east", "north-north-east", "north",
             "north-north-west", "north-west", "west-north-west", "west", "west-south-west",
             "south-west", "south-south-west", "south", "south-south-east", "south-east",
             "east-south-east")


def hex_point(h: Hex, orientation: str = "pointy") -> Point:
    """The centre of an axial hex on the plane, neighbours one unit apart."""
    if orientation == "pointy":
        return (h.q + h.r / 2, h.r * math.sqrt(3) / 2)
    return (h.q * math.sqrt(3) / 2, h.r + h.q / 2)


def compass(frm: Point, to: Point, points: int = 8) -> str:
    """The compass direction from ``frm`` to ``to`` ("north-east"), of 8 or 16 points."""
    names = COMPASS16 if points == 16 else COMPASS
    dx, dy = to[0] - frm[0], frm[1] - to[1]  # y grows south on the plane
    angle = math.degrees(math.atan2(dy, dx)) % 360
    return names[round(angle / (360 / len(names))) % len(names)]


def _distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def nearest(at: Point, places: Sequence[Place]) -> Place | None:
    """The place nearest ``at`` (the first listed on a tie), or None if there is none."""
    best: Place | None = None
    for place in places:
        if best is None or _distance(at, place[1]) < _distance(at, best[1]) - 1e-9:
            best = place
    return best


def near(at: Point, places: Sequence[Place], unit: str = "") -> str:
    """``at`` by its nearest place: the place's name if it is there, else
    "north-east of Denver"; given a ``unit`` ("hex"), a spot further than one unit
    away says how far, rounded ("2 hexes north-east of Denver")."""
    place = nearest(at, places)
    if place is None:
        return "somewhere"
    name, where = place
    far = _distance(at, where)
    if far < 0.5:
        return name
    steps = round(far)
    way = f"{compass(where, at)} of {name}"
    if not unit or steps <= 1:
        return way
    return f"{steps} {unit}{'es' if unit.endswith(('s', 'x')) else 's'} {way}"


def toward(frm: Point, to: Point, places: Sequence[Place], *, spread: float = 50.0) -> str:
    """The way from ``frm`` to ``to`` as a heading: "toward Detroit, north-east" when a
    place lies that way (within ``spread`` degrees of it, the nearest such), else just
    "north-east". A place at ``to`` itself is named alone ("into Detroit" is left to
    the caller)."""
    heading = compass(frm, to)
    way = math.atan2(frm[1] - to[1], to[0] - frm[0])
    best: Place | None = None
    for place in places:
        d = _distance(frm, place[1])
        if d < 0.5:
            continue
        bearing = math.atan2(frm[1] - place[1][1], place[1][0] - frm[0])
        off = abs((math.degrees(bearing - way) + 180) % 360 - 180)
        if off <= spread and (best is None or d < _distance(frm, best[1]) - 1e-9):
            best = place
    return heading if best is None else f"toward {best[0]}, {heading}"
