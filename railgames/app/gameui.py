"""What the app asks of each game to present it: labels, choice trees, tables.

The shell (screens, action panel, palette) is the same for every game; a game
supplies a ``GameUI`` that turns its prompts, actions and state into text. A
``GameUI`` never decides legality: it only groups and labels the actions the
rules layer lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from railgames.app.palette import player_letters, player_style
from railgames.app.palette import short_name as short_name  # the games import it from here
from railgames.core.engine import Prompt, Ruleset
from railgames.core.errors import RailgamesError

# The kind shown for a person's seat whose player has left a host's table for now.
AWAY = "away"


def with_short_names(text: str, names: Sequence[str]) -> str:
    """``text`` with each bot's description left off its name where that name stays
    unmistakable: "high bid $9 by Ada (greedy bot) — Ann to bid" reads "by Ada — Ann"
    (games saved with such names still show them whole in the log)."""
    shorts = [short_name(n) for n in names]
    for name, short in sorted(zip(names, shorts, strict=True), key=lambda p: -len(p[0])):
        if short != name and shorts.count(short) == 1 and short not in names:
            text = text.replace(name, short)
    return text


def bot_tag(kind: str) -> str:
    """A bot's kind, short: ``search`` for a search bot, ``search+`` hard, ``search-`` easy."""
    base, _, level = kind.partition(":")
    return base + {"easy": "-", "hard": "+"}.get(level, f":{level}" if level else "")


def append_seat(text: Text, name: str, kind: str, style: str, after: str = "") -> None:
    """A seat's name in a players table, whole, then ``after`` (a mark such as ``★1st``),
    and last, dim, what kind of bot plays it (what a narrow panel cuts first)."""
    text.append(f" {short_name(name)}", style=style)
    if after:
        text.append(after, style="bold")
    if kind != "human":
        text.append(f" ({bot_tag(kind)})", style="dim")


PLAYER_PREFIX = len("▶ A  ")  # the turn mark and the player's letter, before the name
NAME_ROOM = 12  # a name this long or shorter is never cut in a players table


def seat_column_width(names: Sequence[str], after: str = "") -> int:
    """The least width of a players table's first column: every name whole (up to
    NAME_ROOM cells) with its mark, and a cell for the '…' of a bot's kind cut short."""
    longest = max((len(short_name(n)) for n in names), default=0)
    return PLAYER_PREFIX + min(NAME_ROOM, longest) + len(after) + 1


@dataclass
class Choice:
    """A legal action, placed in a small tree: one key and label per level."""

    keys: list[str]
    labels: list[str]
    action: Any


@dataclass
class Hotkey:
    key: str
    label: str
    action: Any


@dataclass
class Highlight:
    cities: list[str] = field(default_factory=list)
    path: list[str] = field(default_factory=list)


class GameUI:
    """Plain defaults that suit any game: one flat list of labelled actions."""

    players_title = "Railways"  # the title over the players panel
    # What folds away on a small screen (80x24) so that the map has the rows, until the
    # player opens the panels (key i): the players' table, and each game's own tables
    # and legends (never the board, its cursor line, the choices or the log's last lines).
    folding: tuple[str, ...] = ("#players", "#legend")

    def __init__(self, ruleset: Ruleset[Any]) -> None:
        self.ruleset = ruleset

    # --- actions as text
    def describe(self, state: Any, action: Any, names: Sequence[str]) -> str:
        fields = {k: v for k, v in action.model_dump().items() if k not in ("type", "seat")}
        extra = " ".join(f"{k}={v}" for k, v in fields.items())
        return f"{action.type.replace('_', ' ')} {extra}".strip()

    def choices(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Choice]:
        return [
            Choice([str(i)], [self.describe(state, a, names)], a) for i, a in enumerate(prompt.choices)
        ]

    def level_title(self, state: Any, prompt: Prompt, prefix: list[str]) -> str:
        return "Choose:"

    def board_level(self, state: Any, prompt: Prompt, prefix: list[str]) -> bool:
        """True when the options at this level are cities the board cursor can pick."""
        return False

    def highlight(self, state: Any, prompt: Prompt, prefix: list[str], option: str | None) -> Highlight:
        return Highlight()

    def hotkeys(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Hotkey]:
        return []

    def why_not(self, state: Any, prompt: Prompt, prefix: list[str], key: str) -> str:
        """Why the place ``key``, picked on the board, is not a choice at this level.

        Games give the rules' own reason; this plain answer is the fallback.
        """
        name = self.ruleset.city_name(key) if hasattr(self.ruleset, "city_name") else key
        return f"{name} is not one of the choices here: choose a highlighted place"

    def rules_refusal(self, state: Any, action: Any) -> str | None:
        """The rules' reason for refusing ``action`` now, or None if they would allow it."""
        try:
            self.ruleset.check_references(action)
            self.ruleset.validate(state, action)
        except RailgamesError as exc:
            return exc.reason
        return None

    def amount_context(self, state: Any, prompt: Prompt, names: Sequence[str]) -> str:
        return ""

    def amount_action(self, prompt: Prompt, value: int) -> dict[str, Any]:
        assert prompt.amount is not None
        return {"type": prompt.amount.action_type, "seat": prompt.seat, "amount": value}

    # --- state as text
    def players_table(self, state: Any, names: Sequence[str], kinds: Sequence[str],
                      to_move: int | None) -> RenderableType:
        table = Table(box=None, expand=True, padding=(0, 1))
        table.add_column("Player")
        letters = player_letters(names)
        for seat, name in enumerate(names):
            mark = "▶" if seat == to_move else " "
            table.add_row(Text(f"{mark}{letters[seat]} {name}", style=player_style(seat)))
        return table

    def preview(self, width: int = 40, height: int = 12) -> Text:
        """A small picture of the board: a dot per city, with its id where there is room.

        Labels never overlap: a city whose id would touch another label shows
        only its dot. The picture is at most ``width`` wide, so it never wraps.
        """
        game_map = self.ruleset.map
        spans = getattr(game_map, "label_spans", None)
        if not spans:
            return Text("")
        grid_w, grid_h = game_map.grid_size
        canvas = [[" "] * width for _ in range(height)]
        taken = [[False] * width for _ in range(height)]
        dots = []
        for cid, (row, c0, c1) in spans.items():
            x = min(width - 1, (c0 + c1) // 2 * width // max(grid_w, 1))
            y = min(height - 1, row * height // max(grid_h, 1))
            dots.append((y, x, cid))
        for y, x, _ in dots:
            canvas[y][x] = "•"
            taken[y][x] = True
        for y, x, cid in sorted(dots):
            label = cid[:3]
            cells = range(x + 1, x + 1 + len(label))
            room = all(c < width and not taken[y][c] for c in cells) and (
                x + 1 + len(label) >= width or not taken[y][x + 1 + len(label)])
            if room:
                for c, ch in zip(cells, label, strict=False):
                    canvas[y][c] = ch
                    taken[y][c] = True
        text = Text(no_wrap=True, overflow="crop")
        for line in canvas:
            for ch in "".join(line).rstrip():
                text.append(ch, style="bold" if ch == "•" else "")
            text.append("\n")
        text.rstrip()
        return text

    def legend(self) -> RenderableType | None:
        """The map's key, shown with the panels on a small screen, where a key drawn on
        the map itself may be out of view; None for a game whose board needs none."""
        return None

    def board_extras(self) -> list[Any]:
        """Widgets shown under the board (each may have ``update_state(state)``)."""
        return []

    def side_extras(self) -> list[Any]:
        """Widgets shown in the side panel under the players (each may have
        ``update_state(state)``): what would take rows from the map under it."""
        return []

    def final_scores(self, state: Any, names: Sequence[str]) -> RenderableType | None:
        """The game-over table of scores, when the game has its own; None for the plain one."""
        return None

    def turn_of(self, state: Any) -> int:
        return self.ruleset.turn_of(state)

    def history(self, state: Any) -> list[list[tuple[int, int]]]:
        """Per turn, each seat's (income, cash); empty when the game keeps none."""
        return list(getattr(state, "history", []) or [])
