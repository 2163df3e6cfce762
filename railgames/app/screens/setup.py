"""Setting up a new game: seats, names, human or bot, seed, hand-off screens."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from railgames.core.errors import RailgamesError
from railgames.core.record import PlayerSpec
from railgames.games import ruleset_class

if TYPE_CHECKING:
    from railgames.app.shell import GameShell

DEFAULT_NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
KINDS = [("Human", "human"), ("Random bot", "random"), ("Greedy bot", "greedy")]


class SetupScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+s", "start", "Start"),
    ]

    def __init__(self, game_id: str, players: list[PlayerSpec] | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.cls = ruleset_class(game_id)
        self.initial = players or []
        self.seed = seed

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        cls = self.cls
        count = min(max(len(self.initial), cls.min_players), cls.max_players)
        with VerticalScroll(id="setup"):
            yield Static(f"[b]New game: {cls.title}[/b]", id="setup-title")
            with Horizontal(classes="setup-row"):
                yield Label("Players", classes="setup-label")
                yield Select([(str(n), n) for n in range(cls.min_players, cls.max_players + 1)],
                             value=count, allow_blank=False, id="count", compact=True)
            for seat in range(cls.max_players):
                spec = self.initial[seat] if seat < len(self.initial) else None
                with Horizontal(classes="setup-row seat", id=f"seat-{seat}"):
                    yield Label(f"Seat {seat + 1}", classes="setup-label")
                    yield Input(spec.name if spec else DEFAULT_NAMES[seat], id=f"name-{seat}",
                                max_length=24, compact=True, classes="seat-name")
                    yield Select(KINDS, value=spec.kind if spec else "human", allow_blank=False,
                                 id=f"kind-{seat}", compact=True, classes="seat-kind")
            with Horizontal(classes="setup-row"):
                yield Label("Seed", classes="setup-label")
                if cls.hidden_information:
                    # Whoever knows the seed could work out the secret deal: always random here.
                    yield Input("", placeholder="random (the deal stays secret)", id="seed",
                                compact=True, classes="seat-name", disabled=True)
                else:
                    yield Input("" if self.seed is None else str(self.seed), placeholder="random",
                                restrict=r"[0-9]*", id="seed", compact=True, classes="seat-name")
            if cls.hidden_information:
                yield Checkbox("Hand-off screen between human players (always on: players "
                               "keep secrets here)", True, id="handoff", compact=True, disabled=True)
            else:
                yield Checkbox("Hand-off screen between human players", self.rapp.handoff_default,
                               id="handoff", compact=True)
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", id="start", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
        yield Footer()

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

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

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
        try:
            self.rapp.start_new(self.game_id, self.players(), seed, handoff=handoff)
        except RailgamesError as exc:  # an illegal set-up, or a map that cannot be loaded
            self.query_one("#setup-error", Static).update(Text(exc.reason, style="bold red"))
