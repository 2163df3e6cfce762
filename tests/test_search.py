"""The search bot: it plays only legal moves, keeps to its budget, never peeks, and repeats itself.

Strength is measured by benchmarks/bot_strength.py, not here; these tests use
tiny iteration budgets so that they stay quick.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from support import NAMES

from railgames.core.bots import make_bot
from railgames.core.engine import Game
from railgames.core.events import EventLog
from railgames.core.record import PlayerSpec
from railgames.core.rng import Chance
from railgames.core.search import Budget, Cancelled, SearchBot, strength_of
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

GAMES = [
    ("new-england", None, 3),
    ("paris-connection", None, 4),
    ("steel-driver", None, 3),
    ("railways-of-the-world", "rotw-mexico", 2),
    ("american-rails", None, 3),
]


def search_bot(ruleset: Any, seed: int = 5, iterations: int = 6) -> SearchBot:
    return SearchBot(ruleset.bot_makers()["search"], seed, budget=Budget(seconds=None, iterations=iterations))


def midgame(game_id: str, map_id: str | None, players: int, seed: int = 3, part: float = 0.4) -> Game:
    """A game of greedy bots replayed to ``part`` of its length, at a decision with a real choice."""
    ruleset = load_ruleset(game_id, map_id)
    done = play_bot_game(ruleset, bot_players(players, "greedy"), seed)
    upto = int(len(done.record.actions) * part)
    while True:
        game = Game.replay(ruleset, done.record, upto)
        if len(ruleset.legal_actions(game.state)) > 1:
            return game
        upto += 1


@pytest.mark.parametrize(("game_id", "map_id", "players"), GAMES)
def test_search_bot_plays_only_legal_moves(game_id: str, map_id: str | None, players: int) -> None:
    """Every move the search bot makes goes through the rules engine, which would refuse an illegal one."""
    game = midgame(game_id, map_id, players)
    ruleset = game.ruleset
    bots = [search_bot(ruleset, seed=i, iterations=4) for i in range(players)]
    searched = 0
    for _ in range(40):
        prompt = game.prompt()
        if prompt is None:
            break
        bot = bots[prompt.seat]
        action = bot.choose(ruleset, game.view(prompt.seat), prompt)
        game.apply(action)  # raises IllegalAction if the bot chose wrongly
        searched += bool(bot.last and bot.last.iterations)
    assert searched >= 5


@pytest.mark.parametrize(("game_id", "map_id", "players"), GAMES)
def test_search_keeps_to_an_iteration_budget_and_repeats_itself(game_id: str, map_id: str | None,
                                                                players: int) -> None:
    game = midgame(game_id, map_id, players)
    prompt = game.prompt()
    assert prompt is not None
    choices = []
    for _ in range(2):
        bot = search_bot(game.ruleset, seed=11, iterations=9)
        choices.append(bot.choose(game.ruleset, game.view(prompt.seat), prompt))
        assert bot.last is not None and bot.last.iterations == 9
        assert sum(bot.last.visits.values()) == 9
    assert choices[0] == choices[1]


def test_search_stops_when_its_time_is_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget ends the search once the clock passes it (a clock made for the test)."""
    import railgames.core.search as search

    now = [0.0]

    def clock() -> float:
        now[0] += 0.01  # every look at the clock finds 10 ms gone
        return now[0]

    monkeypatch.setattr(search.time, "perf_counter", clock)
    game = midgame("new-england", None, 3)
    prompt = game.prompt()
    assert prompt is not None
    bot = SearchBot(game.ruleset.bot_makers()["search"], 1, budget=Budget(seconds=0.1))
    bot.choose(game.ruleset, game.view(prompt.seat), prompt)
    assert bot.last is not None
    assert 9 <= bot.last.iterations <= 11  # 0.1 s at 10 ms a look, give or take rounding


def paris_turn(seed: int = 2) -> Game:
    game = midgame("paris-connection", None, 4, seed=seed, part=0.3)
    while game.state.step.value != "turn":
        prompt = game.prompt()
        assert prompt is not None
        game.apply(prompt.choices[0])
    return game


def test_search_never_peeks_at_other_holdings() -> None:
    """Swap two other players' holdings (their counts stay public): the same seed chooses the same."""
    game = paris_turn()
    ruleset = game.ruleset
    prompt = game.prompt()
    assert prompt is not None
    me = prompt.seat
    first = search_bot(ruleset, seed=8, iterations=12).choose(ruleset, game.view(me), prompt)
    others = [i for i in range(4) if i != me]
    state = game.state
    a, b = others[0], others[1]
    changed = copy.deepcopy(state)
    # Hand a the whole of b's holding and b the whole of a's, keeping each one's count:
    # pour both into one pile and deal it back in the other order.
    pile = [c for s in (b, a) for c, k in sorted(state.players[s].shares.items()) for _ in range(k)]
    for s in (a, b):
        take, pile = pile[:state.players[s].held], pile[state.players[s].held:]
        changed.players[s].shares = {c: take.count(c) for c in sorted(set(take))}
    assert changed.players[a].shares != state.players[a].shares
    game.state = changed
    second = search_bot(ruleset, seed=8, iterations=12).choose(ruleset, game.view(me), prompt)
    assert second == first


def test_search_never_peeks_at_future_draws_or_deck_order() -> None:
    """The real game's dice and the face-down decks' order do not change the choice."""
    game = midgame("new-england", None, 3, part=0.3)
    ruleset = game.ruleset
    prompt = game.prompt()
    assert prompt is not None
    first = search_bot(ruleset, seed=4, iterations=12).choose(ruleset, game.view(prompt.seat), prompt)
    changed = copy.deepcopy(game.state)
    changed.chance = Chance(987654)
    changed.link_deck.reverse()
    changed.growth_deck.reverse()
    second = search_bot(ruleset, seed=4, iterations=12).choose(ruleset, ruleset.view(changed, prompt.seat),
                                                                prompt)
    assert second == first


def test_paris_determinization_deals_the_unseen_by_public_counts() -> None:
    """Each other player is dealt exactly as many locomotives as it is known to hold."""
    import random

    game = paris_turn()
    ruleset = game.ruleset
    me = game.prompt().seat  # type: ignore[union-attr]
    hooks = ruleset.bot_makers()["search"](0)
    view = game.view(me)
    for seed in range(5):
        dealt = hooks.determinize(view, me, random.Random(seed))
        for seat, p in enumerate(dealt.players):
            assert sum(p.shares.values()) == game.state.players[seat].held
        assert dealt.players[me].shares == game.state.players[me].shares
        totals = {c: sum(p.shares.get(c, 0) for p in dealt.players) for c in ruleset.companies}
        assert totals == {c: sum(p.shares.get(c, 0) for p in game.state.players) for c in ruleset.companies}


def test_american_rails_evaluation_counts_dividends_to_the_expected_end() -> None:
    """Low supplies bring the end near; unsold shares dilute a company's income."""
    game = midgame("american-rails", None, 4, part=0.5)
    ruleset = game.ruleset
    hooks = ruleset.bot_makers()["search"](0)
    state = copy.deepcopy(game.state)
    assert not state.prep
    left = hooks.dividends_left(state)
    assert 1.0 <= left <= 1857 - state.year + 1
    # Every supply down to its last cubes: this round's dividend is the last.
    for c in state.company_list():
        c.supply = min(c.supply, 1)
    state.dev_supply = 0
    assert hooks.dividends_left(state) == 1.0
    # A company's worth to its holders falls when more of its shares are still to be sold.
    state = copy.deepcopy(game.state)
    seat, company = next((s, c) for s, p in enumerate(state.players) for c, k in p.shares.items()
                         if k and state.companies[c].income)
    before = hooks.evaluate(state)[seat]
    state.companies[company].shares_left += 3
    assert hooks.evaluate(state)[seat] < before


def test_new_england_playouts_end_at_the_same_turn_start_whatever_the_move() -> None:
    """Every playout from a decision stops at one turn start (or the end), so candidate
    moves are scored at the same point of the game; other games keep their fixed depth."""
    import random

    from railgames.core.search import MCTS
    from railgames.games.new_england.state import Step

    for part in (0.2, 0.5):
        game = midgame("new-england", None, 4, part=part)
        ruleset = game.ruleset
        prompt = game.prompt()
        assert prompt is not None
        hooks = ruleset.bot_makers()["search"](0)
        view = game.view(prompt.seat)
        mark = hooks.horizon(view)
        shipping = view.step is Step.SHIP
        assert mark == view.turn + (2 if shipping else 1)
        search = MCTS(hooks, Budget(seconds=None, iterations=1))
        search._mark = mark
        for i, move in enumerate(hooks.candidates(view, prompt)[:4]):
            state = hooks.determinize(view, prompt.seat, random.Random(i))
            ruleset.execute(state, move, EventLog([], 0))
            scores, winners = search._playout(state, random.Random(i))
            if winners is None:
                assert state.turn == mark and state.step is Step.LOANS
                assert state.pending == state.seat_order()
            assert len(scores) == 4
    # Other games set no horizon: their playouts keep their fixed depth.
    steel = load_ruleset("steel-driver").bot_makers()["search"](0)
    assert steel.horizon(object()) is None


def test_new_england_evaluation_rewards_income_and_links() -> None:
    """A point of income or one more link is worth more than its face value for the turns left."""
    game = midgame("new-england", None, 4, part=0.3)
    hooks = game.ruleset.bot_makers()["search"](0)
    state = copy.deepcopy(game.state)
    before = hooks.evaluate(state)
    state.railways[0].income += 1
    after = hooks.evaluate(state)
    assert after[0] - before[0] > 1 and after[1:] == before[1:]
    spare = next(link for link in state.link_deck)
    state.railways[1].links.append(spare)
    value = game.ruleset.link_value(spare)
    assert hooks.evaluate(state)[1] - after[1] > value


def test_search_strengths_and_kinds() -> None:
    ruleset = load_ruleset("steel-driver")
    assert strength_of("search") == "normal"
    assert strength_of("search:hard") == "hard"
    assert strength_of("greedy") is None
    seconds = {kind: make_bot(kind, ruleset, 1).budget.seconds  # type: ignore[attr-defined]
               for kind in ("search:easy", "search", "search:hard")}
    assert seconds == {"search:easy": 0.3, "search": 1.0, "search:hard": 2.0}
    PlayerSpec(name="Ada", kind="search:hard")  # a record can name every strength


def test_a_search_bot_travels_to_a_worker_process_and_back() -> None:
    ruleset = load_ruleset("paris-connection")
    bot = make_bot("search", ruleset, 3)
    again = pickle.loads(pickle.dumps(bot))
    assert again.kind == "search"
    assert not again.search.cancel.is_set()  # type: ignore[attr-defined]


def test_a_stopped_search_raises_cancelled() -> None:
    game = midgame("steel-driver", None, 3)
    prompt = game.prompt()
    assert prompt is not None
    bot = search_bot(game.ruleset, iterations=1000)
    bot.stop()
    with pytest.raises(Cancelled):
        bot.choose(game.ruleset, game.view(prompt.seat), prompt)
    bot.resume()
    bot.budget.iterations = 3
    bot.choose(game.ruleset, game.view(prompt.seat), prompt)


def test_session_applies_a_think_only_if_the_game_has_not_moved_on(tmp_path: Any) -> None:
    """The app's bot worker: a choice made for an old position is dropped, not applied."""
    from railgames.tables.local import Session

    players = [PlayerSpec(name=NAMES[0]), PlayerSpec(name="Ada", kind="search:easy"),
               PlayerSpec(name="Ben", kind="greedy")]
    session = Session.new("steel-driver", players, 7, autosave=False)
    session.bots[1] = search_bot(session.ruleset, iterations=3)
    while not session.bot_thinks_long():
        prompt = session.prompt()
        assert prompt is not None
        if session.is_bot(prompt.seat):
            session.bot_step()
        else:
            session.apply(prompt.choices[0] if prompt.choices else session.ruleset.legal_actions(session.state)[0],
                          save=False)
    think = session.prepare_think()
    assert think is not None
    action = think.run()
    count = len(session.game.record.actions)
    assert session.finish_think(think, action)
    assert len(session.game.record.actions) == count + 1
    assert not session.finish_think(think, action)  # that position is gone
    assert len(session.game.record.actions) == count + 1


def test_a_host_table_seats_search_bots_that_think_in_a_worker_process(tmp_path: Any) -> None:
    import asyncio

    from railgames.net.service import TableService
    from railgames.net.tables import Login, Member

    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=1)
    try:
        ann = Member(login=Login(name="ann", key=None, peer="127.0.0.1:1"), send=lambda message: None)
        table = service.create(ann, "paris-connection", seats=3, humans=1, bot_kind="search:easy")
        game = table.game
        assert game is not None
        assert [p.kind for p in game.players][1:] == ["search:easy", "search:easy"]

        async def until_bots_have_moved() -> None:
            while game.prompt().seat != 0 or not any(a["seat"] != 0 for a in game.record.actions):
                if game.prompt().seat == 0:
                    service.act(ann, game.legal_actions()[-1].model_dump(mode="json"))
                await service.run_bots(table)

        asyncio.run(asyncio.wait_for(until_bots_have_moved(), 120))
        assert any(a["seat"] != 0 for a in game.record.actions)
    finally:
        service.close()
