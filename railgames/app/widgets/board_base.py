"""What every game's map board shares: a cursor, the ``board`` messages, cached rows.

A board is a ScrollView drawn with the Line API. Its cursor sits on one city
(or hex), named by a string id; the arrow keys and hjkl move it, Enter or a
click chooses. Moving it tells the ``cursor_listeners`` and posts
``CursorMoved``; choosing posts ``CityChosen``. Both messages are in the
``board`` namespace, so one pair of handlers, ``on_board_city_chosen`` and
``on_board_cursor_moved``, serves every board.

The board keeps its cells as rows: ``_scene`` without the cursor, ``_rows`` as
drawn, each turned into a strip once per base style. A change recomputes the
rows and refreshes only the spans that differ.

A game's board fills in ``_build_scene`` (every cell for the current state and
highlights), ``_cursor_columns`` and ``_cursor_rows`` (where the cursor is
drawn), ``city_region``, ``_city_at`` and ``action_move_cursor``, and checks a
city's id in ``move_cursor_to`` before handing it on.

``BoardPanel`` is the widget under a board that follows its cursor: it finds
the board beside it when mounted and listens to the cursor from then on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from inspect import getfile
from typing import Any, ClassVar, Protocol

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from railgames import compat

Cell = tuple[int, int]  # (column, row) on the text grid
Row = list[tuple[str, Style]]


# ------------------------------------------------------------------- styles

CURSOR = Style(reverse=True)


class StyleCache:
    """Rich styles parsed once per style string."""

    def __init__(self) -> None:
        self._parsed: dict[str, Style] = {}

    def __call__(self, text: str) -> Style:
        style = self._parsed.get(text)
        if style is None:
            style = self._parsed[text] = Style.parse(text)
        return style


STYLE = StyleCache()


def blank_safe(style: Style) -> bool:
    """Whether a blank cell drawn in ``style`` looks like a plain blank."""
    return not (style.bgcolor or style.reverse or style.underline or style.strike
                or style.overline or style.underline2)


def make_strip(cells: Row, base: Style) -> Strip:
    """One row of cells as a Strip, with as few style changes as looks the same."""
    segments: list[Segment] = []
    run: list[str] = []
    run_style: Style | None = None
    pending_spaces = 0  # leading blanks, waiting to join the first styled run
    for ch, style in cells:
        if ch == " " and blank_safe(style) and (run_style is None or blank_safe(run_style)):
            # A blank looks the same in any style without background or lines, so it
            # joins the run in progress: fewer style changes, fewer bytes on the wire.
            if run_style is None:
                pending_spaces += 1
            else:
                run.append(ch)
            continue
        if style is not run_style and style != run_style:
            if run:
                segments.append(Segment("".join(run), base + run_style))
            run, run_style = [], style
            if pending_spaces and blank_safe(style):
                run.append(" " * pending_spaces)
                pending_spaces = 0
            elif pending_spaces:
                segments.append(Segment(" " * pending_spaces, base))
                pending_spaces = 0
        run.append(ch)
    if pending_spaces:
        segments.append(Segment(" " * pending_spaces, base))
    if run:
        segments.append(Segment("".join(run), base + run_style))
    return Strip(segments, len(cells))


# ------------------------------------------------------------------- widget


class BoardLayout(Protocol):
    """What the board widget needs of a layout: the size of the text grid."""

    width: int
    height: int


class BoardMessage(Message, namespace="board"):
    """A message from a board about one of its cities; ``city`` is the city's id."""

    def __init__(self, board: BoardBase, city: str) -> None:
        super().__init__()
        self.board = board
        self.city = city

    @property
    def control(self) -> BoardBase:
        return self.board


class BoardBase(compat.RegisteredHook, compat.SizedInLayout, ScrollView, can_focus=True):
    """A map drawn as rows of cells, with a cursor on one city at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move_cursor('up')", "Cursor up", show=False),
        Binding("down,j", "move_cursor('down')", "Cursor down", show=False),
        Binding("left,h", "move_cursor('left')", "Cursor left", show=False),
        Binding("right,l", "move_cursor('right')", "Cursor right", show=False),
        Binding("enter", "choose", "Choose city"),
    ]

    # The game's rules for the screens that show its board (the game screen, the viewer):
    # how they lay out their panels for this map (``GameScreen.game-<id>`` selectors) and
    # which of the game's own panels give way on a narrow screen. They are added to the
    # app's stylesheet at the level of app.tcss (not as DEFAULT_CSS, which every rule of
    # app.tcss would override whatever its selectors), after it, once the board is first
    # registered: before anything on its screen is styled.
    SCREEN_CSS: ClassVar[str] = ""

    class CityChosen(BoardMessage, namespace="board"):
        """The player chose the city under the cursor (Enter or a click); ``city`` is its id."""

    class CursorMoved(BoardMessage, namespace="board"):
        """The board cursor moved to another city; ``city`` is its id."""

    layout_: BoardLayout

    def __init__(self, ruleset: Any, layout: BoardLayout, cursor: str,
                 *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ruleset = ruleset
        self.layout_ = layout
        self.state: Any = None
        self.highlighted: frozenset[str] = frozenset()
        self.path: tuple[str, ...] = ()
        self._cursor = cursor  # the id of the city under the cursor
        # Whether Enter chooses a place now; the screen turns it off while the decision
        # is elsewhere (a list, an amount, a bot's move).
        self.choosing = True
        # Called with the city's id whenever the cursor moves (the lines under the board).
        self.cursor_listeners: list[Callable[[str], None]] = []
        self._scene: list[Row] = []  # cells without the cursor
        self._rows: list[Row] = []  # cells as drawn
        self._strips: dict[int, Strip] = {}
        self._strip_base: Style | None = None
        self._holds = 0  # open one_scene blocks
        self._scene_due = False  # the scene is to be built as they end
        self._build_scene()
        self._rows = [self._with_cursor(r) for r in range(self.layout_.height)]
        self.virtual_size = Size(self.layout_.width, self.layout_.height)

    def registered(self, app: Any) -> None:
        cls = type(self)
        if cls.SCREEN_CSS:
            try:
                where = getfile(cls)
            except (TypeError, OSError):
                where = ""
            app.stylesheet.add_source(cls.SCREEN_CSS, read_from=(where, f"{cls.__name__}.SCREEN_CSS"),
                                      is_default_css=False)

    # ------------------------------------------------------------ public API
    @property
    def cursor_city(self) -> str:
        """The id of the city under the cursor."""
        return self._cursor

    @cursor_city.setter
    def cursor_city(self, city: str) -> None:
        self.move_cursor_to(city)

    def move_cursor_to(self, city: str, *, scroll: bool = True) -> None:
        """Put the cursor on ``city``, an id the board has checked (posts CursorMoved when it moves)."""
        if city == self._cursor:
            return
        old, self._cursor = self._cursor, city
        self._redraw_rows({*self._cursor_rows(old), *self._cursor_rows(city)})
        if scroll and self.is_mounted:
            self._keep_in_view(city)
        for listener in self.cursor_listeners:
            listener(city)
        self.post_message(self.CursorMoved(self, city))

    def _keep_in_view(self, city: str) -> None:
        # A step out of view moves the view only as far as it must, as an editor's
        # does: the terminal moves what it shows by a row or a few columns, and only
        # what comes into view is written (see screen_diff.py), where a jump to
        # centre the cursor wrote most of the board again. A city far out of view
        # (the cursor's first place, a new decision elsewhere on the map) is
        # centred: all of the view is new then anyway.
        size = self.scrollable_content_region.size
        if not size.width or not size.height:
            # Not laid out yet, or hidden (a terminal too small for the game): the size
            # it gets comes with a resize, which keeps the cursor in view then. Asking
            # again after every refresh would keep the app busy for as long as it waits.
            return
        region = self.city_region(city)
        view = Region(*self.scroll_offset, *size)
        if not view.contains_region(region):
            far = not view.overlaps(region.grow((size.height // 2, size.width // 4) * 2))
            self.scroll_to_region(region, animate=False, center=far, immediate=True)

    def resized_in_layout(self) -> None:
        if self.is_mounted:
            # As the layout gives the board its new size, before the frame is drawn:
            # the view that keeps the cursor in it is in that frame, not the next one.
            self._keep_in_view(self._cursor)

    def on_resize(self) -> None:
        # The panels beside a board grow and shrink with each decision: whatever
        # its size now, the cursor stays in view (and a board that shows whole
        # stays where it is).
        self.call_after_refresh(lambda: self._keep_in_view(self._cursor))

    def update_state(self, state: Any) -> None:
        """Show ``state``; only the rows whose content changed are repainted."""
        self.state = state
        self._scene_changed()

    def set_highlight(self, cities: Iterable[str] = (), path: Sequence[str] = ()) -> None:
        """Mark the cities the current step lets the player choose, and a path to draw."""
        cities, path = frozenset(cities), tuple(path)
        if cities == self.highlighted and path == self.path:
            return
        self.highlighted, self.path = cities, path
        self._scene_changed()

    @contextmanager
    def one_scene(self) -> Iterator[None]:
        """Within it, a new state and new highlights make one new scene between them,
        built as it ends (an action brings both: the scene was built twice)."""
        self._holds += 1
        try:
            yield
        finally:
            self._holds -= 1
            if not self._holds and self._scene_due:
                self._scene_changed()

    def _scene_changed(self) -> None:
        if self._holds:
            self._scene_due = True
            return
        self._scene_due = False
        self._build_scene()
        self._redraw_rows(range(self.layout_.height))

    def city_region(self, city: str) -> Region:
        """The cells of a city and its marks, in board (virtual) coordinates."""
        raise NotImplementedError

    def row_text(self, row: int) -> str:
        """The plain text of a board row (as drawn, ignoring scrolling)."""
        return "".join(ch for ch, _ in self._rows[row])

    def board_text(self) -> str:
        return "\n".join(self.row_text(r) for r in range(self.layout_.height))

    # ------------------------------------------------------------ input
    def action_move_cursor(self, direction: str) -> None:
        raise NotImplementedError

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter is offered (and shown in the footer) only while a place can be chosen.
        return self.choosing if action == "choose" else True

    def action_choose(self) -> None:
        self.post_message(self.CityChosen(self, self.cursor_city))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        city = self._city_at((offset.x + self.scroll_offset.x, offset.y + self.scroll_offset.y))
        if city is None:
            return
        event.stop()
        self.move_cursor_to(city, scroll=False)
        self.post_message(self.CityChosen(self, city))

    def _city_at(self, cell: Cell) -> str | None:
        """The id of the city a click on ``cell`` (board coordinates) chooses, if any."""
        raise NotImplementedError

    # ------------------------------------------------------------ drawing
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if base != self._strip_base:
            self._strips.clear()
            self._strip_base = base
        if not 0 <= row < len(self._rows):
            return Strip.blank(width, base)
        strip = self._strips.get(row)
        if strip is None:
            strip = self._strips[row] = self._make_strip(self._rows[row], base)
        return strip.crop_extend(scroll_x, scroll_x + width, base).apply_offsets(scroll_x, row)

    def _make_strip(self, cells: Row, base: Style) -> Strip:
        return make_strip(cells, base)

    def _redraw_rows(self, rows: Iterable[int]) -> None:
        """Recompute ``rows`` (scene + cursor) and refresh the spans that changed."""
        scroll_x, scroll_y = self.scroll_offset
        for row in rows:
            if not 0 <= row < self.layout_.height:
                continue
            new = self._with_cursor(row)
            old = self._rows[row]
            if new == old:
                continue
            first = next(i for i in range(len(new)) if new[i] != old[i])
            last = next(i for i in range(len(new) - 1, -1, -1) if new[i] != old[i])
            self._rows[row] = new
            self._strips.pop(row, None)
            self.refresh(Region(first - scroll_x, row - scroll_y, last - first + 1, 1))

    def _with_cursor(self, row: int) -> Row:
        cells = self._scene[row]
        columns = self._cursor_columns(row)
        if not columns:
            return cells
        cells = list(cells)
        for col in columns:
            ch, style = cells[col]
            cells[col] = (ch, self._cursor_style(style))
        return cells

    def _cursor_rows(self, city: str) -> Iterable[int]:
        """The rows the cursor touches when it is on ``city``."""
        raise NotImplementedError

    def _cursor_columns(self, row: int) -> Sequence[int]:
        """The columns of ``row`` the cursor is drawn on (none when it is elsewhere)."""
        raise NotImplementedError

    def _cursor_style(self, style: Style) -> Style:
        """A cell's style under the cursor."""
        return style + CURSOR

    def _build_scene(self) -> None:
        """Every cell of the board for the current state and highlights (cursor aside)."""
        raise NotImplementedError


# ------------------------------------------------------------------- under the board


class BoardPanel(Vertical):
    """Lines under a board that tell what its cursor is on.

    When mounted it finds the board (of ``BOARD_CLASS``) beside it and follows
    its cursor; ``_show_cursor`` redraws the cursor line.
    """

    BOARD_CLASS: ClassVar[type[BoardBase]] = BoardBase

    def __init__(self, ruleset: Any, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ruleset = ruleset
        self.state: Any = None
        self.cursor: str | None = None

    def on_mount(self) -> None:
        parent = self.parent
        boards = list(parent.query(self.BOARD_CLASS)) if parent is not None else []
        if boards:
            board = boards[0]
            board.cursor_listeners.append(self.show_cursor)
            self.cursor = board.cursor_city
        if self.state is not None:
            self.update_state(self.state)

    def update_state(self, state: Any) -> None:
        raise NotImplementedError

    def show_cursor(self, city: str) -> None:
        self.cursor = city
        self._show_cursor()

    def _show_cursor(self) -> None:
        raise NotImplementedError
