"""Naming a spot by its nearest place and a compass direction (railgames.core.places)."""

from __future__ import annotations

from railgames.core.hexgrid import AXIAL_DIRECTIONS, Hex
from railgames.core.places import compass, hex_point, near, nearest, toward

CITIES = [("Denver", (0.0, 0.0)), ("Detroit", (10.0, -4.0)), ("Dallas", (0.0, 9.0))]


def test_compass_points_with_y_growing_south() -> None:
    assert compass((0, 0), (1, 0)) == "east"
    assert compass((0, 0), (0, -1)) == "north"
    assert compass((0, 0), (1, -1)) == "north-east"
    assert compass((0, 0), (-1, 1)) == "south-west"
    assert compass((0, 0), (-1, 0)) == "west"


def test_the_six_hex_neighbours_have_six_different_directions() -> None:
    centre = hex_point(Hex(3, 4))
    ways = {compass(centre, hex_point(Hex(3, 4) + d)) for d in AXIAL_DIRECTIONS}
    assert ways == {"east", "west", "north-east", "north-west", "south-east", "south-west"}


def test_near_names_the_nearest_place_and_the_way_from_it() -> None:
    assert near((1.0, -1.0), CITIES) == "north-east of Denver"
    assert near((9.0, -4.0), CITIES) == "west of Detroit"
    assert near((0.0, 0.2), CITIES) == "Denver"  # at the place itself


def test_near_says_how_far_in_the_unit_given() -> None:
    assert near((3.0, 0.0), CITIES, unit="hex") == "3 hexes east of Denver"
    assert near((1.0, 0.0), CITIES, unit="hex") == "east of Denver"
    assert near((0.0, 2.0), CITIES, unit="mile") == "2 miles south of Denver"


def test_near_with_no_places_still_answers() -> None:
    assert near((1.0, 1.0), []) == "somewhere"
    assert nearest((1.0, 1.0), []) is None


def test_toward_names_a_place_lying_the_way_of_the_heading() -> None:
    # Heading east-north-east from Denver: Detroit lies that way, Dallas does not.
    assert toward((0.0, 0.0), (1.0, -0.4), CITIES) == "toward Detroit, east"
    # Heading west: nothing lies that way.
    assert toward((0.0, 0.0), (-1.0, 0.0), CITIES) == "west"
    # The nearest of two places lying the same way is named.
    two = [("Far", (10.0, 0.0)), ("Close", (4.0, 0.5))]
    assert toward((0.0, 0.0), (1.0, 0.0), two) == "toward Close, east"
