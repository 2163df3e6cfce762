"""What a move changes at once, in a game's own words: the pieces rulesets' ``gains_now``
(``railgames.core.coach``) put their lines together from.

Each helper gives a line only for a change ("+3 income", "-$5 cash", "+2 blue
locomotives"); nothing changed, nothing said.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping


def change(was: int, now: int, word: str, money: bool = False) -> list[str]:
    """'+3 income' or '-$5 cash' (money with a dollar sign); [] when it is the same."""
    if was == now:
        return []
    sign = "+" if now > was else "-"
    amount = f"${abs(now - was)}" if money else str(abs(now - was))
    return [f"{sign}{amount} {word}"]


def counts(was: Mapping[str, int] | None, now: Mapping[str, int] | None,
           word: Callable[[str, int], str]) -> list[str]:
    """A line for each key whose count changed: ``word(key, n)`` names n of it ('2 blue
    locomotives'), after the sign."""
    was, now = was or {}, now or {}
    out = []
    for key in list(now) + [k for k in was if k not in now]:
        a, b = was.get(key, 0), now.get(key, 0)
        if a != b:
            out.append(f"{'+' if b > a else '-'}{word(key, abs(b - a))}")
    return out


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"
