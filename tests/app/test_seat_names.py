"""Every game's players table shows a bot's seat by its name, then its kind, short; every
player's letter reads as their name where it can, and a bot's description never crowds
the banner."""

from __future__ import annotations

import pytest
from rich.console import Console

from railgames.app.boards import game_ui
from railgames.app.gameui import bot_tag, short_name, with_short_names
from railgames.app.main import RailgamesApp
from railgames.app.palette import player_letters
from railgames.app.screens.game import GameScreen
from railgames.cli import BOT_NAMES, parse_seats
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from tests.app.driving import run_async, screen_text


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


# ------------------------------------------------------------------ the players' letters
@pytest.mark.parametrize(("names", "letters"), [
    (["Ann", "Bob", "Cat"], ["A", "B", "C"]),
    # The initial when free, else the name's next letter, else the alphabet's first free.
    (["Ann", "Ada", "Al"], ["A", "D", "L"]),
    (["Bo", "Ob", "Bob", "Ben"], ["B", "O", "A", "E"]),
    (["Zoe", "42"], ["Z", "A"]),
    # A bot's description is no part of its name: Ada is not G for "greedy" ...
    (["Ad", "Da", "Ada (greedy bot)"], ["A", "D", "B"]),
    # ... and games saved with such names keep the letters they had.
    (["Ann", "Ada (greedy bot)", "Ben (greedy bot)", "Ben"], ["A", "D", "B", "E"]),
])
def test_each_player_letter_reads_as_their_name_where_it_can(names: list[str],
                                                             letters: list[str]) -> None:
    assert player_letters(names) == letters


def test_bots_named_on_the_command_line_take_initials_no_one_else_has() -> None:
    # Ann and Ben at one keyboard, two bots between them: each letter is an initial.
    seats = parse_seats("Ann,bot:greedy,bot:search,Ben")
    names = [p.name for p in seats]
    assert [p.kind for p in seats] == ["human", "greedy", "search", "human"]
    assert player_letters(names) == [n[0] for n in names]
    assert names[0] == "Ann" and names[3] == "Ben" and len(set(names)) == 4
    assert all(" " not in n for n in names)  # short: the players table says what kind of bot
    # All of a table's initials taken: a bot still gets a name no person has.
    crowd = parse_seats(",".join([*(n + "x" for n in BOT_NAMES), "bot:greedy"]))
    assert crowd[-1].name not in {p.name for p in crowd[:-1]}


def test_a_bots_description_is_left_off_where_its_name_stays_plain() -> None:
    names = ["Ann", "Ada (greedy bot)", "Ben (random bot)", "Ben"]
    text = "high bid $9 by Ada (greedy bot) — Ann to bid; Ben (random bot) passed"
    # Ben the bot would read as Ben the person: his description stays.
    assert with_short_names(text, names) == "high bid $9 by Ada — Ann to bid; Ben (random bot) passed"


@run_async
async def test_the_banner_stays_one_line_at_80x24_with_bots_named_long() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada (greedy bot)", kind="greedy"),
               PlayerSpec(name="Ben (greedy bot)", kind="greedy")]
    app = RailgamesApp(new_game={"game": "new-england", "players": players, "seed": 3},
                       bot_delay=60)  # the bot is still thinking when we look
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        if not screen.session.is_bot(screen.session.prompt().seat):
            await pilot.press("enter")  # Ann takes no loan
            await pilot.pause()
        assert screen.session.is_bot(screen.session.prompt().seat)
        banner = screen.query_one("#banner")
        line = screen_text(app).splitlines()[0]
        assert banner.size.height == 1
        assert "turn 1" in line and ": take Bank Loans? (cash $10, debt $0)" in line
        assert "bot)" not in line


@pytest.mark.parametrize("game_id", ["new-england", "paris-connection", "steel-driver",
                                     "railways-of-the-world", "american-rails"])
def test_a_narrow_players_table_cuts_a_bots_kind_never_a_name(game_id: str) -> None:
    ruleset = load_ruleset(game_id)
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada (greedy bot)", kind="greedy"),
               PlayerSpec(name="Ben (search:hard bot)", kind="search:hard")]
    game = Game.new(ruleset, players, 3)
    state = game.view(0)
    if game_id == "new-england":  # the longest note on links there is
        links = [link.id for link in ruleset.map.links[:3]]
        for r in state.railways:
            r.links, r.bought_this_turn = list(links), links[0]
        state.unfinished = list(links)
    table = game_ui(ruleset).players_table(state, [p.name for p in players],
                                           [p.kind for p in players], 1)
    console = Console(width=44, record=True, color_system=None)
    console.print(table)
    text = console.export_text()
    for name in ("Ann", "Ada", "Ben"):
        assert f"  {name} " in text or f"  {name}\n" in text, text
