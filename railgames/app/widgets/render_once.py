"""A Rich renderable drawn once per width, for slow renderables such as tables.

A Static showing a Rich ``Table`` draws it twice each time it changes (once to
measure its height, once to paint it), and a table is the slowest thing on the
game screen to draw. ``RenderOnce`` keeps the lines of the first drawing for
each width. It is meant for renderables whose lines depend on the width only,
not on the height they are given: tables, texts and groups of them.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment


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
