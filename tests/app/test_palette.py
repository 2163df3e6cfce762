"""Player, company and cube colours keep their names on a 16-colour terminal."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from rich.color import ANSI_COLOR_NAMES, Color, ColorSystem
from rich.style import Style
from textual import constants
from textual.color import Color as TextualColor

from railgames.app import palette
from railgames.app.palette import ANSI16, named
from railgames.games.american_rails import board as ar_board
from railgames.games.paris_connection import board as pc_board
from railgames.games.steel_driver import board as sd_board
from tests.app.scenes import scenes

SIXTEEN = (ColorSystem.STANDARD, ColorSystem.WINDOWS)

# A game's colour name -> the ANSI colours that still read as it.
READS_AS = {
    "red": {"red", "bright_red"},
    "blue": {"blue", "bright_blue"},
    "green": {"green", "bright_green"},
    "yellow": {"yellow", "bright_yellow"},
    "purple": {"magenta", "bright_magenta"},
    "black": {"black", "bright_black"},
    "white": {"white", "bright_white"},
    "silver": {"white", "bright_white"},
    "orange": {"yellow", "bright_yellow"},
    "beige": {"yellow", "bright_yellow"},
    "grey": {"bright_black", "white"},
}
NAME_OF = {number: name for name, number in ANSI_COLOR_NAMES.items() if number < 16}
NAME_OF[8] = "bright_black"  # rich also calls it "grey"/"gray"


def sixteen_name(color: Color | None, system: ColorSystem) -> str:
    assert color is not None
    number = color.downgrade(system).number
    assert number is not None
    return NAME_OF[number]


@pytest.mark.parametrize("system", SIXTEEN, ids=lambda s: s.name)
def test_every_ansi16_value_turns_back_into_its_own_name(system: ColorSystem) -> None:
    for name, value in ANSI16.items():
        assert sixteen_name(Color.parse(value), system) == name, (name, value)


def test_named_writes_colour_names_as_values_and_leaves_the_rest() -> None:
    assert named("bold bright_white on red") == f"bold {ANSI16['bright_white']} on {ANSI16['red']}"
    assert named("dim italic") == "dim italic"


def _colour(style: str, *, background: bool) -> Color | None:
    parsed = Style.parse(style)
    return parsed.bgcolor if background else parsed.color


# (what, game colour name, style, whether the colour is the background)
CASES = [
    *[("Paris Connection company", c, s, True) for c, s in pc_board.COMPANY_STYLES.items()],
    *[("Paris Connection city", c, s, False) for c, s in pc_board.CITY_STYLES.items()],
    *[("Steel Driver company track", c, s, False) for c, s in sd_board.COMPANY_STYLES.items()],
    *[("Steel Driver company chip", c, s, True) for c, s in sd_board.COMPANY_CHIPS.items()],
    *[("Steel Driver goods", c, s, False) for c, s in sd_board.COLOUR_STYLES.items()],
    *[("New England cube", c, s, False) for c, s in palette.COMMODITY_STYLES.items()],
    *[("American Rails company", c, s, True) for c, s in ar_board.COMPANY_STYLES.items()],
]


@pytest.mark.parametrize("system", SIXTEEN, ids=lambda s: s.name)
@pytest.mark.parametrize(("what", "colour", "style", "background"), CASES,
                         ids=[f"{w}-{c}" for w, c, _, _ in CASES])
def test_each_game_colour_keeps_its_name_in_16_colours(
        what: str, colour: str, style: str, background: bool, system: ColorSystem) -> None:
    shown = sixteen_name(_colour(style, background=background), system)
    assert shown in READS_AS[colour], f"{what} {colour} is drawn {shown}"


def test_player_colours_stay_six_different_colours_in_16_colours() -> None:
    for system in SIXTEEN:
        shown = [sixteen_name(Style.parse(s).color, system) for s in palette.PLAYER_STYLES]
        assert len(set(shown)) == len(shown), shown


def test_no_game_colour_is_left_to_the_theme() -> None:
    """The theme turns ANSI names into its own RGB values (red pink, blue violet)."""
    for _, _, style, _ in CASES:
        assert not re.search(r"\b(?:red|blue|green|yellow|magenta|cyan|white|black)\b", style), style
    for style in palette.PLAYER_STYLES:
        assert style.count("#") == 1, style


def test_paris_connection_red_and_blue_reach_a_16_colour_terminal_as_red_and_blue(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(constants, "COLOR_SYSTEM", "standard")
    asyncio.run(_red_and_blue_in_16_colours(tmp_path))


async def _red_and_blue_in_16_colours(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path)["pc_board"]()
    async with app.run_test(size=(120, 40)) as pilot:
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        assert app.console.color_system == "standard"
        board = app.screen.query_one("#board")
        background = TextualColor.parse("black")
        wanted = {"R": "41", "B": "44"}  # SGR background codes: red, blue
        seen: dict[str, set[str]] = {"R": set(), "B": set()}
        for y in range(board.size.height):
            strip = board.render_line(y)
            for line_filter in app._filters:
                strip = strip.apply_filter(line_filter, background)
            for segment in strip:
                if segment.text.strip() in wanted and segment.style and segment.style.bgcolor:
                    sgr = Style(bgcolor=segment.style.bgcolor.downgrade(ColorSystem.STANDARD))
                    codes = sgr._make_ansi_codes(ColorSystem.STANDARD)
                    seen[segment.text.strip()].add(codes)
        for letter, code in wanted.items():
            assert seen[letter], f"no {letter} locomotive on the board"
            assert seen[letter] == {code}, (letter, seen[letter])
