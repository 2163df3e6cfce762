"""Setting up a new game: seats, names, human or bot, seed, hand-off screens."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from railgames.app.palette import short_name
from railgames.app.screens.guard import SizeGuard
from railgames.app.widgets.footer import KeyFooter
from railgames.core.errors import RailgamesError
from railgames.core.record import PlayerSpec
from railgames.games import maps_for, ruleset_class

if TYPE_CHECKING:
    from railgames.app.shell import GameShell

DEFAULT_NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
SETUP_HELP = (
    "Tab and Shift+Tab (or Enter in a name) move between the fields; Enter opens a "
    "list, the arrows pick, Enter takes. A blank seed deals at random; the same seed "
    "deals the same game again. The game starts only with the Start button or ctrl+s; "
    "Esc goes back to the launcher. Bots: random plays any legal move, greedy the move "
    "that pays best now; a search bot tries its moves ahead, 0.3 s a move (easy), "
    "1 s (normal) or 2 s (hard)."
)
KINDS = [("Human", "human"), ("Random bot", "random"), ("Greedy bot", "greedy"),
         ("Search bot (easy)", "search:easy"), ("Search bot (normal)", "search"),
         ("Search bot (hard)", "search:hard")]


class SetupScreen(SizeGuard, Screen[None]):
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("start", "app.pop_screen", "help")
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+s", "start", "Start"),
        # Typed into a name, ? is part of the name; F1 opens the help from anywhere.
        Binding("question_mark,f1", "help", "Help"),
    ]

    def __init__(self, game_id: str, players: list[PlayerSpec] | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.cls = ruleset_class(game_id)
        self.initial = players or []
        self.seed = seed
        self.maps = maps_for(game_id)

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        cls = self.cls
        count = min(max(len(self.initial), cls.min_players), cls.max_players)
        with VerticalScroll(id="setup", can_focus=False):
            yield Static(f"[b]New game: {cls.title}[/b]", id="setup-title")
            if len(self.maps) > 1:
                with Horizontal(classes="setup-row"):
                    yield Label("Map", classes="setup-label")
                    yield Select([(title, map_id) for map_id, title in self.maps],
                                 value=self.maps[0][0], allow_blank=False, id="map", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Players", classes="setup-label")
                yield Select([(str(n), n) for n in range(cls.min_players, cls.max_players + 1)],
                             value=count, allow_blank=False, id="count", compact=True)
            for seat in range(cls.max_players):
                spec = self.initial[seat] if seat < len(self.initial) else None
                with Horizontal(classes="setup-row seat", id=f"seat-{seat}"):
                    yield Label(f"Seat {seat + 1}", classes="setup-label")
                    # A bot's description is no part of its name: the seat's kind says it,
                    # and a seat turned over to a person keeps only the name.
                    yield Input(short_name(spec.name) if spec else DEFAULT_NAMES[seat], id=f"name-{seat}",
                                max_length=24, compact=True, classes="seat-name")
                    yield Select(KINDS, value=spec.kind if spec else "human", allow_blank=False,
                                 id=f"kind-{seat}", compact=True, classes="seat-kind")
            with Horizontal(classes="setup-row"):
                yield Label("Seed", classes="setup-label")
                if cls.hidden_information:
                    # Whoever knows the seed could work out the secret deal: always random here.
                    yield Input("", placeholder="random", id="seed",
                                compact=True, classes="seat-name", disabled=True)
                    yield Static("the seed would give the deal away", classes="setup-note")
                else:
                    yield Input("" if self.seed is None else str(self.seed), placeholder="random",
                                restrict=r"[0-9]*", id="seed", compact=True, classes="seat-name")
            if cls.hidden_information:
                yield Checkbox("Hand-off screens (always on: players keep secrets)", True,
                               id="handoff", compact=True, disabled=True)
            else:
                yield Checkbox("Hand-off screen between human players", self.rapp.handoff_default,
                               id="handoff", compact=True)
            for key, label in cls.option_labels.items():
                yield Checkbox(label, False, id=f"option-{key}", compact=True,
                               classes="setup-option")
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", id="start", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#start", Button).focus()

    def _count(self) -> int:
        value = self.query_one("#count", Select).value
        return int(value) if isinstance(value, int) else self.cls.min_players

    def _show_seats(self) -> None:
        count = self._count()
        for seat in range(self.cls.max_players):
            self.query_one(f"#seat-{seat}").display = seat < count

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "count":
            self._show_seats()
        elif event.select.id == "map" and isinstance(event.value, str):
            # Each board may take its own range of players.
            from railgames.games import load_ruleset

            try:
                ruleset = load_ruleset(self.game_id, event.value)
            except RailgamesError as exc:
                self.query_one("#setup-error", Static).update(Text(exc.reason, style="bold red"))
                return
            low, high = ruleset.min_players, ruleset.max_players
            count = self.query_one("#count", Select)
            current = self._count()
            count.set_options([(str(n), n) for n in range(low, high + 1)])
            count.value = min(max(current, low), high)
            self._show_seats()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter in a field goes on to the next one; only Start (or ctrl+s) starts.
        event.stop()
        self.focus_next()

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.game_id, "Setting up", SETUP_HELP))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.app.pop_screen()

    def players(self) -> list[PlayerSpec]:
        specs = []
        for seat in range(self._count()):
            name = self.query_one(f"#name-{seat}", Input).value.strip() or f"Player {seat + 1}"
            kind = self.query_one(f"#kind-{seat}", Select).value
            specs.append(PlayerSpec(name=name[:24], kind=kind if isinstance(kind, str) else "human"))  # type: ignore[arg-type]
        return specs

    def action_start(self) -> None:
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text else random.SystemRandom().randrange(1, 2**31)
        # A game with secrets has its hand-off screen anyway; the choice for others is kept.
        handoff = None if self.cls.hidden_information else self.query_one("#handoff", Checkbox).value
        map_id: str | None = None
        if len(self.maps) > 1:
            value = self.query_one("#map", Select).value
            map_id = value if isinstance(value, str) else None
        options = {key: True for key in self.cls.option_labels
                   if self.query_one(f"#option-{key}", Checkbox).value}
        try:
            self.rapp.start_new(self.game_id, self.players(), seed, handoff=handoff,
                                map_id=map_id, options=options)
        except RailgamesError as exc:  # an illegal set-up, or a map that cannot be loaded
            self.query_one("#setup-error", Static).update(Text(exc.reason, style="bold red"))
