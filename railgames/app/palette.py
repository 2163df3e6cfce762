"""Player and commodity colours, each paired with a letter.

Every player is a colour and a letter, and every cube colour has a letter, so
the board reads in 16 colours, with NO_COLOR, and for colour-blind players.
Only the 16 ANSI colour names are used.
"""

from __future__ import annotations

from collections.abc import Sequence

# One bright ANSI colour per seat: red, cyan, green, yellow, magenta, white.
PLAYER_STYLES: list[str] = [
    "bold bright_red", "bold bright_cyan", "bold bright_green",
    "bold bright_yellow", "bold bright_magenta", "bold bright_white",
]

COMMODITY_STYLES: dict[str, str] = {
    "purple": "bold magenta",
    "blue": "bold bright_blue",
    "red": "bold red",
    "yellow": "bold yellow",
}


def player_style(seat: int) -> str:
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


def player_letters(names: Sequence[str]) -> list[str]:
    """One distinct capital letter per player: the initial when it is free, else the next free one."""
    letters: list[str] = []
    for name in names:
        candidates = [c.upper() for c in name if c.isalpha()] + [chr(ord("A") + i) for i in range(26)]
        letters.append(next(c for c in candidates if c not in letters))
    return letters


def commodity_letter(colour: str) -> str:
    return colour[:1].upper()


def commodity_style(colour: str) -> str:
    return COMMODITY_STYLES.get(colour, "bold")
