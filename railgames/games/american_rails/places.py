"""A hex of the American Rails map named as a player would name it.

A city is its name; any other hex is its terrain, the way to it from the nearest
city and that city: "forest south-west of Chicago", "mountain 2 hexes east
of Pittsburgh". Players read the board by its cities, and the map
shows no coordinates, so nothing said to them uses any.

Directions are worked out on the drawn map (pointy-top hexes, odd rows shifted
right), north up. One step away takes the nearest of eight compass points; further
away the sixteen-point ones ("east-north-east"), so that two hexes named from the
same city differ wherever the board lets them.
"""

from __future__ import annotations

import math

from railgames.core.hexgrid import Hex, distance
from railgames.core.places import compass
from railgames.games.american_rails.board_map import AmericanRailsMap

ROW_HEIGHT = math.sqrt(3) / 2  # rows of pointy-top hexes one hex wide


def _centre(game_map: AmericanRailsMap, h: Hex) -> tuple[float, float]:
    col, row = game_map.offset_of(h)
    return col + (0.5 if row & 1 else 0.0), row * ROW_HEIGHT


def direction(game_map: AmericanRailsMap, origin: Hex, target: Hex, *, points: int = 8) -> str:
    """The compass point from ``origin`` to ``target`` on the drawn map."""
    return compass(_centre(game_map, origin), _centre(game_map, target), points)


def nearest_city(game_map: AmericanRailsMap, h: Hex) -> Hex:
    """The city hex nearest to ``h``; between equally near ones the more valuable,
    then the first the map lists."""
    order = {c.id: i for i, c in enumerate(game_map.cities)}
    return min(game_map.city_at, key=lambda c: (distance(c, h), -game_map.city_at[c].full,
                                                 order[game_map.city_at[c].id]))


def place_name(game_map: AmericanRailsMap, h: Hex) -> str:
    """"Chicago", "forest south-west of Chicago", "plains 2 hexes east-north-east of Detroit"."""
    city = game_map.city_at.get(h)
    if city is not None:
        return city.name
    near = nearest_city(game_map, h)
    steps = distance(near, h)
    way = direction(game_map, near, h, points=8 if steps == 1 else 16)
    far = f"{steps} hexes " if steps > 1 else ""
    return f"{game_map.terrain[h]} {far}{way} of {game_map.city_at[near].name}"
