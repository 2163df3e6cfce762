"""A number chooser: type digits, or step with +/- (and the arrow keys), Enter to submit.

The field holds exactly the digits on screen, and Enter submits exactly them:
a refused number stays in the field, Backspace takes off its last digit, and an
empty field submits nothing. Typed numbers are not clamped: the rules layer
decides, and its reason is shown when it refuses.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

# Digits the field holds: far beyond any amount a game can reach, and short
# enough to stay on one line.
MAX_DIGITS = 9
DIGITS = frozenset("0123456789")  # str.isdigit() would also let "²" through


def grouped(digits: str) -> str:
    """The digits in the field as every amount is written elsewhere: in groups of three
    ("1,000"); nothing when the field is empty."""
    return f"{int(digits):,}" if digits else ""


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

    # The digits in the field, as shown.
    text: reactive[str] = reactive("")

    class Submitted(Message):
        """Enter: ``value`` is the number in the field, or None when the field is empty."""

        def __init__(self, value: int | None) -> None:
            super().__init__()
            self.value = value

    class Changed(Message):
        def __init__(self, value: int | None) -> None:
            super().__init__()
            self.value = value

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = "Amount"
        self.low = 0
        self.high: int | None = 0
        self.step = 1
        self.unit = "$"
        # True while the field shows a number the player did not type (the default or a
        # +/- step): the first digit typed replaces it rather than adding to it.
        self._offered = True

    @property
    def value(self) -> int | None:
        return int(self.text) if self.text else None

    def configure(self, label: str, low: int, high: int | None, step: int, default: int | None,
                  unit: str = "$") -> None:
        self.label, self.low, self.high, self.step, self.unit = label, low, high, step, unit
        self._offered = True
        self.text = str(default if default is not None else low)
        self.refresh()

    def render(self) -> Text:
        money = self.unit == "$"
        sign = "$" if money else ""
        text = Text()
        text.append(f"{self.label}: ", style="bold")
        text.append(f" {sign}{grouped(self.text)} ", style="reverse bold")
        if not self._offered:
            text.append("▏", style="bold")
        # The range goes after the number if it fits on that line, else whole on a line
        # of its own below (never wrapped into the buttons beside the field), shortened
        # only if even that line is too narrow.
        room = self.content_region.width if self.is_mounted else 0
        hints = self._range_hints(sign, "" if money else f" {self.unit}")
        if not room or text.cell_len + len("".join(hints[0])) <= room:
            for part in hints[0]:
                text.append(part, style="dim")
            return text
        for hint in hints:
            line = "".join(hint).strip()
            if len(line) <= room:
                if line:
                    text.append("\n" + line, style="dim")
                break
        return text

    def _range_hints(self, sign: str, unit: str) -> list[tuple[str, ...]]:
        """What the field says of its range, in parts, from the whole of it to nothing."""
        low = f"{sign}{self.low:,}"
        if self.high is None:
            span = f"  (≥{low}{unit}"
        elif self.high >= self.low:
            span = f"  ({low}–{sign}{self.high:,}{unit}"
        else:
            return [()]
        if self.step == 1:
            return [(span, ")"), ()]
        step = f"{sign}{self.step:,}"
        return [(span, f", steps of {step})"), (span, f", by {step})"), (span, ")"), ()]

    def on_key(self, event: events.Key) -> None:
        if event.character in DIGITS:
            event.stop()
            event.prevent_default()
            self._type(event.character)

    def on_paste(self, event: events.Paste) -> None:
        # A terminal hands a paste over whole, not as keys: its digits are typed in
        # order, as if each had been pressed (anything else in it is left out).
        event.stop()
        for character in event.text:
            if character in DIGITS:
                self._type(character)

    def _type(self, digit: str) -> None:
        typed = digit if self._offered else self.text + digit
        if len(typed) > MAX_DIGITS:
            return
        self._offered = False
        self.text = typed.lstrip("0") or "0"
        self.post_message(self.Changed(self.value))

    def action_change(self, times: int) -> None:
        current = self.value
        new = self.low if current is None else max(self.low, current + times * self.step)
        if self.high is not None and self.high >= self.low:
            new = min(self.high, new)
        self._offered = True
        self.text = str(new)
        self.post_message(self.Changed(self.value))

    def action_erase(self) -> None:
        self._offered = False
        self.text = self.text[:-1]
        self.refresh()
        self.post_message(self.Changed(self.value))

    def action_submit(self) -> None:
        # The field keeps its number: if the rules refuse it, the player sees what was refused.
        self.post_message(self.Submitted(self.value))

    def watch_text(self) -> None:
        self.refresh()
