"""Taking back a move: your own last decision, with the bots' answers to it, never past chance."""

from __future__ import annotations

import copy

import pytest

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction
from railgames.core.record import PlayerSpec, load_record
from railgames.core.simulate import bots_for, step_bot
from railgames.games import load_ruleset
from railgames.tables.local import Session

HUMAN_AND_BOTS = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"),
                  PlayerSpec(name="Cat", kind="greedy")]


def to_move(game: Game) -> int:
    seat = game.ruleset.to_move(game.state)
    assert seat is not None
    return seat


def bots_until_ann(game: Game, bots: list) -> None:
    while to_move(game) != 0:
        step_bot(game, bots)


def ann_decides(game: Game) -> tuple[int, object]:
    """Ann answers until the turn passes; the record length and state before her last decision."""
    while True:
        count, state = len(game.record.actions), copy.deepcopy(game.state)
        game.apply(game.legal_actions()[0])
        if to_move(game) != 0:
            return count, state


@pytest.mark.parametrize("game_id", ["paris-connection", "steel-driver"])
def test_undo_takes_back_your_decision_and_the_bots_answers(game_id: str) -> None:
    game = Game.new(load_ruleset(game_id), HUMAN_AND_BOTS, seed=3)
    bots = bots_for(game, 3)
    bots_until_ann(game, bots)
    count, before = ann_decides(game)
    actions = list(game.record.actions[:count])
    bots_until_ann(game, bots)
    assert len(game.record.actions) > count + 1, "the bots should have moved after Ann"
    assert game.undo_refusal(0) is None
    game.undo(0)
    assert game.record.actions == actions
    assert game.state == before and to_move(game) == 0


def test_undo_against_bots_restores_the_game_before_your_last_decision() -> None:
    game = Game.new(load_ruleset("paris-connection"), HUMAN_AND_BOTS, seed=3)
    bots = bots_for(game, 3)
    bots_until_ann(game, bots)
    decided_at = len(game.record.actions)
    expected = Game.replay(game.ruleset, game.record).state
    game.apply(game.legal_actions()[-1])  # a trade ends Ann's turn at once
    assert to_move(game) != 0
    bots_until_ann(game, bots)
    assert len(game.record.actions) > decided_at + 1
    game.undo(0)
    assert len(game.record.actions) == decided_at
    assert game.state == expected


def test_undo_against_bots_never_goes_back_past_a_roll() -> None:
    ne = load_ruleset("new-england")
    game = Game.new(ne, HUMAN_AND_BOTS, seed=1)
    bots = bots_for(game, 1)
    # Loans go round once; the last loan decision leads to growth draws (chance).
    while game.state.step.value == "loans":
        if to_move(game) == 0:
            game.apply({"type": "borrow", "seat": 0, "amount": 0})
        else:
            step_bot(game, bots)
    bots_until_ann(game, bots)
    reason = game.undo_refusal(0)
    assert reason is not None and "dice roll or a draw" in reason
    actions = list(game.record.actions)
    with pytest.raises(IllegalAction, match="cannot undo"):
        game.undo(0)
    assert game.record.actions == actions


def test_a_human_never_takes_back_a_move_another_human_made_since() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"), PlayerSpec(name="Cat")]
    game = Game.new(load_ruleset("paris-connection"), players, seed=3)
    bots = bots_for(game, 3)
    while to_move(game) != 0:
        seat = to_move(game)
        game.apply(game.legal_actions()[-1]) if seat == 2 else step_bot(game, bots)
    game.apply(game.legal_actions()[-1])  # Ann trades
    while to_move(game) != 2:
        step_bot(game, bots)
    assert game.undo_refusal(0) is None  # only a bot has answered so far
    game.apply(game.legal_actions()[-1])  # Cat, a person, trades
    reason = game.undo_refusal(0)
    assert reason is not None and "not yours" in reason and "Cat" in reason


def test_the_session_takes_back_against_bots_and_the_bots_play_on(tmp_path) -> None:
    session = Session(Game.new(load_ruleset("steel-driver"), HUMAN_AND_BOTS, seed=2),
                      save_path=tmp_path / "game.json")
    while session.bot_to_move():
        session.bot_step()
    count, _ = ann_decides(session.game)
    while session.bot_to_move():
        session.bot_step()
    assert len(session.game.record.actions) > count + 1
    session.undo(0)
    assert len(session.game.record.actions) == count
    assert not session.bot_to_move()
    assert load_record(session.save_path).actions == session.game.record.actions
