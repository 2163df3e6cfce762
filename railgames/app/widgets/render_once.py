"""A Rich renderable drawn once per width, for slow renderables such as tables.

A Static showing a Rich ``Table`` draws it twice each time it changes (once to
measure its height, once to paint it), and a table is the slowest thing on the
game screen to draw. ``RenderOnce`` keeps the lines of the first drawing for
each width. It is meant for renderables whose lines depend on the width only,
not on the height they are given: tables, texts and groups of them.
"""

from __future__ import annotations

from typing import Any

from rich.box import Box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Column, Row, Table
from rich.text import Span, Text

from railgames.compat import group_renderables


class RenderOnce:
    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable
        self._lines: dict[tuple[Any, ...], list[list[Segment]]] = {}

    @staticmethod
    def _key(options: ConsoleOptions) -> tuple[Any, ...]:
        return (options.max_width, options.min_width, options.justify, options.overflow,
                options.no_wrap, options.highlight, options.markup, options.ascii_only,
                options.encoding, options.legacy_windows, options.size)

    def lines(self, console: Console, options: ConsoleOptions) -> list[list[Segment]]:
        options = options.update(height=None)
        key = self._key(options)
        lines = self._lines.get(key)
        if lines is None:
            lines = self._lines[key] = console.render_lines(self.renderable, options, pad=False)
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines(console, options):
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.renderable)


class _Unknown(Exception):
    pass


_LEAVES = (str, int, float, bool, type(None), Style)
_BY_FIELDS = (Table, Column, Row, Text)


def structure(renderable: Any) -> Any:
    """Everything a group, table or text is drawn from, as one comparable value (None
    for anything else): two renderables of the same structure are drawn the same.

    (Text's own == compares the characters and spans only, not its base style,
    justification or overflow.)
    """
    try:
        return _structure(renderable, 0)
    except _Unknown:
        return None


def _structure(obj: Any, depth: int) -> Any:
    if isinstance(obj, _LEAVES) or isinstance(obj, Box):  # (a box is a shared constant)
        return obj
    if depth > 12:
        raise _Unknown
    depth += 1
    if isinstance(obj, (list, tuple)) and type(obj) in (list, tuple, Span):
        return (type(obj), tuple(_structure(item, depth) for item in obj))
    if type(obj) is Group:  # (its _render is only a copy of its renderables, made once drawn)
        return (Group, obj.fit, _structure(group_renderables(obj), depth))
    if type(obj) in _BY_FIELDS:
        return (type(obj), tuple((name, _structure(value, depth))
                                 for name, value in _fields(obj)))
    raise _Unknown


def _fields(obj: Any) -> list[tuple[str, Any]]:
    if hasattr(obj, "__dict__"):
        return list(vars(obj).items())
    return [(name, getattr(obj, name)) for name in type(obj).__slots__]
