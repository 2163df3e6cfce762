"""The action panel: what the seat to move may do now, taken from the rules' Prompt.

Amounts get an ``AmountBox``; lists of actions become a small tree the player
walks level by level (a game's ``GameUI`` says how to group them). The panel
never applies anything itself: it posts ``ActionPanel.Chosen`` and the screen
sends the action to the rules layer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from railgames.app.gameui import Choice, GameUI, Highlight
from railgames.app.layout_once import ChoiceList
from railgames.app.widgets.amount import AmountBox
from railgames.app.widgets.quiet import QuietStatic
from railgames.core.engine import OpenAmount, Prompt


class StepButton(Button, can_focus=False):
    """A mouse-only button; the keyboard has its own keys for the same thing."""


class ActionPanel(Vertical):
    DEFAULT_CSS = """
    ActionPanel { height: auto; max-height: 100%; border: round $accent; padding: 0 1; }
    ActionPanel #ap-title { text-style: bold; }
    ActionPanel #ap-level { color: $accent; }
    ActionPanel #ap-context { color: $text-muted; }
    ActionPanel #ap-amount-row { height: 1; }
    ActionPanel #ap-amount-row StepButton { min-width: 5; width: auto; height: 1; border: none; margin: 0 1 0 0; }
    ActionPanel OptionList { height: auto; max-height: 10; border: none; padding: 0; }
    ActionPanel #ap-hint { color: $text-muted; }
    ActionPanel #ap-reason { color: $error; text-style: bold; }
    ActionPanel #ap-advice { color: $success; }
    ActionPanel .hidden { display: none; }
    """

    class Chosen(Message):
        def __init__(self, action: Any) -> None:
            super().__init__()
            self.action = action

    class HighlightChanged(Message):
        def __init__(self, highlight: Highlight, board_level: bool) -> None:
            super().__init__()
            self.highlight = highlight
            self.board_level = board_level

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.prompt: Prompt | None = None
        self.state: Any = None
        self.ui: GameUI | None = None
        self.names: Sequence[str] = ()
        self.choices: list[Choice] = []
        self.prefix: list[tuple[str, bool]] = []  # (key, skipped automatically)
        self.options: list[tuple[str, str, Any]] = []  # key, label, leaf action or None
        self.highlight_listener: Callable[[ActionPanel.HighlightChanged], None] | None = None
        self._announced: tuple[Any, ...] | None = None  # what the last highlight was for
        self.advice = ""  # the advice on this decision shown under the choices (plain text)

    def compose(self) -> Any:
        yield QuietStatic(id="ap-title")
        yield QuietStatic(id="ap-context")
        with Horizontal(id="ap-amount-row"):
            yield StepButton("−", id="ap-minus", compact=True)
            yield AmountBox(id="ap-amount")
            yield StepButton("+", id="ap-plus", compact=True)
            yield StepButton("OK", id="ap-ok", compact=True, variant="primary")
        yield QuietStatic(id="ap-level")
        yield ChoiceList(id="ap-options", compact=True)
        yield QuietStatic(id="ap-advice", classes="hidden")
        yield QuietStatic(id="ap-hint")
        yield QuietStatic(id="ap-reason")

    # ------------------------------------------------------------ showing a prompt
    def show_prompt(self, prompt: Prompt | None, state: Any, ui: GameUI, names: Sequence[str],
                    waiting_for: str | None = None) -> None:
        """Show the decision of the moment; ``waiting_for`` names a bot that is about to move."""
        self.prompt, self.state, self.ui, self.names = prompt, state, ui, names
        self.prefix = []
        self.show_reason("")
        self.show_advice("")
        title = self.query_one("#ap-title", Static)
        amount_row = self.query_one("#ap-amount-row")
        options = self.query_one("#ap-options", OptionList)
        if prompt is None or waiting_for is not None:
            self.choices = []
            title.update(f"{waiting_for} is thinking…" if waiting_for else "The game is over.")
            self.query_one("#ap-context", Static).update("")
            amount_row.add_class("hidden")
            options.add_class("hidden")
            self.query_one("#ap-hint", Static).update("")
            self.query_one("#ap-level", Static).add_class("hidden")
            return
        title.update(Text(f"{prompt.step} — {names[prompt.seat]}"))
        self.choices = ui.choices(state, prompt, names)
        context = ui.amount_context(state, prompt, names) if prompt.amount else ""
        self.query_one("#ap-context", Static).update(context)
        self.query_one("#ap-context", Static).set_class(not context, "hidden")
        if prompt.amount is not None:
            a = prompt.amount
            amount_row.remove_class("hidden")
            # An amount the rulebook leaves open is shown open ("≥$0"): its upper end is
            # only a ruling's far bound, which the rules name if it is ever typed.
            high = None if isinstance(a, OpenAmount) else a.max
            self.query_one(AmountBox).configure(a.label, a.min, high, a.step, a.default,
                                                a.unit)
            self.query_one("#ap-ok", Button).label = a.label
        else:
            amount_row.add_class("hidden")
        self._rebuild()

    def _current_options(self) -> list[tuple[str, str, Any]]:
        depth = len(self.prefix)
        keys = [k for k, _ in self.prefix]
        seen: dict[str, tuple[str, str, Any]] = {}
        for choice in self.choices:
            if choice.keys[:depth] != keys or len(choice.keys) <= depth:
                continue
            key = choice.keys[depth]
            leaf = choice.action if len(choice.keys) == depth + 1 else None
            if key not in seen:
                seen[key] = (key, choice.labels[depth], leaf)
        return list(seen.values())

    def _rebuild(self) -> None:
        assert self.prompt is not None and self.ui is not None
        while True:
            self.options = self._current_options()
            if self.prefix and len(self.options) == 1 and self.options[0][2] is None:
                self.prefix.append((self.options[0][0], True))
                continue
            break
        options = self.query_one("#ap-options", ChoiceList)
        if self.prompt.amount is not None and not self.options:
            options.replace_options([])
            options.add_class("hidden")
        else:
            options.remove_class("hidden")
            options.replace_options([Option(label, id=key) for key, label, _ in self.options])
            if self.options:
                options.highlighted = 0
        listed = self.options and not options.has_class("hidden")
        level = "" if self.prompt.amount is not None else self.ui.level_title(
            self.state, self.prompt, self._keys())
        self.query_one("#ap-level", Static).update(level)
        self.query_one("#ap-level", Static).set_class(not level, "hidden")
        self.query_one("#ap-hint", Static).update(self._hint())
        # The list's first line is highlighted: said now, so the board shows it in the
        # same frame as the new choices (the list's own message about it, coming
        # later, then finds it said already).
        self._announce_highlight(self.options[0][0] if listed else None)

    def _hint(self) -> str:
        assert self.prompt is not None and self.ui is not None
        keys = self.ui.hotkeys(self.state, self.prompt, self.names)
        hot = "  ".join(f"{h.key}: {h.label}" for h in keys)
        if self.prompt.amount is not None:
            base = f"Type a number or +/-, Enter: {self.prompt.amount.label.lower()}"
            return f"{base}  {hot}".strip()
        back = "  Esc: back" if self.prefix else ""
        if self._board_level():
            return f"Arrows move on the board, Enter: choose, Tab: the list{back}  {hot}".rstrip()
        return f"↑↓ Enter: choose{back}  {hot}".rstrip()

    def _keys(self) -> list[str]:
        return [k for k, _ in self.prefix]

    def _board_level(self) -> bool:
        if self.prompt is None or self.ui is None or self.prompt.amount is not None:
            return False
        return self.ui.board_level(self.state, self.prompt, self._keys())

    def _announce_highlight(self, option: str | None = None) -> None:
        """Tell the screen what the board should highlight now.

        With a ``highlight_listener`` (the game screen) it is told at once, so that
        the board changes in the same frame as the panel; the same highlight for
        the same decision is told only once.
        """
        if self.prompt is None or self.ui is None:
            return
        keys = self._keys()
        announced = self._announced
        if (announced is not None and announced[0] is self.prompt and announced[1] is self.state
                and announced[2:] == (keys, option)):
            return
        self._announced = (self.prompt, self.state, keys, option)
        hl = self.ui.highlight(self.state, self.prompt, keys, option)
        event = self.HighlightChanged(hl, self._board_level())
        listener = self.highlight_listener
        if listener is not None:
            listener(event)
        else:
            self.post_message(event)

    # ------------------------------------------------------------ input
    def focus_input(self) -> None:
        if self.prompt is None:
            return
        if self.prompt.amount is not None:
            self.query_one(AmountBox).focus()
        elif self.options:
            self.query_one("#ap-options", OptionList).focus()

    @property
    def board_level(self) -> bool:
        return self._board_level()

    def choose_key(self, key: str) -> bool:
        for k, _, leaf in self.options:
            if k == key:
                self._select(k, leaf)
                return True
        return False

    def point_at(self, key: str) -> None:
        """Move the list highlight to ``key`` (the board cursor is on that city).

        With a ``highlight_listener`` (the game screen) the new highlight is handed to
        it at once, so the board and the list change in the same frame as the cursor.
        """
        for i, (k, _, _) in enumerate(self.options):
            if k == key:
                options = self.query_one("#ap-options", OptionList)
                if options.highlighted == i:
                    return
                options.highlighted = i
                if self.highlight_listener is not None:
                    self._announce_highlight(key)

    def suggest(self, action: Any) -> bool:
        """Walk the choices to ``action`` and highlight it (a hint, a lesson's expected
        move); an amount is put in the field. False if it is not a choice of this prompt.

        The player still chooses: Enter takes it, anything else may be chosen instead.
        """
        if self.prompt is None or self.ui is None:
            return False
        from railgames.core.search import action_key

        wanted = action_key(action)
        for choice in self.choices:
            if action_key(choice.action) != wanted:
                continue
            self.prefix = [(key, False) for key in choice.keys[:-1]]
            self._rebuild()
            self.point_at(choice.keys[-1])
            self._announce_highlight(choice.keys[-1])
            if self.prompt.amount is not None and self.query_one(AmountBox).has_focus:
                self.query_one("#ap-options", OptionList).focus()  # Enter takes the list's line
            return True
        amount = action.get("amount") if isinstance(action, dict) else getattr(action, "amount", None)
        if self.prompt.amount is not None and isinstance(amount, int):
            box = self.query_one(AmountBox)
            box.text = str(amount)
            box.refresh()
            if self.query_one("#ap-options", OptionList).has_focus:
                box.focus()
            return True
        return False

    def _select(self, key: str, leaf: Any) -> None:
        if leaf is not None:
            self.post_message(self.Chosen(leaf))
            return
        self.prefix.append((key, False))
        self.show_reason("")
        self._rebuild()
        self.focus_input_or_board()

    def focus_input_or_board(self) -> None:
        if not self._board_level():
            self.focus_input()

    def back(self) -> bool:
        """Esc: go up one level of the choice tree; False when already at the top."""
        if not self.prefix:
            return False
        while self.prefix and self.prefix[-1][1]:
            self.prefix.pop()
        if self.prefix:
            self.prefix.pop()
        self.show_reason("")
        self._rebuild()
        self.focus_input()
        return True

    def show_advice(self, advice: str | Text) -> None:
        """The advice asked for on this decision (H), under the choices; a new decision
        clears it."""
        text = advice if isinstance(advice, Text) else Text(advice)
        self.advice = text.plain
        widget = self.query_one("#ap-advice", Static)
        widget.update(text)
        widget.set_class(not self.advice, "hidden")

    def show_reason(self, reason: str) -> None:
        widget = self.query_one("#ap-reason", Static)
        widget.update(Text(reason))
        widget.set_class(not reason, "hidden")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = event.option_index
        if 0 <= index < len(self.options):
            key, _, leaf = self.options[index]
            self._select(key, leaf)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._announce_highlight(event.option_id)

    def on_amount_box_submitted(self, event: AmountBox.Submitted) -> None:
        event.stop()
        self.submit_amount(event.value)

    def submit_amount(self, value: int | None) -> None:
        if value is None:
            self.show_reason("Type an amount first: the field is empty.")
            return
        if self.prompt is not None and self.prompt.amount is not None and self.ui is not None:
            self.post_message(self.Chosen(self.ui.amount_action(self.prompt, value)))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        box = self.query_one(AmountBox)
        if event.button.id == "ap-minus":
            box.action_change(-1)
        elif event.button.id == "ap-plus":
            box.action_change(1)
        elif event.button.id == "ap-ok":
            self.submit_amount(box.value)
