"""A number chooser: type digits, or step with +/- (and the arrow keys), Enter to submit.

Typed numbers are not clamped: the rules layer decides, and its reason is shown
when it refuses.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class AmountBox(Widget, can_focus=True):
    DEFAULT_CSS = """
    AmountBox { height: 1; width: 1fr; min-width: 16; }
    AmountBox:focus { text-style: bold; background: $boost; }
    """

    BINDINGS = [
        Binding("plus,equals_sign,up,right", "change(1)", "More", show=False),
        Binding("minus,underscore,down,left", "change(-1)", "Less", show=False),
        Binding("pageup", "change(10)", "Much more", show=False),
        Binding("pagedown", "change(-10)", "Much less", show=False),
        Binding("enter", "submit", "Submit", show=False),
        Binding("backspace", "erase", "Erase", show=False),
    ]

    value: reactive[int] = reactive(0)

    class Submitted(Message):
        def __init__(self, value: int) -> None:
            super().__init__()
            self.value = value

    class Changed(Message):
        def __init__(self, value: int) -> None:
            super().__init__()
            self.value = value

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = "Amount"
        self.low = 0
        self.high = 0
        self.step = 1
        self.unit = "$"
        self._typed = ""

    def configure(self, label: str, low: int, high: int, step: int, default: int | None,
                  unit: str = "$") -> None:
        self.label, self.low, self.high, self.step, self.unit = label, low, high, step, unit
        self._typed = ""
        self.value = default if default is not None else low
        self.refresh()

    def render(self) -> Text:
        money = self.unit == "$"
        sign = "$" if money else ""
        text = Text()
        text.append(f"{self.label}: ", style="bold")
        text.append(f" {sign}{self.value} ", style="reverse bold")
        if self._typed:
            text.append("▏", style="bold")
        if self.high >= self.low:
            unit = "" if money else f" {self.unit}"
            text.append(f"  ({sign}{self.low}–{sign}{self.high}{unit}", style="dim")
            text.append(f", steps of {sign}{self.step})" if self.step != 1 else ")", style="dim")
        return text

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            event.stop()
            event.prevent_default()
            self._typed = (self._typed + event.character)[-4:]
            self.value = int(self._typed)
            self.post_message(self.Changed(self.value))

    def action_change(self, times: int) -> None:
        self._typed = ""
        new = self.value + times * self.step
        if self.high >= self.low:
            new = max(self.low, min(self.high, new))
        self.value = new
        self.post_message(self.Changed(self.value))

    def action_erase(self) -> None:
        self._typed = self._typed[:-1]
        self.value = int(self._typed) if self._typed else self.low
        self.refresh()

    def action_submit(self) -> None:
        self._typed = ""
        self.post_message(self.Submitted(self.value))

    def watch_value(self) -> None:
        self.refresh()
