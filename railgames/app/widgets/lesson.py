"""The tutorial's lesson, under the game: what to do now and why, in a line or two.

Shown only for a tutorial's table (its ``lesson``, see railgames/tables/coached.py).
On a short terminal (80x24) it keeps to ``SHORT_ROWS`` rows beside the map and the
choices; a taller one also shows the full explanation of the rule that matters most.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from railgames.tables.coached import Lesson

SHORT_ROWS = 3
ROOMY_ROWS = 5  # a taller screen: the full explanation of the rule that matters now


class LessonPanel(Static):
    DEFAULT_CSS = """
    LessonPanel { height: auto; max-height: 6; padding: 0 1; background: $boost;
                  border-top: solid $accent; color: $text; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.lesson: Lesson | None = None
        self.roomy = False

    def show(self, lesson: Lesson, roomy: bool) -> None:
        if lesson == self.lesson and roomy == self.roomy:
            return
        self.lesson, self.roomy = lesson, roomy
        self.styles.max_height = ROOMY_ROWS + 1 if roomy else SHORT_ROWS + 1  # the border and the text
        text = Text()
        head = f"Rules {lesson.taught}/{lesson.rules} · "
        text.append(head, style="bold")
        text.append(" ".join(lesson.lines))
        if roomy:
            for line in lesson.more[:1]:
                text.append("\n" + line, style="italic")
        self.update(text)
