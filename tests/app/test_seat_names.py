"""Every game's players table shows a bot's seat by its name, then its kind, short."""

from __future__ import annotations

import pytest
from rich.console import Console

from railgames.app.boards import game_ui
from railgames.app.gameui import bot_tag, short_name
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset


def test_a_bots_description_is_left_off_its_name_and_its_kind_is_short() -> None:
    assert short_name("Ada (search:hard bot)") == "Ada"
    assert short_name("Bob (the builder)") == "Bob (the builder)"  # a person's own name
    assert bot_tag("search") == "search"
    assert bot_tag("search:hard") == "search+"
    assert bot_tag("search:easy") == "search-"
    assert bot_tag("greedy") == "greedy"


@pytest.mark.parametrize("game_id", ["new-england", "paris-connection", "steel-driver",
                                     "railways-of-the-world", "american-rails"])
def test_bot_seats_read_name_then_kind(game_id: str) -> None:
    ruleset = load_ruleset(game_id)
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada (search:hard bot)", kind="search:hard"),
               PlayerSpec(name="Ben (greedy bot)", kind="greedy")]
    game = Game.new(ruleset, players, 3)
    ui = game_ui(ruleset)
    table = ui.players_table(game.view(0), [p.name for p in players],
                             [p.kind for p in players], 0)
    console = Console(width=200, record=True, color_system=None)
    console.print(table)
    text = console.export_text()
    assert "Ada (search+)" in text and "Ben (greedy)" in text
    assert "bot)" not in text
