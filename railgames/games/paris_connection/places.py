"""Names for the hexes of the Paris Connection map, as a player would say them.

A city is its name; the tower is the Eiffel Tower; a Paris hex is named by its
side of the tower ("north-east Paris"); any other hex is a plain named from the
nearest place worth naming, a city or Paris, with the way to go and, past the
next hex, how far: "the plain east of Lyon", "the plain 2 hexes south-west of
Tours". No two hexes get the same name, so a list of hexes reads without the
board: where two plains would, the one that lies squarest on the compass keeps
the name and the other is named from its next nearest place.
"""

from __future__ import annotations

import math

from railgames.core.hexgrid import Hex, distance
from railgames.core.places import COMPASS, hex_point
from railgames.games.paris_connection.board_map import ParisConnectionMap

PARIS = "Paris"


def bearing(origin: Hex, target: Hex) -> tuple[str, float]:
    """The compass point from ``origin`` to ``target`` on the printed (pointy-top)
    board, and how far off that point the true direction is, in eighths of a turn."""
    (x0, y0), (x1, y1) = hex_point(origin), hex_point(target)
    eighths = math.atan2(y0 - y1, x1 - x0) / (math.pi / 4)  # y grows south on the plane
    point = round(eighths)
    return COMPASS[point % 8], abs(eighths - point)


def plain_name(where: str, how_far: int, landmark: str) -> str:
    steps = "" if how_far == 1 else f"{how_far} hexes "
    return f"the plain {steps}{where} of {landmark}"


def side_of_paris(tower: Hex, h: Hex) -> str:
    return f"{bearing(tower, h)[0]} Paris"


def place_names(game_map: ParisConnectionMap) -> dict[Hex, str]:
    """Every hex of the map and its name (see the module's docstring), worked out once
    per map."""
    kept = _NAMES.get(game_map.id)
    if kept is not None and kept[0] is game_map:
        return kept[1]
    names = _work_out_names(game_map)
    _NAMES[game_map.id] = (game_map, names)
    return names


_NAMES: dict[str, tuple[ParisConnectionMap, dict[Hex, str]]] = {}


def _work_out_names(m: ParisConnectionMap) -> dict[Hex, str]:
    names: dict[Hex, str] = {h: c.name for h, c in m.city_at.items()}
    names[m.tower] = "the Eiffel Tower"
    for h in m.paris:
        names[h] = side_of_paris(m.tower, h)
    landmarks = [(h, c.name, m.city_values[c.colour]) for h, c in m.city_at.items()]
    landmarks.append((m.tower, PARIS, max(m.city_values.values()) + 1))
    # Each plain's ways of being named, best first: nearest place, then the greater.
    options: dict[Hex, list[tuple[str, float]]] = {}
    for h in m.terrain:
        if h in names:
            continue
        ranked = sorted(landmarks, key=lambda lm: (distance(lm[0], h), -lm[2], lm[1]))
        options[h] = []
        for at, landmark, _ in ranked:
            where, off = bearing(at, h)
            options[h].append((plain_name(where, distance(at, h), landmark), off))
    choice = dict.fromkeys(options, 0)
    while True:
        holders: dict[str, list[Hex]] = {}
        for h, i in choice.items():
            holders.setdefault(options[h][i][0], []).append(h)
        moved = False
        for shared in holders.values():
            if len(shared) < 2:
                continue
            # The plain lying squarest on the compass keeps the name; the others move on.
            shared.sort(key=lambda h: (options[h][choice[h]][1], m.offset_of(h)))
            for h in shared[1:]:
                if choice[h] + 1 < len(options[h]):
                    choice[h] += 1
                    moved = True
        if not moved:
            break
    for h, i in choice.items():
        names[h] = options[h][i][0]
    return names
