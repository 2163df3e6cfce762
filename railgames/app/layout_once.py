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

``install()`` makes the first and last two changes; the app calls it once.
"""

from __future__ import annotations

import weakref
from typing import Any

from textual import events
from textual.css.scalar import Unit
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    _installed = True
    size_updated = Widget._size_updated

    def _size_updated(self: Widget, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        return size_updated(self, size, virtual_size, container_size, layout=False)

    Widget._size_updated = _size_updated  # type: ignore[method-assign]

    refresh_scrollbars = Widget._refresh_scrollbars

    def _refresh_scrollbars(self: Widget) -> None:
        before = self.show_vertical_scrollbar, self.show_horizontal_scrollbar
        refresh_scrollbars(self)
        if _laying_out and before != (self.show_vertical_scrollbar, self.show_horizontal_scrollbar):
            _bars_changed.add(self)

    Widget._refresh_scrollbars = _refresh_scrollbars  # type: ignore[method-assign]

    widget_refresh = Widget.refresh

    def refresh(self: Widget, *regions: Any, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Widget:
        if repaint:
            if len(_repainted) > 4096:
                _repainted.clear()
            _repainted.add(self)
        return widget_refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

    Widget.refresh = refresh  # type: ignore[method-assign]

    refresh_layout = Screen._refresh_layout

    def _refresh_layout(self: Screen[Any], size: Size | None = None, scroll: bool = False) -> None:
        global _laying_out
        if self.app._batch_count or not self.is_current or _laying_out:
            refresh_layout(self, size, scroll)
            return
        # The frame is drawn once the layout has settled: a scroll bar that came or
        # went as widgets were told their sizes is laid out at once, not a frame later.
        _bars_changed.clear()
        _laying_out = True
        self._compositor_refresh = _nothing  # type: ignore[method-assign]
        try:
            refresh_layout(self, size, scroll)
            for _ in range(SETTLE_LAYOUTS):
                if not _bars_changed:
                    break
                for widget in _bars_changed:
                    widget._layout_required = False  # laid out here, not at the next idle
                    for ancestor in widget.ancestors:
                        if not isinstance(ancestor, Widget):
                            break
                        ancestor._clear_arrangement_cache()
                        if not ancestor.styles.auto_dimensions:
                            break
                _bars_changed.clear()
                refresh_layout(self, size, False)
        finally:
            _laying_out = False
            _bars_changed.clear()
            del self._compositor_refresh
        # Widgets painted again since their screen last heard of it (the footer whose
        # keys changed as the action was taken) are in this frame too, not the next.
        visible = self._compositor.visible_widgets
        pending = {widget for widget in _repainted if widget in visible}
        _repainted.clear()
        if pending:
            self._compositor.update_widgets(pending)
        self._compositor_refresh()

    Screen._refresh_layout = _refresh_layout  # type: ignore[method-assign]

    def _scroll_update(self: Widget, virtual_size: Size) -> None:
        # As Textual's, less its repaint of both scroll bars whenever the widget's size
        # changes: a bar is painted again when its window or position changes (they are
        # reactive) or it is resized, and is otherwise drawn the same. (A board whose
        # height follows the panels beside it drew its horizontal bar again every action.)
        # Until a bar has been repainted here once mounted, it still is every time: what
        # changed before it was mounted did not mark its drawing out of date.
        self._refresh_scrollbars()
        width, height = self.container_size
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            bar = self.vertical_scrollbar
            bar.window_virtual_size = virtual_size.height
            bar.window_size = height - self.scrollbar_size_horizontal
            _repaint_until_mounted(bar)
        if self.show_horizontal_scrollbar and self.styles.scrollbar_size_horizontal:
            bar = self.horizontal_scrollbar
            bar.window_virtual_size = virtual_size.width
            bar.window_size = width - self.scrollbar_size_vertical
            _repaint_until_mounted(bar)
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)

    Widget._scroll_update = _scroll_update  # type: ignore[method-assign]


SETTLE_LAYOUTS = 2  # layouts at most after the first, for scroll bars that came or went
_laying_out = False
_bars_changed: set[Widget] = set()
_repainted: set[Widget] = set()  # widgets asked to paint again, until the next layout


def _nothing() -> None:
    pass


_painted_mounted: weakref.WeakSet[Widget] = weakref.WeakSet()  # scroll bars repainted once mounted


def _repaint_until_mounted(bar: Widget) -> None:
    if bar not in _painted_mounted:
        bar.refresh()
        if bar.is_mounted:
            _painted_mounted.add(bar)


class ChoiceList(OptionList):
    """An option list whose drawing never asks for a layout a scroll bar does not need.

    New options are counted at once, against the list's old height: nine new
    choices in a list still sized for four would show a scroll bar, and the layout
    that gives the list its nine lines would take it away again, a frame each.
    While a layout is on its way the scroll bars wait for it to size the list.
    """

    _drawn_width = -1  # the width the options' drawings in the cache are for

    def _on_resize(self, event: events.Resize) -> None:
        # A list only taller or shorter keeps its options' drawings (they depend on
        # the width alone); the option list's own handler would drop them and paint
        # the list again a frame later.
        event.prevent_default()
        if event.size.width != self._drawn_width:
            self._drawn_width = event.size.width
            self._clear_caches()

    _bars_due = False  # the scroll bars are to be decided once the list is sized

    def _refresh_scrollbars(self) -> None:
        if self._layout_required:
            self._bars_due = True  # the coming layout sizes the list, then decides them
            return
        super()._refresh_scrollbars()

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        if self._bars_due:
            self._bars_due = False
            super()._refresh_scrollbars()
        return resized

    def _update_lines(self) -> None:
        wanted = self._layout_required
        super()._update_lines()  # type: ignore[misc]
        if not wanted:
            # Counted while being drawn, after a layout: the list's size is settled, and
            # a new scrollable size by itself needs no other layout. A scroll bar that
            # comes or goes does (it narrows the list), and asks for it.
            self._layout_required = False
            if self._bars_due:
                self._bars_due = False
                super()._refresh_scrollbars()

    def replace_options(self, options: list[Option]) -> None:
        """The list's options, all replaced; the screen is laid out again only if the
        list's height changes (or is not known to stay the same).

        An option list asks for a layout whenever its options change, and a layout of
        the whole screen is a good part of an action's time. A list whose height is
        set, or is as many lines as it has choices up to a set most (ten, or four
        on a short screen), keeps its height when the new choices need as many lines,
        or, both old and new, more than that most.
        """
        asked = self._layout_required  # (something else may want a layout already)
        before = self._box_height(self.virtual_size.height)
        height = self.region.height
        if options:  # (emptied first, a list would lose its scroll bar and get it back)
            self.set_options(options)
        else:
            self.clear_options()
        if asked or not self._layout_required or before is None or before != height:
            return
        if not self.scrollable_content_region or self._box_height(
                self.virtual_size.height) != height:
            return
        self._layout_required = False  # the layout would change nothing
        if self._bars_due:  # the list keeps its size: its bars are decided now
            self._bars_due = False
            super()._refresh_scrollbars()

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
