"""What the American Rails tests share: games, arranged positions, invariants.

Facts of the shipped map the tests rely on ([column, row] of hexes): St. Louis
STL [1, 6] with plains at [1, 7], [0, 6], [0, 5] and [1, 5] and forest at
[2, 6]; [1, 8] is forest and touches [1, 7]; Cincinnati CIN [6, 5] with plains
at [5, 5] and [7, 4]; Buffalo BUF [12, 1] with plains at [13, 1]; Atlanta ATL
[7, 12] with plains at [7, 13] and a mountain at [6, 11]; Pittsburgh PIT
[11, 4] with a mountain at [12, 4]; New York NYC (8 / 5) touches Philadelphia
PHI; Chicago CHI [3, 2].
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from support import NAMES

from railgames.core.engine import Game
from railgames.core.events import EventLog
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.american_rails.actions import Bid, OfferShare, PassBid, PlaceStart
from railgames.games.american_rails.rules import AmericanRailsRules
from railgames.games.american_rails.state import ARState, Step

COMPANIES = ["american", "national", "continental", "majestic", "liberty", "republic"]


def make_ruleset() -> AmericanRailsRules:
    rules = load_ruleset("american-rails")
    assert isinstance(rules, AmericanRailsRules)
    return rules


def start_game(rules: AmericanRailsRules, players: int | Sequence[str] = 3, seed: int = 1) -> Game:
    names = NAMES[:players] if isinstance(players, int) else list(players)
    return Game.new(rules, [PlayerSpec(name=n) for n in names], seed)


def quiet_prep(game: Game, starts: Sequence[str] | None = None) -> Game:
    """Play the preparation round: the picker offers the first company left and bids $10,
    everyone else passes, and each company starts on the next city of ``starts``
    (else the first empty city)."""
    starts = list(starts or [])
    state: ARState = game.state
    for _ in range(200):
        if not state.prep:
            return game
        prompt = game.prompt()
        assert prompt is not None
        seat = prompt.seat
        if state.step is Step.OFFER:
            game.apply(next(a for a in prompt.choices if isinstance(a, OfferShare)))
        elif state.step is Step.BID:
            assert state.auction is not None
            if seat == state.auction.auctioneer and state.auction.high_seat is None:
                game.apply(Bid(seat=seat, amount=10))
            else:
                game.apply(PassBid(seat=seat))
        elif state.step is Step.START:
            city = starts.pop(0) if starts else prompt.choices[0].city
            game.apply(PlaceStart(seat=seat, city=city))
    raise AssertionError("the preparation round never ended")


def play_until(game: Game, done: Callable[[Game], bool], policy: Callable[[Game], Any],
               limit: int = 3000) -> Game:
    for _ in range(limit):
        if done(game):
            return game
        game.apply(policy(game))
    raise AssertionError("the condition was never reached")


# ---------------------------------------------------------------- arranging positions
def clear_board(game: Game) -> None:
    """Take every cube off the map (back to the supplies) and every share back from the players."""
    state: ARState = game.state
    for c in state.companies.values():
        if not c.in_game:
            continue
        c.supply += len(c.hexes)
        c.hexes = []
        c.specials = []
        c.income = 0
        c.shares_left += sum(p.shares.get(c.id, 0) for p in state.players)
    for p in state.players:
        p.shares = {}
    state.hexes = {}
    state.developed = set()


def lay(game: Game, company: str, *where: str | tuple[int, int]) -> None:
    """Put cubes of ``company`` on cities (by id) or hexes ([column, row]) as if placed
    earlier: income follows the rules, the cost is refunded from the bank."""
    rules: AmericanRailsRules = game.ruleset  # type: ignore[assignment]
    state: ARState = game.state
    for w in where:
        h = rules.map.city_hex[w] if isinstance(w, str) else rules.map.hex_of(*w)
        cost = rules.cube_cost(state, h)
        state.companies[company].treasury += cost
        state.bank_out += cost
        rules.expand.place_cube(state, 0, company, h, EventLog([], 0))


def develop(game: Game, city: str) -> None:
    """Put a development marker on ``city`` as if placed earlier (incomes follow the rules)."""
    rules: AmericanRailsRules = game.ruleset  # type: ignore[assignment]
    rules.track.develop(game.state, 0, city, EventLog([], 0))


def give(game: Game, seat: int, company: str, k: int = 1) -> None:
    state: ARState = game.state
    c = state.companies[company]
    assert c.shares_left >= k
    c.shares_left -= k
    state.players[seat].shares[company] = state.players[seat].shares.get(company, 0) + k


def fund(game: Game, company: str, amount: int) -> None:
    """Give a company's treasury exactly ``amount`` (the bank makes up the difference)."""
    state: ARState = game.state
    c = state.companies[company]
    state.bank_out += amount - c.treasury
    c.treasury = amount


def set_money(game: Game, seat: int, amount: int) -> None:
    state: ARState = game.state
    state.bank_out += amount - state.players[seat].money
    state.players[seat].money = amount


def my_turn(game: Game, seat: int) -> None:
    """Make ``seat`` the next to choose in the current action phase."""
    state: ARState = game.state
    assert state.step is Step.CHOOSE
    order = [s for s in state.phase_order if s != seat]
    state.phase_order = order[:state.phase_pos] + [seat] + order[state.phase_pos:]
    state.acting = seat


def events(game: Game, kind: str) -> list[Any]:
    return [e for e in game.log if e.kind == kind]


# ---------------------------------------------------------------- checks
def check_invariants(rules: AmericanRailsRules, state: ARState) -> None:
    """Money, cubes, shares and markers conserved; income as the board gives it; board rules kept."""
    assert state.money_in_play() == state.bank_out
    for p in state.players:
        assert p.money >= 0
        for cid, k in p.shares.items():
            assert k > 0 and state.companies[cid].in_game
    on_board: dict[str, int] = {}
    for h, here in state.hexes.items():
        assert len(set(here)) == len(here), "two cubes of one colour in a hex"
        if rules.map.terrain[h] in ("forest", "mountain"):
            assert len(here) <= 1
        for cid in here:
            on_board[cid] = on_board.get(cid, 0) + 1
    for c in state.companies.values():
        assert c.treasury >= 0 and c.supply >= 0 and c.shares_left >= 0
        held = sum(p.shares.get(c.id, 0) for p in state.players)
        if not c.in_game:
            assert not c.hexes and held == 0 and c.treasury == 0
            continue
        assert held + c.shares_left + c.shares_removed == c.shares
        assert c.supply + len(c.hexes) + 1 == c.cubes  # one cube marks the income
        assert on_board.get(c.id, 0) == len(c.hexes)
        assert c.income == rules.board_income(state, c.id), c.id
        # One network: every cube joins the first one.
        if c.hexes:
            seen = {c.hexes[0]}
            frontier = [c.hexes[0]]
            own = set(c.hexes)
            while frontier:
                h = frontier.pop()
                for n in rules.map.links[h]:
                    if n in own and n not in seen:
                        seen.add(n)
                        frontier.append(n)
            assert seen == own, f"{c.id} has two separate networks"
    assert state.dev_supply + len(state.developed) == rules.map.development_markers
    for city in state.developed:
        assert not rules.map.city_by_id[city].never_develop
        assert state.hexes.get(rules.map.city_hex[city])
    for column in state.columns:
        assert len(set(column.values())) == len(column)
