"""The footer: the keys that work now, drawn as one line of text.

Textual's ``Footer`` is a row of widgets, one a key, removed and mounted again
whenever the bindings change: after most actions in a game and on every change
of focus. Each rebuild lays out the whole screen again, and a move of focus
with Tab cost a hundred milliseconds, most of it the footer. ``KeyFooter`` is a
single widget of one line: when the keys change it paints that line again,
nothing else moves, and when they are the same it does nothing at all.

It looks like Textual's footer (the same theme colours, the command palette's
key at the right end) and answers a click on a key as that footer does.

A line too short for every key keeps the ones that matter most: the palette's
key goes short first (``^p`` without its word), then keys are left out, the
least important first, the rest staying in the order bound. A screen names its
most important actions, most important first, in ``FOOTER_KEEP``; an action it
does not name counts least, and of two alike the one further right goes first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widget import Widget


@dataclass(frozen=True)
class Hint:
    key: str  # the key pressed for it ("ctrl+p")
    display: str  # the key as shown ("^p")
    description: str
    enabled: bool
    action: str = ""  # the action's name, without its arguments ("hotkey", "app.quit")

    @property
    def width(self) -> int:
        """Its cells on the line: `` key description ``."""
        return len(self.display) + 2 + (len(self.description) + 1 if self.description else 0)


def action_name(action: str) -> str:
    """An action without its arguments: ``hotkey('e')`` is ``hotkey``."""
    return action.partition("(")[0].strip()


def keep_order(hints: tuple[Hint, ...], keep: tuple[str, ...]) -> list[Hint]:
    """``hints``, least important first: the order in which a short line leaves them out.

    Named in ``keep`` counts by its place there (first is most important); not named
    counts least; a key that does nothing now (dimmed) less still; of two alike, the
    one further right is left out first.
    """
    def rank(index: int) -> tuple[int, int]:
        hint = hints[index]
        place = keep.index(hint.action) if hint.action in keep else len(keep)
        return (place + (0 if hint.enabled else len(keep) + 1), index)

    return [hints[i] for i in sorted(range(len(hints)), key=rank, reverse=True)]


def fitting(hints: tuple[Hint, ...], keep: tuple[str, ...], room: int) -> tuple[Hint, ...]:
    """The hints that fit in ``room`` cells, the least important left out first."""
    shown = list(hints)
    used = sum(h.width for h in shown)
    for hint in keep_order(hints, keep):
        if used <= room:
            break
        shown.remove(hint)
        used -= hint.width
    return tuple(shown)


class KeyFooter(Widget, can_focus=False):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-footer--key", "key-footer--description", "key-footer--palette"}
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        text-overflow: clip;
        .key-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .key-footer--palette {
            color: $foreground 20%;
        }
    }
    """

    def __init__(self, *, show_command_palette: bool = True, **kwargs: Any) -> None:
        kwargs.pop("relabel", None)  # accepted for the screens that still pass it
        super().__init__(**kwargs)
        self.show_command_palette = show_command_palette
        self._drawn: tuple[tuple[Hint, ...], Hint | None] | None = None
        self._spans: list[tuple[int, int, Hint]] = []  # where each key is on the line

    # ------------------------------------------------------------ what it shows
    def hints(self) -> tuple[tuple[Hint, ...], Hint | None]:
        """The keys shown now (one per action, in the order bound), and the palette's key."""
        active = self.screen.active_bindings
        keys: list[Hint] = []
        actions: set[str] = set()
        for _, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in actions:
                actions.add(binding.action)
                keys.append(Hint(binding.key, self.app.get_key_display(binding),
                                 binding.description, enabled, action_name(binding.action)))
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            entry = active.get(self.app.COMMAND_PALETTE_BINDING)
            if entry is not None:
                _, binding, enabled, _tooltip = entry
                palette = Hint(binding.key, self.app.get_key_display(binding),
                               binding.description, enabled)
        return tuple(keys), palette

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Any) -> None:
        if self.is_attached and screen is self.screen:
            self.sync()

    def sync(self) -> None:
        """Paint the line again if the keys that work have changed (a screen may call
        this as soon as it knows, so that the footer changes in the same frame)."""
        if self._drawn is not None and self.hints() != self._drawn:
            self.refresh()  # one line painted again; its size never changes

    # ------------------------------------------------------------ drawing
    def shown(self) -> tuple[tuple[Hint, ...], str | None]:
        """The keys that fit on the line, and the palette's tail as drawn (None: no palette)."""
        keys, palette = self._drawn = self.hints()
        width = self.size.width
        tail = None
        if palette is not None:
            tail = f"▏{palette.display} {palette.description} "
            if width and sum(h.width for h in keys) + len(tail) > width:
                tail = f"▏{palette.display} "  # short before any key is left out
        if not width:
            return keys, tail
        keep = tuple(getattr(self.screen, "FOOTER_KEEP", ()))
        return fitting(keys, keep, width - len(tail or "")), tail

    def text(self) -> str:
        """The line as plain text (what a player reads)."""
        return self.render().plain

    def render(self) -> Text:
        keys, tail_text = self.shown()
        palette = self._drawn[1] if self._drawn is not None else None
        key_style = self.get_component_rich_style("key-footer--key")
        text_style = self.get_component_rich_style("key-footer--description")
        dim = Style(dim=True)
        line = Text(no_wrap=True, overflow="crop", end="")
        spans: list[tuple[int, int, Hint]] = []
        for hint in keys:
            start = len(line)
            line.append(f" {hint.display} ", key_style if hint.enabled else key_style + dim)
            if hint.description:
                line.append(f"{hint.description} ", text_style if hint.enabled else text_style + dim)
            spans.append((start, len(line), hint))
        if palette is not None and tail_text is not None:
            # Docked at the right end, over the last keys if the line is too short.
            short = tail_text == f"▏{palette.display} "
            tail = Text.assemble(("▏", self.get_component_rich_style("key-footer--palette")),
                                 (palette.display, key_style),
                                 ("" if short else f" {palette.description}", text_style), " ")
            width = self.size.width or len(line) + len(tail)
            room = max(0, width - len(tail))
            if len(line) > room:
                line.truncate(room)
                spans = [(a, min(b, room), h) for a, b, h in spans if a < room]
            line.append(" " * (room - len(line)))
            spans.append((len(line), len(line) + len(tail), palette))
            line.append_text(tail)
        self._spans = spans
        return line

    def on_click(self, event: events.Click) -> None:
        for start, end, hint in self._spans:
            if start <= event.x < end:
                event.stop()
                if hint.enabled:
                    self.app.simulate_key(hint.key)
                else:
                    self.app.bell()
                return
