"""A hint on the decision at hand (H), as the game screen shows it.

The advice itself (``railgames.core.coach.advise``) is worked out in the screen's
worker process from the view of the seat to move; here it is put in the game's
own words (its ``GameUI.describe``, from the state the screen shows) and laid out
for the action panel: the reason in one line, or on a second H the top three
choices with how far each is behind the first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from railgames.app.gameui import GameUI
from railgames.core.coach import Advice, points, reason

THINKING = "Thinking about your move…"
TOP = 3  # choices shown on a second H


@dataclass
class HintAsked:
    """A hint asked for on one decision: the table's mark and moves made when it was
    asked (either moved on: another decision), and the advice once it is back (None
    meanwhile)."""

    mark: Any
    advice: Advice | None = None
    top: bool = False  # the top three are shown, not the one line


def in_game_words(advice: Advice, ruleset: Any, ui: Any, state: Any,
                  names: Sequence[str]) -> Advice:
    """``advice`` with each move labelled as the game's choice list labels it."""
    def label(action: Any, fallback: str) -> str:
        try:
            words = str(ui.describe(state, action, names))
            # A move the game has no words for (an amount typed in, say) gets only the
            # field names of the plain default ("bid amount=4000"): its log line says it better.
            if words == GameUI.describe(ui, state, action, names):
                return fallback
            return words or fallback
        except Exception:  # noqa: BLE001 - a label is only words: keep the log's then
            return fallback

    choices = tuple(dataclasses.replace(c, label=label(c.action, c.label)) for c in advice.choices)
    return dataclasses.replace(advice, choices=choices, reason=reason(ruleset, choices))


def one_line(advice: Advice) -> Text:
    text = Text("Hint: ", style="bold")
    text.append(advice.reason)
    if len(advice.choices) > 1:
        text.append("  (H: top 3)", style="dim")
    return text


def top_three(advice: Advice, ruleset: Any) -> Text:
    """The best choices, each with how far it is behind the first, in the game's unit."""
    text = Text("Hint, the top choices:", style="bold")
    for place, choice in enumerate(advice.choices[:TOP], 1):
        if place == 1:
            estimate = "the best"
        elif round(choice.behind) >= 1:
            estimate = f"about {points(ruleset, choice.behind)} worse"
        elif round(choice.behind) <= -1:
            estimate = f"maybe {points(ruleset, choice.behind)} better, not yet for sure"
        else:
            estimate = f"about as good (within {points(ruleset, 1)})"
        gains = f" ({', '.join(choice.gains)})" if choice.gains else ""
        text.append(f"\n{place}. {choice.label}{gains}: {estimate}")
    return text
