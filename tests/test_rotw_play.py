"""Railways of the World in play: random games on both boards, bots, replay and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rotw_support import check_invariants, make_ruleset

from railgames.cli import main
from railgames.core.engine import Game
from railgames.core.record import load_record
from railgames.core.simulate import bot_players, bots_for, play_bot_game, step_bot
from railgames.games import GAMES, NOT_IN_LAUNCHER, playable_games
from railgames.games.railways_of_the_world.rules import RailwaysOfTheWorldRules
from railgames.games.railways_of_the_world.state import RotwState

ROOT = Path(__file__).resolve().parents[1]
MAX_ACTIONS = 5000  # random 6-player games end near 1,300 actions; this bound means a loop
BOARDS = {"rotw-mexico": (2, 3), "rotw-eastern-us": (3, 4, 5, 6)}
CASES = [(m, n) for m, counts in BOARDS.items() for n in counts]


@pytest.fixture(scope="module")
def rulesets() -> dict[str, RailwaysOfTheWorldRules]:
    return {m: make_ruleset(m) for m in BOARDS}


def play_checked(rules: RailwaysOfTheWorldRules, players: int, seed: int, kind: str = "random",
                 options: dict[str, bool] | None = None, check_choices: int = 0) -> Game:
    """A bot game with the invariants checked after every action."""
    game = Game.new(rules, bot_players(players, kind), seed, options)
    bots = bots_for(game, seed)
    check_invariants(rules, game.state)
    while not game.is_over():
        assert len(game.record.actions) < MAX_ACTIONS, f"seed {seed}: no end"
        prompt = game.prompt()
        assert prompt is not None and (prompt.choices or prompt.amount)
        if check_choices and len(game.record.actions) % check_choices == 0:
            for action in game.legal_actions():
                game.check(action)
        step_bot(game, bots)
        check_invariants(rules, game.state)
    return game


# ---------------------------------------------------------------- random play
@pytest.mark.parametrize(("board", "players"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_the_invariants_end_and_replay(
        rulesets: dict[str, RailwaysOfTheWorldRules], board: str, players: int, seed: int) -> None:
    rules = rulesets[board]
    game = play_checked(rules, players, seed)
    state: RotwState = game.state
    result = game.result()
    assert result is not None and set(result.scores) == {p.name for p in game.players}
    assert state.end_turn is not None and state.turn == state.end_turn
    assert len(state.markers) >= rules.map.end_markers[players] or state.urbanized
    again = Game.replay(rules, game.record)
    assert again.state == game.state
    assert again.result() == result


@pytest.mark.parametrize("options", [{"first_turn_fixed": True}, {"pass_pays_half": True},
                                     {"first_turn_fixed": True, "pass_pays_half": True}])
def test_random_games_with_the_auction_options(rulesets: dict[str, RailwaysOfTheWorldRules],
                                               options: dict[str, bool]) -> None:
    rules = rulesets["rotw-eastern-us"]
    game = play_checked(rules, 4, 3, options=options)
    assert Game.replay(rules, game.record).state == game.state


def test_every_listed_action_is_legal(rulesets: dict[str, RailwaysOfTheWorldRules]) -> None:
    play_checked(rulesets["rotw-mexico"], 3, 5, check_choices=7)


@pytest.mark.parametrize(("board", "players"), CASES)
def test_greedy_games_end_and_replay(rulesets: dict[str, RailwaysOfTheWorldRules], board: str,
                                     players: int) -> None:
    rules = rulesets[board]
    game = play_checked(rules, players, 1, kind="greedy")
    assert Game.replay(rules, game.record).result() == game.result()
    state: RotwState = game.state
    # Greedy bots really play: they deliver, and someone scores above zero.
    assert sum(state.delivered.values()) >= 5
    result = game.result()
    assert result is not None and max(result.scores.values()) > 0


def test_greedy_bots_beat_random_bots(rulesets: dict[str, RailwaysOfTheWorldRules]) -> None:
    from railgames.core.record import PlayerSpec

    rules = rulesets["rotw-mexico"]
    greedy_wins = 0
    for seed in range(1, 7):
        players = [PlayerSpec(name="Gus", kind="greedy"), PlayerSpec(name="Ray", kind="random")]
        if seed % 2:
            players.reverse()
        result = play_bot_game(rules, players, seed).result()
        assert result is not None
        greedy_wins += "Gus" in result.winners
    assert greedy_wins >= 5


def test_undo_takes_back_a_tile_but_not_a_draw(rulesets: dict[str, RailwaysOfTheWorldRules]) -> None:
    rules = rulesets["rotw-mexico"]
    game = Game.new(rules, bot_players(2, "greedy"), 4)
    bots = bots_for(game, 4)
    while not any(e.kind == "lay_track" for e in game.log):
        step_bot(game, bots)
    seat = game.record.actions[-1]["seat"]
    before = Game.replay(rules, game.record, len(game.record.actions) - 1).state
    game.undo(seat)
    assert game.state == before


# ---------------------------------------------------------------- registration and the CLI
def test_registered_for_the_cli_and_in_the_launcher() -> None:
    assert "railways-of-the-world" in GAMES
    assert "railways-of-the-world" not in NOT_IN_LAUNCHER
    assert "railways-of-the-world" in [g.id for g in playable_games()]


@pytest.mark.parametrize(("board", "players"), CASES)
def test_simulate_ends_every_game_and_records_replay(board: str, players: int, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bots = "random" if players % 2 else "greedy"
    assert main(["simulate", "railways-of-the-world", "--map", board, "--players", str(players),
                 "--games", "2", "--bots", bots, "--save", str(tmp_path), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert len(games) == 2 and all(g["finished"] for g in games)
    for g in games:
        path = tmp_path / f"railways-of-the-world-{board}-{players}p-seed{g['seed']}.json"
        assert load_record(path).map == board
        assert main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed == {"finished": True, "scores": g["scores"], "winners": g["winners"],
                            "actions": g["actions"]}


def test_simulate_refuses_a_player_count_the_board_does_not_take(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "railways-of-the-world", "--map", "rotw-mexico", "--players", "4"]) == 2
    assert "2 to 3 players on the map 'rotw-mexico'" in capsys.readouterr().err
    assert main(["simulate", "railways-of-the-world", "--map", "nowhere", "--players", "3"]) == 1
    assert "no map called 'nowhere'" in capsys.readouterr().err


def test_headless_commands_work_without_textual(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from railgames.cli import main\n"
        f"assert main(['simulate', 'railways-of-the-world', '--map', 'rotw-mexico', '--players', '2',"
        f" '--games', '1', '--save', {str(tmp_path)!r}, '--json']) == 0\n"
        f"assert main(['replay', {str(tmp_path / 'railways-of-the-world-rotw-mexico-2p-seed1.json')!r}]) == 0\n"
        f"assert main(['maps', 'check', {str(ROOT / 'maps' / 'rotw-eastern-us.toml')!r}, "
        f"{str(ROOT / 'maps' / 'rotw-mexico.toml')!r}]) == 0\n"
        "assert main(['rules', 'railways-of-the-world']) == 0\n"
        "assert main(['schema', 'railways-of-the-world']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "assert not loaded, loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Railways of the World — how to play" in proc.stdout and "lay_track" in proc.stdout
