"""One layout, one frame: two changes to how Textual settles sizes, for the game screen.

Textual lays the screen out, then tells each widget its new size. A widget whose
scrollable ("virtual") size changed asks for a second layout, and an option list
works its scrollable size out only when it is drawn, in the middle of a frame, and
asks for a layout then too. Each of those layouts is another frame, written to the
terminal 15–30 ms after the first: an action that changes the list of choices took
three frames. Over a slow link every frame shows.

* A widget's new scrollable size no longer asks for another layout by itself. The
  layout that measured it has placed every widget already; what the scrollable
  size changes is whether a scroll bar shows, and a scroll bar that comes or goes
  still asks for its layout, as before.
* ``ChoiceList`` is an option list that, asked for a layout while it is being
  drawn, drops the request unless a scroll bar came or went.

* A scroll bar that comes or goes while widgets are told their sizes (a list
  given more choices than it has lines) is laid out at once, and the frame is
  drawn after that: before, the list showed without its bar, and the bar came in a
  frame of its own 25-40 ms later, the slow tail of most Enters at 80x24.

* A scroll bar is painted again when what it shows changes (its window, its
  position, its size), not every time the widget it scrolls changes size.

``install()`` makes the first and last two changes (they reach into Textual, so they
are in railgames/compat.py, with the list's own side); the app calls it once.
"""

from __future__ import annotations

from textual.css.scalar import Unit
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from railgames import compat


def install() -> None:
    compat.settle_layouts()


class ChoiceList(compat.ChoiceListParts, OptionList):
    """An option list whose drawing never asks for a layout a scroll bar does not need.

    New options are counted at once, against the list's old height: nine new
    choices in a list still sized for four would show a scroll bar, and the layout
    that gives the list its nine lines would take it away again, a frame each.
    While a layout is on its way the scroll bars wait for it to size the list.
    """

    def replace_options(self, options: list[Option]) -> None:
        """The list's options, all replaced; the screen is laid out again only if the
        list's height changes (or is not known to stay the same).

        An option list asks for a layout whenever its options change, and a layout of
        the whole screen is a good part of an action's time. A list whose height is
        set, or is as many lines as it has choices up to a set most (ten, or four
        on a short screen), keeps its height when the new choices need as many lines,
        or, both old and new, more than that most.
        """
        asked = compat.layout_pending(self)  # (something else may want a layout already)
        before = self._box_height(self.virtual_size.height)
        height = self.region.height
        if options:  # (emptied first, a list would lose its scroll bar and get it back)
            self.set_options(options)
        else:
            self.clear_options()
        self.options_replaced(asked, before, height, self._box_height)

    def _box_height(self, lines: int) -> int | None:
        """The height the layout gives the list for ``lines`` lines of options, when it
        can be told without a layout (None otherwise)."""
        styles = self.styles
        width, height = styles.width, styles.height
        if width is None or width.is_auto or height is None:
            return None
        if not height.is_auto:
            # Not the options' to decide (a share of the panel): the same whatever they are.
            return self.region.height
        box = lines + styles.gutter.height + self.scrollbar_size_horizontal
        low, high = styles.min_height, styles.max_height
        if low is not None:
            if low.unit is not Unit.CELLS:
                return None
            box = max(box, int(low.value))
        if high is not None:
            if high.unit is not Unit.CELLS:
                return None
            box = min(box, int(high.value))
        return box
