"""Player and commodity colours, each paired with a letter.

Every player is a colour and a letter, and every cube colour has a letter, so
the board reads in 16 colours, with NO_COLOR, and for colour-blind players.
Only the 16 ANSI colours are used, each written as the RGB value in ``ANSI16``
(see ``named``): the theme's own ANSI colours are not used for players, companies
and cubes, as they would turn red pink and blue violet, and a 16-colour terminal
would then draw them magenta and cyan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Each of the 16 ANSI colours as an RGB value that looks like its name and that a
# 16-colour terminal (Rich's standard and Windows palettes) turns back into the
# colour of that name. A test holds every value to this.
ANSI16: dict[str, str] = {
    "black": "#1e1e1e",
    "red": "#cc2424",
    "green": "#28aa3c",
    "yellow": "#d7a000",
    "blue": "#1432be",
    "magenta": "#af3cbe",
    "cyan": "#00aabe",
    "white": "#c8c8c8",
    "bright_black": "#6e6e6e",
    "bright_red": "#ff5555",
    "bright_green": "#5aeb5a",
    "bright_yellow": "#fff050",
    "bright_blue": "#5a82ff",
    "bright_magenta": "#e63cd2",
    "bright_cyan": "#5af0f0",
    "bright_white": "#ffffff",
}

_COLOUR_WORD = re.compile(r"\b(?:" + "|".join(sorted(ANSI16, key=len, reverse=True)) + r")\b")


def named(style: str) -> str:
    """A style string with its ANSI colour names written as their ``ANSI16`` values.

    ``named("bold bright_white on red")`` is ``"bold #ffffff on #cc2424"``.
    """
    return _COLOUR_WORD.sub(lambda m: ANSI16[m.group(0)], style)


# One bright ANSI colour per seat: red, cyan, green, yellow, magenta, white.
PLAYER_STYLES: list[str] = [named(s) for s in (
    "bold bright_red", "bold bright_cyan", "bold bright_green",
    "bold bright_yellow", "bold bright_magenta", "bold bright_white",
)]

COMMODITY_STYLES: dict[str, str] = {colour: named(style) for colour, style in {
    "purple": "bold magenta",
    "blue": "bold bright_blue",
    "red": "bold red",
    "yellow": "bold yellow",
}.items()}


def player_style(seat: int) -> str:
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


def player_letters(names: Sequence[str]) -> list[str]:
    """One distinct capital letter per player, read from the name alone.

    The initial when it is free, else the name's next free letter, else the first
    free letter of the alphabet. A bot's description ("Ada (greedy bot)") is not
    part of its name: Ada is never G for "greedy". The letters follow from the
    names in seat order only, so a game keeps them from its first move to a
    replay of its save (no save holds them).
    """
    letters: list[str] = []
    for name in names:
        own = [c.upper() for c in short_name(name) if "A" <= c.upper() <= "Z"]
        candidates = own + [chr(ord("A") + i) for i in range(26)]
        letters.append(next(c for c in candidates if c not in letters))
    return letters


def short_name(name: str) -> str:
    """A seat's name without the description a bot is given: ``Ada (greedy bot)`` is ``Ada``."""
    head, sep, tail = name.partition(" (")
    return head if sep and tail.endswith(" bot)") else name


def commodity_letter(colour: str) -> str:
    return colour[:1].upper()


def commodity_style(colour: str) -> str:
    return COMMODITY_STYLES.get(colour, "bold")
