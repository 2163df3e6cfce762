"""What the Paris Connection tests share: games, arranged boards, invariants.

Hexes are written as the map names them, offset ``(column, row)``. Facts of
the shipped map the tests rely on: the Eiffel Tower is at (10, 5); the
companies start red (11, 4), yellow (11, 5), blue (11, 6), green (10, 6),
black (9, 5), white (10, 4); Orléans (9, 7), Reims (13, 4), Rouen (8, 3),
Le Havre (7, 3) and Marseille (14, 17) are cities; checkered sides run between
neighbouring Paris hexes and below Le Havre.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from support import NAMES

from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.paris_connection.actions import Build, EndBuild, Trade
from railgames.games.paris_connection.rules import ParisConnectionRules
from railgames.games.paris_connection.state import PCState, Step

COMPANIES = ["red", "yellow", "blue", "green", "black", "white"]
TOTAL_PER_COMPANY = 33
VALUE_MARKER = 1  # one locomotive of each company marks its value on the score track

TOWER = (10, 5)
START = {"red": (11, 4), "yellow": (11, 5), "blue": (11, 6), "green": (10, 6),
         "black": (9, 5), "white": (10, 4)}
ORLEANS, REIMS, ROUEN, LE_HAVRE, MARSEILLE = (9, 7), (13, 4), (8, 3), (7, 3), (14, 17)


def make_ruleset() -> ParisConnectionRules:
    rules = load_ruleset("paris-connection")
    assert isinstance(rules, ParisConnectionRules)
    return rules


def start_game(rules: ParisConnectionRules, players: int = 3, seed: int = 1) -> Game:
    return Game.new(rules, [PlayerSpec(name=n) for n in NAMES[:players]], seed)


def hx(rules: ParisConnectionRules, at: tuple[int, int]) -> Any:
    h = rules.hex_at(*at)
    assert h is not None, f"{at} is not on the map"
    return h


def build(seat: int, company: str, at: tuple[int, int]) -> Build:
    return Build(seat=seat, company=company, hex=at)


def end_build(seat: int) -> EndBuild:
    return EndBuild(seat=seat)


def trade(seat: int, give: str, take: str, count: int = 1) -> Trade:
    return Trade(seat=seat, give=give, take=take, count=count)  # type: ignore[arg-type]


# ---------------------------------------------------------------- arranging the state
def set_board(game: Game, placements: Mapping[tuple[int, int], Sequence[str]],
              *, keep_starts: bool = True) -> None:
    """Make the board the starting locomotives (unless told) plus ``placements``.

    Locomotives move between the board and the supplies, so totals still hold;
    company values are recomputed from the hexes.
    """
    rules: ParisConnectionRules = game.ruleset  # type: ignore[assignment]
    state: PCState = game.state
    before = state.on_board()
    board: dict[Any, list[str]] = {}
    if keep_starts:
        for company, at in START.items():
            board.setdefault(hx(rules, at), []).append(company)
    for at, companies in placements.items():
        board.setdefault(hx(rules, at), []).extend(companies)
    state.board = board
    after = state.on_board()
    for company in COMPANIES:
        state.supply[company] += before.get(company, 0) - after.get(company, 0)
        assert state.supply[company] >= 0, f"not enough {company} locomotives"
    state.value = {c: sum(rules.hex_value(h) for h, here in board.items() if c in here)
                   for c in COMPANIES}


def set_shares(game: Game, seat: int, shares: Mapping[str, int]) -> None:
    """Give ``seat`` exactly ``shares``, taking from or returning to the supplies."""
    state: PCState = game.state
    player = state.players[seat]
    assert player.shares is not None
    for company in COMPANIES:
        state.supply[company] += player.shares.get(company, 0) - shares.get(company, 0)
        assert state.supply[company] >= 0, f"not enough {company} locomotives"
    player.shares = {c: shares[c] for c in COMPANIES if shares.get(c)}
    player.held = sum(player.shares.values())


def set_turn(game: Game, seat: int) -> None:
    state: PCState = game.state
    state.current = seat
    state.step = Step.TURN
    state.building = None
    state.placed = []


# ---------------------------------------------------------------- checks
def check_invariants(rules: ParisConnectionRules, state: PCState) -> None:
    """Locomotives conserved, values match the board, stacking and connection hold."""
    held = {c: 0 for c in COMPANIES}
    for p in state.players:
        assert p.shares is not None
        assert all(k > 0 for k in p.shares.values()), p.shares
        assert p.held == sum(p.shares.values())
        for c, k in p.shares.items():
            held[c] += k
    on_board = state.on_board()
    # Edition 1 of the rules (old saves) kept no locomotive back as the value marker.
    marker = 0 if state.rules_edition == 1 else VALUE_MARKER
    for c in COMPANIES:
        assert state.supply[c] >= 0
        assert state.supply[c] + on_board.get(c, 0) + held[c] + marker == TOTAL_PER_COMPANY, c
        assert state.value[c] == sum(rules.hex_value(h) for h, here in state.board.items()
                                     if c in here), c
    for h, here in state.board.items():
        assert here and len(set(here)) == len(here), (h, here)
        assert len(here) <= rules.map.capacity[h], (h, here)
    # Every locomotive is joined to its company's first one through its own colour.
    for c in COMPANIES:
        mine = set(state.hexes_of(c))
        start = hx(rules, START[c])
        seen, todo = {start}, [start]
        while todo:
            h = todo.pop()
            for n in rules.map.links[h]:
                if n in mine and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == mine, f"{c} has locomotives cut from its network"
