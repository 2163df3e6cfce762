"""A Static that repaints only when what it shows changes.

``Static.update`` repaints the widget and lays out the whole screen again (a
line under the board may have grown a row). On every cursor move and every
action that is most of the time the app spends, and a layout that moves a
panel repaints everything below it. ``QuietStatic.update`` does nothing when
the content is what it shows already, and asks for a layout only when the
widget's size may change: its width follows its content, or the new content
is taller or shorter than the old. A Rich renderable such as a table is drawn
once per width (``RenderOnce``) and compared by its lines: a table drawn the
same as the one on screen changes nothing. A table or group made again from the
same values (``structure``) is not even drawn.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from railgames import compat
from railgames.app.widgets.render_once import RenderOnce, structure

_COMPARABLE = (str, Text, Content)


class QuietStatic(Static):
    def __init__(self, content: Any = "", **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._shown: Any = content
        self._shown_structure: Any = None  # of the table or group shown (see structure)

    def update(self, content: Any = "", *, layout: bool | None = None) -> None:
        shown = self._shown
        if (isinstance(content, _COMPARABLE) and type(content) is type(shown)
                and content == shown):
            return
        built = None
        if not isinstance(content, (*_COMPARABLE, RenderOnce)) and hasattr(
                content, "__rich_console__"):
            # A table or group made again from the same values is not drawn at all.
            built = structure(content)
            if built is not None and built == self._shown_structure:
                return
            content = RenderOnce(content)
        if isinstance(content, RenderOnce) and isinstance(shown, RenderOnce) and self._same_lines(
                content, shown):
            return
        self._shown = content
        self._shown_structure = built
        if layout is not None or not self.is_mounted:
            super().update(content, layout=True if layout is None else layout)
            return
        super().update(content, layout=False)
        if self._size_may_change():
            self.refresh(layout=True)

    def _same_lines(self, new: RenderOnce, old: RenderOnce) -> bool:
        width = self.content_size.width
        if not width or not self.is_mounted:
            return False
        console = self.app.console
        options = self.app.console_options.update_width(width).update(highlight=False)
        return new.lines(console, options) == old.lines(console, options)

    def _size_may_change(self) -> bool:
        if not all(node.display for node in self.ancestors_with_self if hasattr(node, "display")):
            return False  # hidden, or in a hidden panel: laid out afresh when it shows again
        size = self.content_size
        if not size.width:
            return True  # not laid out yet
        styles = self.styles
        width = styles.width
        if width is not None and width.is_auto:
            return True
        height = styles.height
        if height is not None and not height.is_auto:
            return False  # a fixed or shared height: the content does not decide it
        shown = self._shown
        if isinstance(shown, RenderOnce):  # its lines at this width are drawn already
            console = self.app.console
            options = self.app.console_options.update_width(size.width).update(highlight=False)
            return len(shown.lines(console, options)) != size.height
        return compat.widget_visual(self).get_height(styles, size.width) != size.height
