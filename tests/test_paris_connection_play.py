"""Paris Connection in play: random games, hidden holdings, bots, and the command line."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from paris_connection_support import check_invariants, make_ruleset, start_game
from support import assert_copies_like_deepcopy

from railgames.cli import main
from railgames.core.bots import RandomBot
from railgames.core.engine import Game
from railgames.core.record import load_record
from railgames.core.simulate import bot_players, bots_for, play_bot_game, step_bot
from railgames.games import GAMES, playable_games
from railgames.games.paris_connection.bots import GreedyBot
from railgames.games.paris_connection.rules import ParisConnectionRules
from railgames.games.paris_connection.state import PCState

ROOT = Path(__file__).resolve().parents[1]
MAX_ACTIONS = 1000  # random games end near 250 actions; this bound means a loop


@pytest.fixture(scope="module")
def pc() -> ParisConnectionRules:
    return make_ruleset()


def play_checked(pc: ParisConnectionRules, players: int, seed: int, kind: str = "random",
                 check_every_choice: bool = False) -> Game:
    """A bot game with the invariants checked after every action."""
    game = Game.new(pc, bot_players(players, kind), seed)
    bots = bots_for(game, seed)
    check_invariants(pc, game.state)
    while not game.is_over():
        assert len(game.record.actions) < MAX_ACTIONS, f"seed {seed}: no end"
        prompt = game.prompt()
        assert prompt is not None and prompt.choices, "a turn always offers something"
        if check_every_choice:
            for action in prompt.choices:
                game.check(action)
        step_bot(game, bots)
        check_invariants(pc, game.state)
    return game


# ---------------------------------------------------------------- random play
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_the_invariants_and_end(pc: ParisConnectionRules, players: int,
                                                  seed: int) -> None:
    game = play_checked(pc, players, seed)
    result = game.result()
    assert result is not None and set(result.scores) == {p.name for p in game.players}
    assert game.state.end_reason
    again = Game.replay(pc, game.record)
    assert again.state == game.state
    assert again.result() == result


def test_every_listed_action_is_legal(pc: ParisConnectionRules) -> None:
    play_checked(pc, 4, seed=5, check_every_choice=True)


def test_the_listed_hexes_are_exactly_the_legal_ones(pc: ParisConnectionRules) -> None:
    """The fast listing agrees with the rule checked hex by hex, all over the map."""
    game = Game.new(pc, bot_players(5, "random"), 9)
    bots = bots_for(game, 9)
    checked = 0
    while not game.is_over():
        state: PCState = game.state
        if len(game.record.actions) % 15 == 0:
            fronts = pc.frontiers(state)
            for company in pc.companies:
                assert fronts[company] == pc.frontier(state, company)
                listed = set(pc.legal_hexes(state, company, fronts))
                allowed = {h for h in pc.map.terrain
                           if pc.placement_refusal(state, company, h) is None}
                assert listed == allowed, company
            checked += 1
        step_bot(game, bots)
    assert checked >= 5


@pytest.mark.parametrize("seed", [3, 4])
def test_what_the_rules_keep_of_a_board_follows_it(pc: ParisConnectionRules, seed: int) -> None:
    """The rules keep each board's frontiers from one step to the next; at every step of a
    game, and after the board is changed behind their back, they are the board's own."""
    game = Game.new(pc, bot_players(4, "random"), seed)
    bots = bots_for(game, seed)
    while not game.is_over():
        state: PCState = game.state
        fronts = pc.frontiers(state)
        for company in pc.companies:
            assert pc.legal_hexes(state, company) == pc.legal_hexes(state, company, fronts)
        step_bot(game, bots)
    before = pc.frontiers(game.state)
    for company in pc.companies:
        pc.legal_hexes(game.state, company)
    # Swap one colour for another in a full hex, the count of locomotives unchanged.
    for here in game.state.board.values():
        if len(here) == 2:
            was = here[0]
            for other in pc.companies:
                if other not in here:
                    here[0] = other
                    if pc.frontiers(game.state) != before:
                        break
            else:
                here[0] = was
                continue
            break
    fronts = pc.frontiers(game.state)
    assert fronts != before
    for company in pc.companies:
        assert pc.legal_hexes(game.state, company) == pc.legal_hexes(game.state, company, fronts)


@pytest.mark.parametrize("players", [3, 6])
def test_greedy_games_end_and_replay(pc: ParisConnectionRules, players: int) -> None:
    for seed in (1, 2):
        game = play_checked(pc, players, seed, kind="greedy")
        assert Game.replay(pc, game.record).result() == game.result()


def test_both_ways_to_end_occur(pc: ParisConnectionRules) -> None:
    reasons = set()
    for seed in range(1, 6):
        reasons.add(play_bot_game(pc, bot_players(4, "greedy"), seed).state.end_reason)
        reasons.add(play_bot_game(pc, bot_players(4, "random"), seed).state.end_reason)
    assert any(r and "Marseille" in r for r in reasons)
    assert "only one company's supply still has locomotives" in reasons


# ---------------------------------------------------------------- hidden holdings
def midgame(pc: ParisConnectionRules, players: int = 4, seed: int = 3, actions: int = 40) -> Game:
    game = Game.new(pc, bot_players(players, "random"), seed)
    bots = bots_for(game, seed)
    for _ in range(actions):
        step_bot(game, bots)
    assert not game.is_over()
    return game


@pytest.mark.parametrize("players", [3, 6])
def test_no_view_leaks_another_seats_holdings(pc: ParisConnectionRules, players: int) -> None:
    game = midgame(pc, players)
    state: PCState = game.state
    for seat in [None, *range(players)]:
        view: PCState = game.view(seat)
        for other, p in enumerate(view.players):
            if other == seat:
                assert p.shares == state.players[other].shares
            else:
                assert p.shares is None
            assert p.held == state.players[other].held  # the count is public
        for e in view.log:
            assert e.visible_to is None or (seat is not None and seat in e.visible_to)
        assert [e for e in view.log if e.kind == "deal"] == [
            e for e in state.log if e.kind == "deal" and e.data["seat"] == seat]
        assert view.final is None
        # Nothing in the view spells out another seat's dealt hand.
        text = repr(view)
        for e in state.log:
            if e.kind == "deal" and e.data["seat"] != seat:
                assert e.text not in text
        assert game.events_for(seat) == view.log


def test_a_view_is_a_copy(pc: ParisConnectionRules) -> None:
    game = midgame(pc)
    before = copy.deepcopy(game.state)
    view = game.view(0)
    assert view.players[0].shares is not None
    view.players[0].shares.clear()
    view.board.clear()
    view.supply["red"] = -5
    view.log.clear()
    assert game.state == before


def holdings_from_the_log(game: Game) -> list[dict[str, int]]:
    """Each seat's holdings worked out from its secret deal and the public trades since."""
    held: list[dict[str, int]] = [{} for _ in game.players]
    for e in game.state.log:
        if e.kind == "deal":
            held[e.data["seat"]] = dict(e.data["shares"])
        elif e.kind == "trade":
            mine = held[e.data["seat"]]
            mine[e.data["give"]] -= 1
            mine[e.data["take"]] = mine.get(e.data["take"], 0) + e.data["count"]
    return [{c: k for c, k in h.items() if k} for h in held]


def test_everything_is_revealed_at_the_end(pc: ParisConnectionRules) -> None:
    game = play_bot_game(pc, bot_players(3, "random"), 4)
    assert any(e.kind == "trade" for e in game.state.log), "a game with trades, to follow them"
    expected = holdings_from_the_log(game)
    assert all(sum(h.values()) == p.held for h, p in zip(expected, game.state.players, strict=True))
    for seat in (None, 0, 1, 2):
        # Every screen is lifted: each seat sees every holding, in its view and in the log.
        assert [p.shares for p in game.view(seat).players] == expected
        reveals = [e for e in game.events_for(seat) if e.kind == "reveal"]
        assert [e.data["seat"] for e in reveals] == [0, 1, 2]
        assert [e.data["shares"] for e in reveals] == expected
        final = game.result()
        assert final is not None
        assert [e.data["points"] for e in reveals] == [final.scores[p.name] for p in game.players]


def swapped_twin(game: Game, seat: int) -> Game | None:
    """The same game with two other seats' hidden holdings swapped (same counts), if they differ."""
    others = [s for s in range(len(game.players)) if s != seat]
    state: PCState = game.state
    for a in others:
        for b in others:
            pa, pb = state.players[a], state.players[b]
            if a < b and pa.held == pb.held and pa.shares != pb.shares:
                twin = Game(game.ruleset, game.record.model_copy(deep=True), copy.deepcopy(state))
                ta, tb = twin.state.players[a], twin.state.players[b]
                ta.shares, tb.shares = tb.shares, ta.shares
                return twin
    return None


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_a_bot_decides_on_its_own_view_only(pc: ParisConnectionRules, kind: str) -> None:
    compared = 0
    for seed in range(1, 6):
        game = Game.new(pc, bot_players(4, kind), seed)
        bots = bots_for(game, seed)
        for step in range(60):
            if game.is_over():
                break
            seat = game.ruleset.to_move(game.state)
            assert seat is not None
            twin = swapped_twin(game, seat)
            if twin is not None and step % 3 == 0:
                assert twin.state != game.state
                assert twin.view(seat) == game.view(seat)
                assert twin.prompt() == game.prompt()
                picks = []
                for g in (game, twin):
                    bot = GreedyBot(seed * 31 + step) if kind == "greedy" else RandomBot(seed * 31 + step)
                    prompt = g.prompt()
                    assert prompt is not None
                    picks.append(bot.choose(pc, g.view(seat), prompt))
                assert picks[0] == picks[1]
                compared += 1
            step_bot(game, bots)
    assert compared >= 20


def test_the_greedy_bot_builds_what_it_holds(pc: ParisConnectionRules) -> None:
    game = start_game(pc, 3, seed=2)
    seat = game.ruleset.to_move(game.state)
    assert seat is not None
    state: PCState = game.state
    state.players[seat].shares = {"green": 10}  # arranged: all green, and Orléans is next door
    state.players[seat].held = 10
    prompt = game.prompt()
    assert prompt is not None
    choice = GreedyBot(1).choose(pc, game.view(seat), prompt)
    assert choice.type == "build" and choice.company == "green"
    assert tuple(choice.hex) == (9, 7)


# ---------------------------------------------------------------- registration and the CLI
def test_registered_for_the_cli_and_in_the_launcher() -> None:
    assert "paris-connection" in GAMES
    assert "paris-connection" in [g.id for g in playable_games()]
    assert "new-england" in [g.id for g in playable_games()]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulate_ends_every_game_and_records_replay(players: int, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bots = "random" if players % 2 else "greedy"
    assert main(["simulate", "paris-connection", "--players", str(players), "--games", "5",
                 "--bots", bots, "--save", str(tmp_path), "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert len(games) == 5 and all(g["finished"] for g in games)
    for g in games:
        path = tmp_path / f"paris-connection-{players}p-seed{g['seed']}.json"
        assert load_record(path).game == "paris-connection"
        assert main(["replay", str(path), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed == {"finished": True, "scores": g["scores"], "winners": g["winners"],
                            "actions": g["actions"]}


def test_headless_commands_work_without_textual(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from railgames.cli import main\n"
        f"assert main(['simulate', 'paris-connection', '--players', '5', '--games', '2', "
        f"'--save', {str(tmp_path)!r}, '--json']) == 0\n"
        f"assert main(['replay', {str(tmp_path / 'paris-connection-5p-seed1.json')!r}]) == 0\n"
        f"assert main(['maps', 'check', {str(ROOT / 'maps' / 'paris-connection.toml')!r}]) == 0\n"
        "assert main(['rules', 'paris-connection']) == 0\n"
        "assert main(['schema', 'paris-connection']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "assert not loaded, loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Paris Connection: " in proc.stdout and "Cut off" in proc.stdout


@pytest.mark.parametrize("seed", [1, 2])
def test_a_copied_state_is_a_deep_copy(pc: ParisConnectionRules, seed: int) -> None:
    """The state and a seat's view copy themselves quickly (a search copies them on every
    iteration), yet each copy is the one ``copy.deepcopy`` would make."""
    game = Game.new(pc, bot_players(4, "random"), seed)
    bots = bots_for(game, seed)
    while True:
        if len(game.record.actions) % 5 == 0 or game.is_over():
            assert_copies_like_deepcopy(game.state)
            assert_copies_like_deepcopy(game.view(1))
        if game.is_over():
            break
        step_bot(game, bots)


def test_pickled_rules_leave_what_they_keep_behind(pc: ParisConnectionRules) -> None:
    """A bot's think takes its rules to a worker process and back: what the rules keep
    from play (listed builds and trades, frontiers) stays behind, and the copy plays the same."""
    import pickle

    rules = make_ruleset()
    fresh = len(pickle.dumps(rules))
    game = Game.new(rules, bot_players(4, "random"), 3)
    bots = bots_for(game, 3)
    states = []
    while not game.is_over():
        if len(game.record.actions) % 10 == 0:
            states.append(copy.deepcopy(game.state))
        step_bot(game, bots)
    data = pickle.dumps(rules)
    assert len(data) <= fresh + 100  # as small as the rules fresh from their map
    again = pickle.loads(data)
    for state in states:
        assert again.prompt(state) == rules.prompt(state)
