"""The table protocol: everything a game screen may ask of the game it shows.

A screen asks its table for the view of the seat at this terminal, the
prompt, the events that seat may see, and sends ``submit(action)`` and
``undo(seat)``. To redraw only what changed it keeps the ``mark()`` of what it
last drew and asks ``changes(mark)``: the new events, or ``full=True`` when
the game went back (undo, a step back) and everything must be drawn again.

Where the game lives is not asked: what a table allows is said by its flags
(``read_only``, ``shared``, ``seat``, ``can_save``) and by what its bots do
(``bot_to_move`` is never true where another process moves them).

A table may also have people to talk with (a host's table): its ``talk`` is then a
``TableTalk``, and None for a table without (a game on this terminal, a recording).
A tutorial's table has a ``lesson``; every other table's is None.
Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from railgames.core.engine import Action, Game, Prompt, Result, Ruleset
from railgames.core.events import Event
from railgames.core.record import GameRecord, PlayerSpec

if TYPE_CHECKING:
    from railgames.core.bots import Bot


class BotThink:
    """One bot decision, thought about away from the screen (``Session.prepare_think``)."""

    def __init__(self, bot: Bot, ruleset: Any, view: Any, prompt: Prompt, game: Game) -> None:
        self.bot = bot
        self.ruleset = ruleset
        self.view = view
        self.prompt = prompt
        self._game = game
        self.mark = self._now()
        resume = getattr(bot, "resume", None)
        if resume is not None:
            resume()

    def run(self) -> Any:
        """The bot's choice (raises ``Cancelled`` if ``stop`` is called meanwhile)."""
        return self.bot.choose(self.ruleset, self.view, self.prompt)

    def stop(self) -> None:
        stop = getattr(self.bot, "stop", None)
        if stop is not None:
            stop()

    def _now(self) -> tuple[int, int]:
        # Undo replaces the state object (a replay), while an action adds to the record.
        return id(self._game.state), len(self._game.record.actions)

    def moved_on(self) -> bool:
        """Whether the game has changed since this think began (its choice is then moot)."""
        return self.mark != self._now()


@dataclass(frozen=True)
class Change:
    """What to redraw since a mark: everything (``full``), or just these new events."""

    full: bool
    events: tuple[Event, ...] = ()


@runtime_checkable
class Table(Protocol):
    """What a game screen reads and does, and nothing more.

    The kinds: ``railgames.tables.local.Session`` (a game in this process),
    ``railgames.tables.remote.RemoteSeat`` (one seat at a host's table) and
    ``railgames.tables.recording.Recording`` (a record stepped through).
    """

    # --- what the table allows
    read_only: bool
    """Every change is refused (another window plays it; a recording)."""
    shared: bool
    """The people at the table share this screen and keyboard (hot seat): hand-offs
    between them, and the keyboard passes to whoever is to move."""
    can_save: bool
    """The game is saved from here (``save``); False: whoever holds it keeps it after
    every move, and leaving keeps the seat."""
    owes_save: bool
    """A move made under ``save_after_showing`` is not on disk yet (``pay_save`` writes it)."""

    @property
    def talk(self) -> TableTalk | None:
        """The talk at the table, where people at other terminals sit at it (None: a game
        on this terminal, a recording)."""

    @property
    def lesson(self) -> Any:
        """The lesson of the moment at a tutorial's table (``railgames.tables.coached.Lesson``:
        what to do and why, the expected move); None at any other table."""

    @property
    def seat(self) -> int | None:
        """The seat this terminal plays when the table is not ``shared`` (None: watching)."""

    # --- what it shows
    @property
    def ruleset(self) -> Ruleset[Any]: ...

    @property
    def players(self) -> list[PlayerSpec]: ...

    @property
    def state(self) -> Any:
        """The game as this terminal holds it: all of it, or only ``seat``'s view."""

    @property
    def record(self) -> GameRecord | None:
        """The game's whole record, when this terminal may have it (None: kept elsewhere)."""

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see now (None: only what everyone may see)."""

    def prompt(self) -> Prompt | None: ...

    def events_for(self, seat: int | None) -> list[Event]: ...

    def result(self) -> Result | None: ...

    def is_over(self) -> bool: ...

    def played(self) -> int:
        """How many actions the game has had."""

    def is_bot(self, seat: int) -> bool: ...

    def humans(self) -> list[int]:
        """The seats people play."""

    def away(self) -> list[int]:
        """The people's seats whose players are not at the table now."""

    def why_not_undo(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last decision now, or None if it may."""

    def why_no_hint(self) -> str | None:
        """Why the search's advice (H) is not given at this table, or None where it is
        (a host's table may be set for a game without hints)."""

    def mark(self) -> Any:
        """A token for what the screen has drawn; pass it to ``changes`` later. Equal
        marks: nothing the table shows has changed."""

    def changes(self, mark: Any) -> Change: ...

    # --- changes
    def submit(self, action: Mapping[str, Any] | Action) -> list[Event]:
        """Apply through the rules; IllegalAction or MalformedAction change nothing.

        A table that saves itself has the move on disk when this returns (an OSError
        says it is not, the move made all the same)."""

    def save_after_showing(self) -> AbstractContextManager[None]:
        """Within it, the save a change would write is owed instead (``owes_save``): the
        screen draws the move first and then calls ``pay_save`` (a table that writes no
        save here owes nothing)."""

    def pay_save(self) -> None:
        """Write the save owed since ``save_after_showing``, if any (OSError if it fails)."""

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s own last action, or raise IllegalAction with the reason."""

    def save(self) -> Path | None:
        """Write the game now (where ``can_save``); the file written, if any."""

    def history(self, seat: int | None, reveal_all: bool) -> Any:
        """The game so far to step through (a ``TurnIndex`` table; ``close`` it after),
        showing what ``seat`` may see, or everything with ``reveal_all``."""

    # --- the bots that move here (a host moves its own: never to move here)
    def bot_to_move(self) -> bool: ...

    def bot_thinks_long(self) -> bool:
        """Whether the bot to move searches (it then thinks away from the screen)."""

    def bot_step(self) -> list[Event]: ...

    def prepare_think(self) -> BotThink | None: ...

    def finish_think(self, think: BotThink, action: Any, bot: Bot | None = None) -> bool: ...


@runtime_checkable
class TableTalk(Protocol):
    """The talk at a table with people at other terminals: its recent lines, who is
    there, and a line of one's own to say."""

    @property
    def lines(self) -> list[dict[str, Any]]:
        """The recent lines, oldest first: each {"name", "text", "seat"} (seat None: a
        watcher said it), already made plain (``railgames.net.talkline``)."""

    @property
    def heard(self) -> int:
        """How many lines have come since this terminal came to the table (it grows by
        one with each new line, so a screen can mark the ones not yet seen)."""

    @property
    def here(self) -> dict[str, list[str]]:
        """Who is at the table now: {"players": names sitting, "watching": names}."""

    def say(self, text: str) -> None:
        """Say ``text`` at the table; a refusal raises RailgamesError with the reason."""


def talk_of(table: Any) -> TableTalk | None:
    """The table's talk, if it has one (only a host's tables do; a table made before
    tables could talk has none)."""
    return getattr(table, "talk", None)


class TurnIndex:
    """Moving through a game step by step, and finding its turns: what a recording
    and a remote history share. Each sets ``position``, ``length`` and ``_turns`` (the
    turn at each position) and defines ``seek`` and ``events_between``."""

    position: int
    length: int
    _turns: list[int]

    def seek(self, position: int) -> None:
        raise NotImplementedError

    def events_between(self, start: int, end: int) -> list[Event]:
        raise NotImplementedError

    # What a screen drew is the position it drew; a step back redraws it whole.
    def mark(self) -> int:
        return self.position

    def changes(self, mark: int) -> Change:
        if mark > self.position:
            return Change(full=True)
        return Change(full=False, events=tuple(self.events_between(mark, self.position)))

    def step(self, delta: int = 1) -> None:
        self.seek(self.position + delta)

    def turn_at(self, position: int) -> int:
        return self._turns[position]

    def position_of_turn(self, turn: int) -> int | None:
        """The first position at which ``turn`` has begun, or None if the game never reaches it."""
        for position, t in enumerate(self._turns):
            if t >= turn:
                return position
        return None

    @property
    def last_turn(self) -> int:
        return self._turns[-1]

    @property
    def at_end(self) -> bool:
        return self.position >= self.length

    def close(self) -> None:
        """Let go of what is kept for it elsewhere (nothing, unless a host keeps it)."""


class SavesElsewhere:
    """For a table that writes no save here (a host keeps it, or it is a recording)."""

    owes_save = False

    def save_after_showing(self) -> AbstractContextManager[None]:
        return nullcontext()

    def pay_save(self) -> None:
        return None


class BotsElsewhere:
    """For a table whose bots never move here: a host moves them, a recording replays them."""

    def bot_to_move(self) -> bool:
        return False

    def bot_thinks_long(self) -> bool:
        return False

    def bot_step(self) -> list[Event]:
        return []

    def prepare_think(self) -> BotThink | None:
        return None

    def finish_think(self, think: BotThink, action: Any, bot: Bot | None = None) -> bool:
        return False


