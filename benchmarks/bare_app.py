"""The reference the app's key timings are judged against: a bare Textual app of the same shape.

What a plain Textual app does with the same keys, written the ordinary way and
with none of railgames' own drawing work (no frame filter, no layout patches,
no caches): a status line, a map drawn line by line (Textual's Line API) that
fills the rest of the screen beside a side panel (a ``Static``) over a
``RichLog``, and a ``Footer``.

* An arrow key (or h/j/k/l) moves the map's cursor one cell: only the two lines
  it leaves and enters are refreshed, and the status line says where it is now.
* Enter "plays" the cell under the cursor: the side panel is rewritten
  (``Static.update``: a table of three players whose figures change, and the
  choices on offer) and the log gets one line.

Run it in a terminal to look at it (q quits):

    python benchmarks/bare_app.py

benchmarks/key_ratio.py runs it in a pseudo-terminal beside the whole app.
"""

from __future__ import annotations

from rich.console import Group
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

CELL = 4  # columns per cell of the map
GROUND = Style(color="rgb(90,110,90)", bgcolor="rgb(20,28,20)")
TOWN = Style(color="rgb(240,220,120)", bgcolor="rgb(20,28,20)", bold=True)
TRACK = Style(color="rgb(200,120,80)", bgcolor="rgb(20,28,20)")
CURSOR = Style(color="black", bgcolor="rgb(250,250,250)", bold=True)
NAMES = ("Ann", "Bob", "Cat")


def cell_text(col: int, row: int) -> tuple[str, Style]:
    """What a cell of the map shows: a town, a piece of track or open ground."""
    if (col * 7 + row * 3) % 11 == 0:
        return f"T{(col + row) % 10:<2} ", TOWN
    if (col + 2 * row) % 5 == 0:
        return "=== ", TRACK
    return " .  ", GROUND


class Grid(Widget, can_focus=True):
    """The map: as many cells as fit, drawn a line at a time; the cursor is one cell."""

    DEFAULT_CSS = "Grid { width: 1fr; height: 1fr; }"
    BINDINGS = [
        Binding("left,h", "move(-1, 0)", "Left", show=False),
        Binding("right,l", "move(1, 0)", "Right", show=False),
        Binding("up,k", "move(0, -1)", "Up", show=False),
        Binding("down,j", "move(0, 1)", "Down", show=False),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.cursor = (2, 2)

    @property
    def cells(self) -> tuple[int, int]:
        return max(1, self.size.width // CELL), max(1, self.size.height)

    def render_line(self, y: int) -> Strip:
        cols, _ = self.cells
        segments = []
        for col in range(cols):
            text, style = cell_text(col, y)
            if (col, y) == self.cursor:
                style = CURSOR
            segments.append(Segment(text, style))
        width = self.size.width
        return Strip(segments, cols * CELL).extend_cell_length(width, GROUND)

    def action_move(self, dx: int, dy: int) -> None:
        cols, rows = self.cells
        x, y = self.cursor
        new = (min(cols - 1, max(0, x + dx)), min(rows - 1, max(0, y + dy)))
        if new == self.cursor:
            return
        self.cursor = new
        width = self.size.width
        # Only the lines the cursor leaves and enters are drawn again.
        self.refresh(Region(0, y, width, 1), Region(0, new[1], width, 1))
        self.app.query_one("#status", Static).update(
            f" Bare app · cursor at column {new[0] + 1}, row {new[1] + 1} · "
            f"{cell_text(*new)[0].strip() or 'open ground'}")


class BareApp(App[None]):
    CSS = """
    #status { height: 1; background: $primary-background; }
    #side { width: 38; }
    #panel { height: auto; border: round $secondary; }
    #log { height: 1fr; border: round $secondary; }
    """
    BINDINGS = [Binding("enter", "play", "Play"), Binding("q", "quit", "Quit")]

    def __init__(self) -> None:
        super().__init__()
        self.played = 0

    def compose(self) -> ComposeResult:
        yield Static(" Bare app · cursor at column 3, row 3", id="status")
        with Horizontal():
            yield Grid(id="grid")
            with Vertical(id="side"):
                yield Static(self.panel(), id="panel")
                yield RichLog(id="log", wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Grid).focus()

    def panel(self) -> Group:
        """Three players' figures, which change with every move, and the choices on offer."""
        n = self.played
        table = Table(box=None, expand=True, pad_edge=False)
        for column in ("Player", "Cash", "Income", "Points"):
            table.add_column(column, justify="left" if column == "Player" else "right")
        for seat, name in enumerate(NAMES):
            table.add_row(name, f"${40 + (n * 7 + seat * 13) % 90}", f"{(n + seat) % 12}",
                          f"{n * (seat + 1) % 57}", style="bold" if seat == n % 3 else "")
        choices = [Text(f"{'>' if k == 0 else ' '} build to T{(n + k) % 10} for "
                        f"${(n + k * 5) % 30 + 2}", style="reverse" if k == 0 else "")
                   for k in range(4)]
        return Group(table, Text(f"Move {n + 1}: {NAMES[n % 3]} to play"), *choices)

    def action_play(self) -> None:
        self.played += 1
        x, y = self.query_one(Grid).cursor
        self.query_one("#panel", Static).update(self.panel())
        self.query_one("#log", RichLog).write(
            f"Move {self.played}: {NAMES[(self.played - 1) % 3]} plays column {x + 1}, row {y + 1}")


if __name__ == "__main__":
    BareApp().run()
