"""Steel Driver in play: random games with invariants, replays, bots and the command line."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from steel_driver_support import (
    cash_from_events,
    check_invariants,
    events,
    make_ruleset,
    start_game,
)

from railgames.cli import main
from railgames.core.bots import make_bot
from railgames.core.engine import Game
from railgames.core.errors import RailgamesError
from railgames.core.record import PlayerSpec, load_record
from railgames.core.simulate import bot_players, bots_for, play_bot_game, step_bot
from railgames.games import GAMES, NOT_IN_LAUNCHER, load_ruleset, playable_games
from railgames.games.steel_driver.actions import BuildTrack, ClaimGoods, PutUp
from railgames.games.steel_driver.bots import GreedyBot
from railgames.games.steel_driver.rules import SteelDriverRules, set_value
from railgames.games.steel_driver.state import SDState, Step

ROOT = Path(__file__).resolve().parents[1]
MAX_ACTIONS = 1500  # random games end near 250 actions; this bound means a loop


@pytest.fixture(scope="module")
def sd() -> SteelDriverRules:
    return make_ruleset()


def play_checked(sd: SteelDriverRules, players: int, seed: int, kind: str = "random",
                 check_every_choice: bool = False) -> Game:
    """A bot game with the invariants checked after every action."""
    game = Game.new(sd, bot_players(players, kind), seed)
    bots = bots_for(game, seed)
    check_invariants(sd, game.state)
    while not game.is_over():
        assert len(game.record.actions) < MAX_ACTIONS, f"seed {seed}: no end"
        prompt = game.prompt()
        assert prompt is not None and (prompt.choices or prompt.amount), "a prompt offers something"
        assert prompt.seat == sd.to_move(game.state)
        if check_every_choice:
            for action in game.legal_actions():
                game.check(action)
        step_bot(game, bots)
        check_invariants(sd, game.state)
    return game


# ---------------------------------------------------------------- random play
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_the_invariants_end_and_replay(sd: SteelDriverRules, players: int,
                                                         seed: int) -> None:
    game = play_checked(sd, players, seed)
    state: SDState = game.state
    result = game.result()
    assert result is not None and set(result.scores) == {p.name for p in game.players}
    # Exactly five turns, then the final profit determination.
    assert [e.data["turn"] for e in events(game, "turn")] == [1, 2, 3, 4, 5]
    assert len(events(game, "final")) == 1 and len(events(game, "end_turn")) == 5
    kinds = [e.kind for e in game.log]
    last_turn_end = max(i for i, k in enumerate(kinds) if k == "end_turn")
    assert kinds[last_turn_end + 1] == "final"
    assert len(state.history) == 5
    # Every dollar is accounted for in the log.
    assert cash_from_events(game) == [p.cash for p in state.players]
    assert result.scores == {p.name: p.cash for p in state.players}
    again = Game.replay(sd, game.record)
    assert again.state == state
    assert again.result() == result


@pytest.mark.parametrize("players", [3, 6])
def test_every_listed_action_is_legal(sd: SteelDriverRules, players: int) -> None:
    play_checked(sd, players, seed=7, check_every_choice=True)


def test_the_listed_builds_are_exactly_the_legal_ones(sd: SteelDriverRules) -> None:
    """The prompt lists every build the rules accept, and nothing else."""
    game = Game.new(sd, bot_players(4, "random"), 11)
    bots = bots_for(game, 11)
    checked = 0
    while not game.is_over():
        state: SDState = game.state
        if state.step is Step.BUILD and len(game.record.actions) % 3 == 0:
            c = state.active_company()
            seat = c.controller
            assert seat is not None
            listed = {(a.route, a.start) for a in game.prompt().choices}  # type: ignore[union-attr]
            accepted = set()
            for r in sd.map.links:
                for start in (None, r.a, r.b):
                    try:
                        game.check(BuildTrack(seat=seat, company=c.id, route=r.id, start=start))
                    except RailgamesError:
                        continue
                    accepted.add((r.id, start))
            assert listed == accepted
            checked += 1
        step_bot(game, bots)
    assert checked >= 5


def test_games_reach_the_transcontinental_link_and_the_empty_pool(sd: SteelDriverRules) -> None:
    seen = set()
    for seed in range(1, 9):
        game = play_bot_game(sd, bot_players(6, "greedy"), seed)
        seen |= {e.kind for e in game.log}
    assert {"transcontinental", "stand_ins", "claim", "payout"} <= seen


def test_what_the_rules_foretell_is_what_happens(sd: SteelDriverRules) -> None:
    """``build_outcome``, ``claim_outcome`` and ``share_payouts``, which the app shows, agree
    with what the builds, claims and the final payout then do; working them out changes nothing."""
    bonuses = 0
    for seed in (1, 2):
        game = Game.new(sd, bot_players(6, "greedy"), seed)
        bots = bots_for(game, seed)
        while not game.is_over():
            state: SDState = game.state
            prompt = game.prompt()
            assert prompt is not None
            before = copy.deepcopy(state)
            builds = {(a.route, a.start): sd.build_outcome(state, a)
                      for a in prompt.choices if isinstance(a, BuildTrack)}
            claims = {a.location: sd.claim_outcome(state, a)
                      for a in prompt.choices if isinstance(a, ClaimGoods)}
            assert state == before
            seen = len(game.log)
            action = step_bot(game, bots)
            new = {e.kind: e for e in game.log[seen:]}
            if isinstance(action, BuildTrack):
                outcome = builds[(action.route, action.start)]
                assert new["build"].data["gain"] == outcome.gain == sd.gain_of(before, action)
                assert new["build"].data["reached"] == outcome.target
                assert outcome.profit == outcome.gain + outcome.bonus
                if outcome.bonus:
                    bonuses += 1
                    made = new["transcontinental"].data
                    assert made["company"] == action.company
                    assert made["others"] == list(outcome.sharers)
                    assert made["links"] == outcome.links
                else:
                    assert "transcontinental" not in new
            elif isinstance(action, ClaimGoods):
                claim = claims[action.location]
                assert new["claim"].data["colour"] == claim.colour
                assert claim.before == set_value(before.companies[action.company].goods)
                assert claim.after == set_value(game.state.companies[action.company].goods)
        final = game.state.final
        assert final is not None
        for seat, p in enumerate(game.state.players):
            payouts = sd.share_payouts(game.state, seat)
            assert set(payouts) == {cid for cid, k in p.shares.items() if k}
            assert sum(payouts.values()) == final[p.name]["shares"]
    assert bonuses == 2  # each game makes the transcontinental link once


def test_claims_are_made_by_the_final_controller(sd: SteelDriverRules) -> None:
    game = play_bot_game(sd, bot_players(5, "random"), 4)
    controls = {e.data["company"]: e.data["seat"] for e in events(game, "final_control")}
    claims = events(game, "claim")
    assert claims
    for e in claims:
        assert e.data["seat"] == controls[e.data["company"]]
        assert e.data["location"] in game.state.companies[e.data["company"]].reached


# ---------------------------------------------------------------- bots
@pytest.mark.parametrize("players", [3, 6])
def test_greedy_games_end_and_replay(sd: SteelDriverRules, players: int) -> None:
    for seed in (1, 2):
        game = play_checked(sd, players, seed, kind="greedy")
        assert Game.replay(sd, game.record).result() == game.result()


def test_greedy_beats_random(sd: SteelDriverRules) -> None:
    wins = 0.0
    for seed in range(1, 9):
        kinds = ["greedy", "random", "random"]
        players = [PlayerSpec(name=f"P{i}", kind=k) for i, k in enumerate(kinds)]  # type: ignore[arg-type]
        result = play_bot_game(sd, players, seed).result()
        assert result is not None
        wins += ("P0" in result.winners) / len(result.winners)
    assert wins >= 5


def test_greedy_bot_builds_the_link_worth_most_per_cube(sd: SteelDriverRules) -> None:
    from steel_driver_support import begin_building, control, lay_track

    game = start_game(sd, 3)
    lay_track(game, "red", ["BAL-PIT"], "BAL")
    control(game, "red", 0, 3)
    begin_building(game, ["red"])
    prompt = game.prompt()
    assert prompt is not None
    choice = GreedyBot(1).choose(sd, game.view(0), prompt)
    # Philadelphia: $40 for one cube.
    assert choice == BuildTrack(seat=0, company="red", route="BAL-PHL")


def test_greedy_bot_claims_the_cube_that_adds_most_to_its_sets(sd: SteelDriverRules) -> None:
    from steel_driver_support import arrange_final, give_shares, lay_track

    game = start_game(sd, 3)
    lay_track(game, "red", ["BAL-PIT", "BAL-WAS"], "BAL")  # white, red, white
    give_shares(game, 0, {"red": 1})
    arrange_final(game, order=["red"])
    state: SDState = game.state
    state.companies["red"].goods = {"white": 2}
    state.pool -= 2
    prompt = game.prompt()
    assert prompt is not None
    assert GreedyBot(1).choose(sd, game.view(0), prompt) == ClaimGoods(seat=0, company="red",
                                                                       location="PIT")


def test_greedy_bot_bids_for_a_company_worth_having(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    prompt = game.prompt()
    assert prompt is not None
    choice = GreedyBot(1).choose(sd, game.view(prompt.seat), prompt)
    assert isinstance(choice, PutUp)


# ---------------------------------------------------------------- registration and the CLI
def test_registered_for_the_cli_and_in_the_launcher() -> None:
    assert "steel-driver" in GAMES
    assert isinstance(make_bot("greedy", load_ruleset("steel-driver"), 1), GreedyBot)
    assert "steel-driver" not in NOT_IN_LAUNCHER
    assert "steel-driver" in [g.id for g in playable_games()]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulate_ends_every_game_and_records_replay(players: int, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bots = "random" if players % 2 else "greedy"
    assert main(["simulate", "steel-driver", "--players", str(players), "--games", "4",
                 "--bots", bots, "--save", str(tmp_path), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert len(games) == 4 and all(g["finished"] for g in games)
    for g in games:
        path = tmp_path / f"steel-driver-{players}p-seed{g['seed']}.json"
        assert load_record(path).game == "steel-driver"
        assert main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed == {"finished": True, "scores": g["scores"], "winners": g["winners"],
                            "actions": g["actions"]}


def test_headless_commands_work_without_textual(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from railgames.cli import main\n"
        f"assert main(['simulate', 'steel-driver', '--players', '4', '--games', '1', "
        f"'--save', {str(tmp_path)!r}, '--json']) == 0\n"
        f"assert main(['replay', {str(tmp_path / 'steel-driver-4p-seed1.json')!r}]) == 0\n"
        f"assert main(['maps', 'check', {str(ROOT / 'maps' / 'steel-driver.toml')!r}]) == 0\n"
        "assert main(['rules', 'steel-driver']) == 0\n"
        "assert main(['schema', 'steel-driver']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "assert not loaded, loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Steel Driver: " in proc.stdout and "The transcontinental link" in proc.stdout


def test_a_player_can_take_back_their_own_last_action(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    seat = game.state.active
    before = game.snapshot()
    game.apply(PutUp(seat=seat, company="red"))
    assert game.undo_refusal((seat + 1) % 3) is not None  # not someone else's
    game.undo(seat)
    assert game.state == before and game.record.actions == []
