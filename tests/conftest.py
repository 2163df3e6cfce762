"""Shared fixtures and functions for the New England Railways tests.

The ruleset comes from the shipped map (maps/new-england.toml); some random-play
tests also run on a small fixture map. Tests rely only on what both maps share: the
city ids BOS PRO WOR HAR NHV PLA RUT MAN POR LOW KIN, the links BOS-PRO (value
5), BOS-WOR, PRO-WOR, BOS-LOW, PRO-KIN, PRO-PLA, HAR-PLA and HAR-NHV, that
Worcester demands purple and New Haven blue, and that Providence, Plainfield
and Hartford do not demand blue. Anything else a test needs is set up directly
on the state.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from pgserver import pg_server, pg_url  # noqa: F401  (fixtures)
from support import NAMES

from railgames.core.engine import Game
from railgames.core.maps import load_map_file
from railgames.core.record import PlayerSpec
from railgames.core.rng import Chance
from railgames.games import load_ruleset
from railgames.games.new_england.actions import (
    Borrow,
    FinishLink,
    PassBid,
    PassShip,
    Retire,
)
from railgames.games.new_england.board_map import TOTAL_CUBES, NewEnglandMap
from railgames.games.new_england.rules import NewEnglandRules
from railgames.games.new_england.state import Step

FIXTURE_MAP = Path(__file__).parent / "fixtures" / "mini-new-england.toml"

# Passphrases chosen in the tests are hashed at a low cost (the hosts they start inherit
# it): some hundreds of logins at half a second each were minutes of the suite. The real
# cost has its own test (test_players), with this unset.
os.environ["RAILGAMES_CHEAP_PASSPHRASES"] = "tests-only"

# The files whose tests take longest (real ssh clients, a browser's websocket, whole games
# played by keyboard) run first: the suite's workers then end together, instead of one
# waiting on a long test the other was handed last.
LONG_FIRST = ("test_turn_based_ssh.py", "test_host_web.py", "test_host_ssh.py",
              "test_host_names.py", "test_host_home_ssh.py", "test_host_hostile.py",
              "test_rotw_app.py", "test_american_rails_app.py", "test_paris_connection_app.py",
              "test_table_seam.py", "test_speed_parts.py", "test_tutorial_terminal.py",
              "test_steel_driver_app.py", "test_app_play.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    order = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: order.get(item.path.name, len(LONG_FIRST)))  # stable

# Links every map of the game has (see the module docstring).
KNOWN_LINKS = ["BOS-PRO", "BOS-WOR", "PRO-WOR", "BOS-LOW", "PRO-KIN", "PRO-PLA", "HAR-PLA", "HAR-NHV"]


def make_ruleset(small: bool = False) -> NewEnglandRules:
    """The shipped map's ruleset (a broken map fails the tests), or the small fixture map's."""
    if small:
        return NewEnglandRules(load_map_file(FIXTURE_MAP, NewEnglandMap))
    rules = load_ruleset("new-england")
    assert isinstance(rules, NewEnglandRules)
    return rules


@pytest.fixture(scope="session")
def ruleset() -> NewEnglandRules:
    return make_ruleset()


@pytest.fixture(autouse=True)
def logging_as_it_was() -> Iterator[None]:
    """A test that runs ``railgames host`` in this process (its command line, to see it
    refuse to start) sets the host's JSON logging up for good; put back what the other
    tests read their log lines through (``caplog``, ``LogLines``)."""
    import logging
    import sys
    import threading

    names = ("", "railgames.host", "asyncssh")
    saved = [(logging.getLogger(n), list(logging.getLogger(n).handlers),
              logging.getLogger(n).level, logging.getLogger(n).propagate) for n in names]
    hooks = (sys.unraisablehook, threading.excepthook)
    yield
    for logger, handlers, level, propagate in saved:
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate
    sys.unraisablehook, threading.excepthook = hooks
    logging.captureWarnings(False)


@pytest.fixture(autouse=True, scope="session")
def scratch_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Saves and caches (validated boards, launcher cards) of the whole run go to a
    scratch folder, never the user's; a test may set its own (the app tests do)."""
    data = tmp_path_factory.mktemp("railgames-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAILGAMES_DATA_DIR", str(data))
        yield data


# ---------------------------------------------------------------- starting games
def start_game(
    ruleset: NewEnglandRules,
    players: int | Sequence[str] = 3,
    seed: int = 1,
) -> Game:
    names = NAMES[:players] if isinstance(players, int) else list(players)
    return Game.new(ruleset, [PlayerSpec(name=n) for n in names], seed)


def first_seat_for(ruleset: NewEnglandRules, players: int, seed: int) -> int:
    """The seat the seed hands the First Player card to (it does not depend on names)."""
    return start_game(ruleset, players, seed).state.first


def start_game_with_first(
    ruleset: NewEnglandRules, clockwise: Sequence[str], seed: int = 1
) -> Game:
    """A game whose players sit in ``clockwise`` order with ``clockwise[0]`` as First Player."""
    n = len(clockwise)
    first = first_seat_for(ruleset, n, seed)
    names = [""] * n
    for i, name in enumerate(clockwise):
        names[(first + i) % n] = name
    game = start_game(ruleset, names, seed)
    assert game.players[game.state.first].name == clockwise[0]
    return game


# ---------------------------------------------------------------- playing forward
def quiet_action(game: Game) -> Any:
    """A do-little legal action: borrow only what is required, keep debt, pass, wait."""
    prompt = game.prompt()
    assert prompt is not None
    step = game.state.step
    seat = prompt.seat
    if step is Step.LOANS:
        assert prompt.amount is not None
        return Borrow(seat=seat, amount=prompt.amount.min)
    if step is Step.RETIRE:
        return Retire(seat=seat, amount=0)
    if step is Step.AUCTION:
        return PassBid(seat=seat)
    if step is Step.FINISH:
        return FinishLink(seat=seat, pay=False)
    return PassShip(seat=seat)


def play_until(
    game: Game,
    done: Callable[[Game], bool],
    policy: Callable[[Game], Any] = quiet_action,
    limit: int = 1000,
) -> Game:
    for _ in range(limit):
        if done(game):
            return game
        assert not game.is_over(), "the game ended before the wanted moment"
        game.apply(policy(game))
    raise AssertionError("the wanted moment never came")


def finish_loans(game: Game, amounts: Mapping[int, int] | None = None) -> Game:
    """Answer every loan prompt of the current loan step (the required minimum unless told)."""
    amounts = dict(amounts or {})
    assert game.state.step is Step.LOANS
    while game.state.step is Step.LOANS:
        prompt = game.prompt()
        assert prompt is not None and prompt.amount is not None
        game.apply(Borrow(seat=prompt.seat, amount=amounts.get(prompt.seat, prompt.amount.min)))
    return game


def to_auction(game: Game) -> Game:
    """Play quietly until an auction is waiting for a bid."""
    return play_until(game, lambda g: g.state.step is Step.AUCTION)


def prompt_seat(game: Game) -> int:
    prompt = game.prompt()
    assert prompt is not None
    return prompt.seat


# ---------------------------------------------------------------- arranging the state
def set_cubes(game: Game, cubes: Mapping[str, Mapping[str, int]]) -> None:
    """Put every cube back in the cup, then place exactly ``cubes`` (taken from the cup)."""
    state = game.state
    for city, here in state.cubes.items():
        for colour, count in here.items():
            state.cup[colour] += count
        state.cubes[city] = {}
    for city, here in cubes.items():
        for colour, count in here.items():
            assert state.cup[colour] >= count, f"not enough {colour} cubes in the cup"
            state.cup[colour] -= count
            state.cubes[city][colour] = count
    assert state.cube_total() == TOTAL_CUBES


def give_links(game: Game, owners: Mapping[str, int], *, built: bool = True) -> None:
    """Hand links to seats as if bought in earlier turns (and built unless told)."""
    state = game.state
    for link, seat in owners.items():
        for pile in (state.link_deck, state.future, state.current, state.set_aside, state.unfinished):
            if link in pile:
                pile.remove(link)
        state.owner[link] = seat
        if link not in state.railways[seat].links:
            state.railways[seat].links.append(link)
        if built:
            state.built.add(link)
        else:
            state.unfinished.append(link)


def set_step(
    game: Game,
    step: Step,
    *,
    pending: Iterable[int] | None = None,
    ship_round: int = 1,
) -> None:
    """Put a game that is in its auction step straight into shipping.

    The auction in progress is dropped and next turn's links move down, as they
    would once every auction is over. ``pending`` are the seats still to ship
    in this round, in order (all seats from the First Player by default).
    """
    state = game.state
    assert step is Step.SHIP, "only the shipping step is set directly"
    assert state.step in (Step.AUCTION, Step.SHIP)
    if state.step is Step.AUCTION:
        state.auction = None
        state.current, state.future = state.future, []
    state.finish = None
    state.step = Step.SHIP
    state.ship_round = ship_round
    state.pending = list(state.seat_order() if pending is None else pending)


# ---------------------------------------------------------------- shipping routes
def all_routes(ruleset: NewEnglandRules, built: Iterable[str], origin: str, colour: str) -> set[tuple[str, ...]]:
    """Every simple path of 1 to 5 built links from ``origin`` ending at the first city
    that demands ``colour`` (worked out here independently of the rules module)."""
    demand = ruleset.map.demand_of
    near: dict[str, list[str]] = {}
    for link in built:
        a, b = ruleset.link_ends(link)
        near.setdefault(a, []).append(b)
        near.setdefault(b, []).append(a)
    found: list[tuple[str, ...]] = []

    def walk(path: list[str]) -> None:
        for there in near.get(path[-1], []):
            if there in path:
                continue
            step = [*path, there]
            if demand[there] == colour:
                found.append(tuple(step))
            elif len(step) <= 5:
                walk(step)

    walk([origin])
    return set(found)


# ---------------------------------------------------------------- chance
class RiggedChance(Chance):
    """The game's own random source, except that the next dice rolls are chosen."""

    def __init__(self, original: Chance, rolls: Iterable[Sequence[int]]) -> None:
        super().__init__(0)
        self._rng.setstate(original._rng.getstate())
        self.queued = [list(r) for r in rolls]

    def roll(self, dice: int = 1, sides: int = 6) -> list[int]:
        if self.queued:
            forced = self.queued.pop(0)
            assert len(forced) == dice, f"expected a roll of {dice} dice, forced {forced}"
            return forced
        return super().roll(dice, sides)


def force_rolls(game: Game, *rolls: Sequence[int]) -> RiggedChance:
    """Make the next dice rolls of ``game`` come out as given (then fair again)."""
    rigged = RiggedChance(game.state.chance, rolls)
    game.state.chance = rigged
    return rigged


# ---------------------------------------------------------------- the log
def events_of(game: Game, kind: str, since: int = 0) -> list[Any]:
    return [e for e in game.log[since:] if e.kind == kind]


__all__ = [
    "KNOWN_LINKS",
    "all_routes",
    "RiggedChance",
    "events_of",
    "finish_loans",
    "first_seat_for",
    "force_rolls",
    "give_links",
    "make_ruleset",
    "play_until",
    "prompt_seat",
    "quiet_action",
    "set_cubes",
    "set_step",
    "start_game",
    "start_game_with_first",
    "to_auction",
]
