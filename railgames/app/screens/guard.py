"""Below the smallest terminal a screen works in, it says so in one line instead.

``SizeGuard`` goes first among a screen's bases. While the terminal is smaller than
the screen's ``MIN_SIZE`` the screen's widgets are hidden (class ``too-small``, see
app.tcss), its background shows the one line, and its keys rest except the ones
that leave (quitting, closing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.align import Align
from rich.text import Text
from textual import events
from textual.geometry import Size

# The look of every screen but the launcher: its rules load with the first such screen,
# not before the app's first frame (the launcher's are in launcher.tcss, the app's own).
SCREENS_CSS = str(Path(__file__).resolve().parent.parent / "app.tcss")

# Actions that still work on a screen too small to show itself: the ways out.
WAYS_OUT = frozenset({"quit", "quit_game", "close", "dismiss_none", "launcher"})


def too_small_line(minimum: tuple[int, int], size: Size) -> str:
    return (f"Make the terminal at least {minimum[0]}×{minimum[1]} "
            f"(it is {size.width}×{size.height} now).")


class SizeGuard:
    CSS_PATH: ClassVar[str | None] = SCREENS_CSS
    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 20)
    too_small: bool = False
    _focus_kept: Any = None

    def _guard_size(self, size: Size) -> None:
        width, height = self.MIN_SIZE
        small = size.width < width or size.height < height
        screen: Any = self
        if small != self.too_small:
            self.too_small = small
            screen.set_class(small, "too-small")
            if small:  # no keys reach a widget that cannot be seen
                self._focus_kept = screen.focused
                super().set_focus(None)  # type: ignore[misc]
            elif self._focus_kept is not None and self._focus_kept.is_attached:
                screen.set_focus(self._focus_kept)
                self._focus_kept = None
            screen.refresh_bindings()
        if small:
            screen.refresh()

    def set_focus(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        if self.too_small and widget is not None:
            self._focus_kept = widget  # focused once the screen can be seen again
            return
        super().set_focus(widget, *args, **kwargs)  # type: ignore[misc]

    def on_resize(self, event: events.Resize) -> None:
        self._guard_size(event.size)

    def on_screen_resume(self) -> None:
        # A screen under another one was not told of resizes meanwhile.
        self._guard_size(self.app.size)  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        self._guard_size(self.app.size)  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.too_small and action not in WAYS_OUT:
            return False
        return True

    def render(self) -> Any:
        screen: Any = self
        if self.too_small:
            text = Text(too_small_line(self.MIN_SIZE, screen.app.size), style="bold",
                        justify="center")
            return Align.center(text, vertical="middle")
        return super().render()  # type: ignore[misc]
