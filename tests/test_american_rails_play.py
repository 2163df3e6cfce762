"""American Rails in play: random games with invariants, replay, bots, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from american_rails_support import (
    check_invariants,
    clear_board,
    fund,
    give,
    lay,
    make_ruleset,
    quiet_prep,
    start_game,
)

from railgames.cli import main
from railgames.core.engine import Game
from railgames.core.record import load_record
from railgames.core.simulate import bot_players, bots_for, step_bot
from railgames.games import GAMES, NOT_IN_LAUNCHER, playable_games
from railgames.games.american_rails.actions import Bid, PassBid, PlaceCube, PlaceStart, TakeSpace
from railgames.games.american_rails.bots import GreedyBot
from railgames.games.american_rails.rules import AmericanRailsRules
from railgames.games.american_rails.state import Step

ROOT = Path(__file__).resolve().parents[1]
MAX_ACTIONS = 3000  # random games end near 300 actions, greedy ones near 500; this bound means a loop


@pytest.fixture(scope="module")
def rules() -> AmericanRailsRules:
    return make_ruleset()


def play_checked(rules: AmericanRailsRules, players: int, seed: int, kind: str = "random",
                 check_every_choice: bool = False) -> Game:
    """A bot game with the invariants checked after every action."""
    game = Game.new(rules, bot_players(players, kind), seed)
    bots = bots_for(game, seed)
    check_invariants(rules, game.state)
    while not game.is_over():
        assert len(game.record.actions) < MAX_ACTIONS, f"seed {seed}: no end"
        prompt = game.prompt()
        assert prompt is not None and (prompt.choices or prompt.amount), "a turn offers something"
        if check_every_choice:
            for action in game.legal_actions():
                game.check(action)
        step_bot(game, bots)
        check_invariants(rules, game.state)
    return game


# ---------------------------------------------------------------- random play
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_games_keep_the_invariants_end_and_replay(rules: AmericanRailsRules, players: int,
                                                         seed: int) -> None:
    game = play_checked(rules, players, seed)
    result = game.result()
    assert result is not None and set(result.scores) == {p.name for p in game.players}
    assert game.state.end_reason and game.state.year <= 1857
    again = Game.replay(rules, game.record)
    assert again.state == game.state
    assert again.result() == result


@pytest.mark.parametrize("players", [3, 4, 5])
def test_greedy_games_keep_the_invariants_and_end(rules: AmericanRailsRules, players: int) -> None:
    game = play_checked(rules, players, seed=11, kind="greedy")
    assert game.result() is not None


def test_every_listed_action_is_legal(rules: AmericanRailsRules) -> None:
    play_checked(rules, 4, seed=5, check_every_choice=True)


def test_the_listed_placements_are_exactly_the_legal_ones(rules: AmericanRailsRules) -> None:
    """The listing agrees with the rule checked hex by hex, over the whole map."""
    game = quiet_prep(start_game(rules, 4, seed=2))
    state = game.state
    seat = state.acting
    for company in ("american", "national"):
        give(game, seat, company)
    lay(game, "american", "STL", (1, 7), "MEM")
    lay(game, "national", "PIT", (12, 4))
    fund(game, "american", 6)
    fund(game, "national", 3)
    game.apply(TakeSpace(seat=seat, space="expand4"))
    listed = {(a.company, a.hex) for a in rules.legal_placements(state, seat)}
    legal = set()
    for company in rules.companies:
        for h in rules.map.terrain:
            action = PlaceCube(seat=seat, company=company, hex=rules.map.offset_of(h))
            try:
                game.check(action)
            except Exception:  # noqa: BLE001 - any refusal means not legal
                continue
            legal.add((company, action.hex))
    assert listed == legal and listed


# ---------------------------------------------------------------- the greedy bot
def test_greedy_bot_places_where_income_grows(rules: AmericanRailsRules) -> None:
    game = quiet_prep(start_game(rules, 4, seed=2))
    clear_board(game)
    state = game.state
    seat = state.acting
    give(game, seat, "american")
    lay(game, "american", "CIN")
    fund(game, "american", 20)
    game.apply(TakeSpace(seat=seat, space="expand4"))
    lay(game, "american", (7, 4))  # next to Columbus [8, 4]
    prompt = game.prompt()
    assert prompt is not None
    choice = GreedyBot(1).choose(rules, game.view(seat), prompt)
    assert choice == PlaceCube(seat=seat, company="american", hex=(8, 4))


def test_greedy_bot_starts_a_company_on_a_valuable_city(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    bot = GreedyBot(1)
    prompt = game.prompt()
    assert prompt is not None
    game.apply(bot.choose(rules, game.view(0), prompt))
    game.apply(Bid(seat=0, amount=10))
    for s in (1, 2, 3):
        game.apply(PassBid(seat=s))
    prompt = game.prompt()
    assert prompt is not None and game.state.step is Step.START
    choice = bot.choose(rules, game.view(0), prompt)
    assert choice == PlaceStart(seat=0, city="NYC")


def test_greedy_bot_bids_in_round_steps_up_to_its_limit() -> None:
    bid = GreedyBot.bid_amount
    assert bid(0, 10, 42) == 20  # much room: halfway towards the limit at once
    assert bid(30, 31, 42) == 35  # little room: $5 more
    assert bid(40, 41, 44) is None  # $5 more is beyond the limit: a pass, not a $1 raise
    assert bid(0, 10, 9) is None
    assert bid(0, 10, 12) == 10  # the opening bid is never under the rules' minimum


@pytest.mark.parametrize("players", [3, 4, 5])
def test_greedy_bots_raise_by_five_dollars_at_least_and_auctions_stay_short(
        rules: AmericanRailsRules, players: int) -> None:
    for seed in (1, 2):
        game = Game.new(rules, bot_players(players, "greedy"), seed)
        bots = bots_for(game, seed)
        bids_this_auction = 0
        while not game.is_over():
            state = game.state
            high = state.auction.high_bid if state.auction and state.auction.high_seat is not None else 0
            before = len(game.record.actions)
            step_bot(game, bots)
            for raw in game.record.actions[before:]:
                if raw["type"] == "bid":
                    assert high == 0 or raw["amount"] >= high + 5, (seed, raw, high)
                    bids_this_auction += 1
                    high = raw["amount"]
                elif raw["type"] != "pass_bid":
                    bids_this_auction = 0
                assert bids_this_auction <= 2 * players, f"seed {seed}: an auction of many small raises"


def test_the_auction_rule_says_what_a_raise_must_be(rules: AmericanRailsRules) -> None:
    """The opening bid is $10 or more; later bids need only top the high bid."""
    from railgames.games.american_rails.rule_texts import AUCTION, RULEBOOK

    game = start_game(rules, 3)
    game.apply(game.prompt().choices[0])  # a share goes up
    game.apply(Bid(seat=0, amount=10))
    assert game.prompt().amount.min == 11  # the rules take a $1 raise
    text = RULEBOOK[AUCTION].full
    assert "(at least $10)" not in text and "$10 or more" in text and "$1" in text


# ---------------------------------------------------------------- registration and the CLI
def test_registered_for_the_cli_and_in_the_launcher() -> None:
    assert "american-rails" in GAMES
    assert "greedy" in make_ruleset().bot_makers()
    assert "american-rails" not in NOT_IN_LAUNCHER
    assert "american-rails" in [g.id for g in playable_games()]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulate_ends_every_game_and_records_replay(players: int, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bots = "random" if players % 2 else "greedy"
    assert main(["simulate", "american-rails", "--players", str(players), "--games", "3",
                 "--bots", bots, "--save", str(tmp_path), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert len(games) == 3 and all(g["finished"] for g in games)
    for g in games:
        path = tmp_path / f"american-rails-{players}p-seed{g['seed']}.json"
        assert load_record(path).game == "american-rails"
        assert main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed == {"finished": True, "scores": g["scores"], "winners": g["winners"],
                            "actions": g["actions"]}


def test_headless_commands_work_without_textual(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from railgames.cli import main\n"
        f"assert main(['simulate', 'american-rails', '--players', '4', '--games', '1', "
        f"'--save', {str(tmp_path)!r}, '--json']) == 0\n"
        f"assert main(['replay', {str(tmp_path / 'american-rails-4p-seed1.json')!r}]) == 0\n"
        f"assert main(['maps', 'check', {str(ROOT / 'maps' / 'american-rails.toml')!r}]) == 0\n"
        "assert main(['rules', 'american-rails']) == 0\n"
        "assert main(['schema', 'american-rails']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "assert not loaded, loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "American Rails: " in proc.stdout and "Expand 4" in proc.stdout
    assert '"place_cube"' in proc.stdout


def test_a_player_can_take_back_their_own_last_action(rules: AmericanRailsRules) -> None:
    game = quiet_prep(start_game(rules, 3))
    seat = game.state.acting
    before = game.snapshot()
    count = len(game.record.actions)
    game.apply(TakeSpace(seat=seat, space="take2"))
    assert game.undo_refusal((seat + 1) % 3) is not None
    game.undo(seat)
    assert game.state == before and len(game.record.actions) == count


# ---------------------------------------------------------------- rules as data (demos, narration)
def test_every_event_names_rules_the_book_explains(rules: AmericanRailsRules) -> None:
    import re
    from importlib import resources

    from railgames.core.demo import demo_game
    from railgames.core.narration import rules_fired
    from railgames.core.rulebook import rulebook
    from railgames.games import load_ruleset, ruleset_class

    book = rulebook(ruleset_class("american-rails"))
    for players in (3, 5):
        for kind in ("greedy", "random"):
            played = play_checked(rules, players, seed=players * 11, kind=kind)
            for event in played.log:
                assert event.rules, f"the '{event.kind}' event names no rule: {event.text}"
                assert all(r in book for r in event.rules)
    # The rules' modules: those that log with the rule texts (the rules and their phases).
    folder = ROOT / "railgames" / "games" / "american_rails"
    source = "\n".join(text for path in sorted(folder.glob("*.py"))
                       if "rule_texts as R" in (text := path.read_text()))
    assert "log.add(" in source and source.count("log.add(") == source.count("rule=")
    texts = resources.files("railgames.games.american_rails").joinpath("rule_texts.py").read_text()
    ids = dict(re.findall(r'^([A-Z_]+) = "([a-z]+\.[a-z_]+)"$', texts, re.M))
    used = set(re.findall(r"\bR\.([A-Z_]+)\b", source))
    assert {ids[name] for name in used} == {r.id for r in book}
    help_md = resources.files("railgames.games.american_rails").joinpath("help.md").read_text()
    headings = {line.lstrip("#").strip() for line in help_md.splitlines() if line.startswith("## ")}
    assert all(r.help in headings and len(r.full) > len(r.short) for r in book)
    assert set(book.main_rules()) <= rules_fired(demo_game(load_ruleset("american-rails")).log)
