"""What the Steel Driver tests share: games, arranged positions, invariants.

Facts of the shipped map the tests rely on (location ids): San Francisco SFO
and New York NYC are the transcontinental ends; SFO, LAX, CHI, STL, NOL, ATL,
BAL and NYC are starting locations; Baltimore-Pittsburgh (BAL-PIT) costs 3 and
Pittsburgh is worth $40, Baltimore $30; the routes of the transcontinental
example exist: DEN-OMA and DEN-KCY (5 each), OMA-CRA, CRA-DBQ, DBQ-CHI,
OMA-DSM, KCY-DSM, DSM-DAV, DAV-CHI, KCY-STL, SPI-STL, PEO-SPI, PEO-CHI,
CHI-TOL, TOL-CLE, CLE-BUF, BUF-NYC, BUF-SYR, SYR-ALB, ALB-NYC, and a western
line SFO-SAC (1), SAC-REN (3), REN-SLC, SLC-DEN; every route leaving SFO, SAC
or REN other than those two costs 4 or more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from support import NAMES

from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.steel_driver.actions import PassBid, PassMarker
from railgames.games.steel_driver.rules import SteelDriverRules
from railgames.games.steel_driver.state import SDState, Step

COMPANIES = ["red", "blue", "green", "yellow", "black", "purple"]
TOTAL_CUBES = 86  # 60 investment cubes and 26 goods cubes
SHARES = 5


def make_ruleset() -> SteelDriverRules:
    rules = load_ruleset("steel-driver")
    assert isinstance(rules, SteelDriverRules)
    return rules


def start_game(rules: SteelDriverRules, players: int | Sequence[str] = 3, seed: int = 1) -> Game:
    names = NAMES[:players] if isinstance(players, int) else list(players)
    return Game.new(rules, [PlayerSpec(name=n) for n in names], seed)


# ---------------------------------------------------------------- playing forward
def quiet_action(game: Game) -> Any:
    """Do as little as the rules allow: pass the marker, pass in auctions, first listed choice."""
    prompt = game.prompt()
    assert prompt is not None
    seat = prompt.seat
    step = game.state.step
    if step is Step.AUCTION:
        return PassMarker(seat=seat)
    if step is Step.OPENING:
        return {"type": "bid", "seat": seat, "amount": 1}
    if step is Step.BIDDING:
        return PassBid(seat=seat)
    return prompt.choices[0]


def play_until(game: Game, done: Callable[[Game], bool],
               policy: Callable[[Game], Any] = quiet_action, limit: int = 2000) -> Game:
    for _ in range(limit):
        if done(game):
            return game
        game.apply(policy(game))
    raise AssertionError("the condition was never reached")


def pass_auctions(game: Game) -> None:
    """Everyone passes the marker until the auctions end."""
    play_until(game, lambda g: g.state.step is not Step.AUCTION)


# ---------------------------------------------------------------- arranging positions
def lay_track(game: Game, company: str, routes: Iterable[str], start: str) -> None:
    """Give ``company`` this track (built from ``start``) as if built earlier, without profit."""
    rules: SteelDriverRules = game.ruleset  # type: ignore[assignment]
    state: SDState = game.state
    c = state.companies[company]
    routes = list(routes)
    for rid in routes:
        assert rid not in state.track, f"{rid} is already built"
        state.track[rid] = company
    c.links.extend(routes)
    c.start = c.start or start
    reached = list(c.reached) or [start]
    grew = True
    while grew:
        grew = False
        for rid in c.links:
            r = rules.route(rid)
            for here, there in ((r.a, r.b), (r.b, r.a)):
                if here in reached and there not in reached:
                    reached.append(there)
                    grew = True
    ends = {end for rid in c.links for end in (rules.route(rid).a, rules.route(rid).b)}
    assert set(reached) == ends, f"{company}'s track is not one network from {start}"
    c.reached = reached


def control(game: Game, company: str, seat: int, cubes: int) -> None:
    """Hand ``seat`` control of ``company`` this turn, with ``cubes`` in its box (from the pool)."""
    state: SDState = game.state
    c = state.companies[company]
    state.pool += c.cubes - cubes
    assert state.pool >= 0
    c.cubes = cubes
    if not c.auctioned:
        c.auctioned = True
        c.shares_left -= 1
        state.players[seat].shares[company] = state.players[seat].shares.get(company, 0) + 1
    c.controller = seat
    c.last_controller = seat


def begin_building(game: Game, order: Sequence[str] | None = None, active: str | None = None) -> None:
    """Jump to the Build Track phase with ``order`` as the order of play."""
    state: SDState = game.state
    state.auction = None
    state.step = Step.BUILD
    if order is not None:
        state.order = list(order) + [c for c in COMPANIES if c not in order]
    state.passed = []
    state.cursor = state.order.index(active) if active else 0
    assert state.active_company().controller is not None, "the active company needs a controller"


def set_cubes(game: Game, seat: int, cubes: int) -> None:
    """Give a player exactly ``cubes``, to or from the pool."""
    state: SDState = game.state
    state.pool += state.players[seat].cubes - cubes
    assert state.pool >= 0
    state.players[seat].cubes = cubes


# ---------------------------------------------------------------- checks
def events(game: Game, kind: str) -> list[Any]:
    return [e for e in game.log if e.kind == kind]


def cash_from_events(game: Game) -> list[int]:
    """Each seat's cash, added up from the log's money events."""
    cash = [0] * len(game.players)
    for e in game.log:
        if "cash" in e.data:
            cash[e.data["seat"]] += e.data["cash"]
    return cash


def check_invariants(rules: SteelDriverRules, state: SDState) -> None:
    """Cubes and shares conserved, track one network per company, nothing negative."""
    goods_claimed = sum(sum(c.goods.values()) for c in state.companies.values())
    assert state.pool >= 0
    assert state.pool + state.cubes_in_play() + len(state.goods_on) + goods_claimed == TOTAL_CUBES
    for p in state.players:
        assert p.cubes >= 0 and p.cash >= 0
    for cid, c in state.companies.items():
        assert c.cubes >= 0
        held = sum(p.shares.get(cid, 0) for p in state.players)
        assert held + c.shares_left == SHARES, cid
        assert [r for r, owner in state.track.items() if owner == cid] == c.links, cid
        if not c.links:
            assert c.reached == [] and c.start is None, cid
            continue
        assert c.start is not None and c.reached[0] == c.start and rules.is_starting(c.start)
        ends = {end for rid in c.links for end in (rules.route(rid).a, rules.route(rid).b)}
        assert set(c.reached) == ends and len(c.reached) == len(ends), cid
        # One network: every link joins the locations reached from the start.
        seen = {c.start}
        grew = True
        while grew:
            grew = False
            for rid in c.links:
                r = rules.route(rid)
                if (r.a in seen) != (r.b in seen):
                    seen |= {r.a, r.b}
                    grew = True
        assert seen == ends, f"{cid} has two separate networks"
    assert len(set(state.order)) == len(state.order) == len(rules.companies)
    assert len(set(state.passed)) == len(state.passed)


def cheapest_build(game: Game) -> Any:
    """The cheapest listed choice (the first of the cheapest), for companies a test does not steer."""
    prompt = game.prompt()
    assert prompt is not None
    rules: SteelDriverRules = game.ruleset  # type: ignore[assignment]
    if game.state.step is Step.BUILD:
        return min(prompt.choices, key=lambda a: rules.route(a.route).cost)
    return quiet_action(game)


def give_shares(game: Game, seat: int, shares: Mapping[str, int]) -> None:
    """Add share tokens to a player's holding, from the company boxes."""
    state: SDState = game.state
    for company, k in shares.items():
        c = state.companies[company]
        assert c.shares_left >= k
        c.shares_left -= k
        state.players[seat].shares[company] = state.players[seat].shares.get(company, 0) + k


def arrange_final(game: Game, order: Sequence[str] | None = None) -> None:
    """Make this the fifth turn and let it pass without auctions: the final phase follows.

    Arrange track and shares first; nobody controls a company in the turn, so
    the companies pass in ``order``, which is also the order they claim goods in.
    """
    state: SDState = game.state
    assert state.step is Step.AUCTION and state.turn == 1, "arrange the final from a new game"
    state.turn = 5
    if order is not None:
        state.order = list(order) + [c for c in COMPANIES if c not in order]
    pass_auctions(game)
    assert state.step in (Step.CLAIM, Step.OVER), state.step
