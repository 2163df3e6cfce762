"""Rules as data: every event names its rules, every rule is explained, demos show the main ones."""

from __future__ import annotations

import ast
import dataclasses
import re
from importlib import resources
from pathlib import Path

import pytest

from railgames.core.demo import demo_game, text_demo
from railgames.core.narration import narrate, rules_fired, text_lines
from railgames.core.rulebook import rulebook
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import GAMES, load_ruleset, ruleset_class

ROOT = Path(__file__).resolve().parents[1]
TITLES = tuple(sorted(GAMES))  # every game, so a new one cannot slip past these checks

# What each game's demo (4 greedy bots, seed 1) shows at work. Listed in full so
# that a change to a bot or a rule that changes what a newcomer sees is noticed.
DEMO_SHOWS = {
    "new-england": {
        "ne.setup", "ne.turn", "ne.loans", "ne.service", "ne.retire", "ne.growth",
        "ne.unfinished", "ne.publicise", "ne.auction", "ne.one_link", "ne.build_roll",
        "ne.pay_to_finish", "ne.ship", "ne.ship_rounds", "ne.market", "ne.income",
        "ne.first_player", "ne.final", "ne.forced_loan", "ne.reshuffle",
    },
    "paris-connection": {
        "pc.setup", "pc.deal", "pc.turn", "pc.build", "pc.city_value", "pc.end_build",
        "pc.trade", "pc.end", "pc.scoring",
    },
    "steel-driver": {
        "sd.setup", "sd.turn", "sd.take_cubes", "sd.marker", "sd.auction", "sd.control",
        "sd.end_auctions", "sd.build", "sd.first_link", "sd.new_location", "sd.must_build",
        "sd.transcontinental", "sd.profits", "sd.next_order", "sd.final", "sd.claim",
        "sd.sets", "sd.winner",
    },
    "railways-of-the-world": {
        "rw.setup", "rw.turn", "rw.auction", "rw.all_pass", "rw.order", "rw.bonds", "rw.build",
        "rw.crossing", "rw.link", "rw.engine", "rw.deliver", "rw.empty_city", "rw.income",
        "rw.interest", "rw.end_trigger", "rw.final",
    },
    "american-rails": {
        "ar.setup", "ar.prep", "ar.auction", "ar.first_cube", "ar.track", "ar.develop", "ar.fund",
        "ar.take_two", "ar.expand", "ar.income", "ar.dividend", "ar.end", "ar.leave_undone",
    },
}


def _package(game: str) -> str:
    return ruleset_class(game).__module__.rsplit(".", 1)[0]


@pytest.mark.parametrize("game", TITLES)
def test_every_event_of_every_game_names_rules_the_book_explains(game: str) -> None:
    ruleset = load_ruleset(game)
    book = rulebook(ruleset_class(game))
    kinds: set[str] = set()
    for players in range(ruleset.min_players, ruleset.max_players + 1):
        for kind in ("greedy", "random"):
            played = play_bot_game(ruleset, bot_players(players, kind), seed=players * 11)
            for event in played.log:
                kinds.add(event.kind)
                assert event.rules, f"{game}: the '{event.kind}' event names no rule: {event.text}"
                for rule_id in event.rules:
                    assert rule_id in book, f"{game}: rule '{rule_id}' has no explanation"
    assert "game_over" in kinds and len(kinds) >= 8  # whole games were seen, in many kinds


@pytest.mark.parametrize("game", TITLES)
def test_every_place_that_logs_an_event_names_a_rule(game: str) -> None:
    """Also the branches that random games seldom reach (a tie roll, an empty deck).

    Every module of the game is read: rules split by phase log from several.
    """
    folder = ROOT / "railgames" / "games" / _package(game).rsplit(".", 1)[1]
    sources = {path.relative_to(folder).as_posix(): path.read_text()
               for path in sorted(folder.rglob("*.py")) if path.name != "rule_texts.py"}
    calls = [
        (name, node) for name, text in sources.items() for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == "add" and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "log"
    ]
    assert calls
    missing = [f"{name}:{c.lineno}" for name, c in calls if not any(k.arg == "rule" for k in c.keywords)]
    assert not missing, f"{game}: log.add without rule= at {missing}"
    source = "\n".join(sources.values())
    # Every rule constant the rules use is in the book, and every rule in the book is used.
    book = rulebook(ruleset_class(game))
    used = set(re.findall(r"\bR\.([A-Z_]+)\b", source))
    texts = resources.files(_package(game)).joinpath("rule_texts.py").read_text()
    ids = dict(re.findall(r'^([A-Z_]+) = "([a-z]+\.[a-z_]+)"$', texts, re.M))
    assert used <= set(ids), used - set(ids)
    assert {ids[name] for name in used} == {r.id for r in book}


@pytest.mark.parametrize("game", TITLES)
def test_every_rule_is_explained_and_points_to_its_help_section(game: str) -> None:
    help_md = resources.files(_package(game)).joinpath("help.md").read_text()
    headings = {line.lstrip("#").strip() for line in help_md.splitlines() if line.startswith("## ")}
    book = rulebook(ruleset_class(game))
    assert len(book) >= 8
    for rule in book:
        assert rule.title and rule.short and rule.full, rule.id
        assert len(rule.full) > len(rule.short), rule.id
        assert rule.help in headings, f"{rule.id}: no section '{rule.help}' in help.md"


def test_every_game_has_a_rule_book() -> None:
    for game in GAMES:
        if game in TITLES:
            assert len(rulebook(ruleset_class(game))) > 0


@pytest.mark.parametrize("game", TITLES)
def test_the_demo_shows_every_main_rule(game: str) -> None:
    fired = rules_fired(demo_game(load_ruleset(game)).log)
    book = rulebook(ruleset_class(game))
    assert fired == DEMO_SHOWS[game]
    assert set(book.main_rules()) <= fired, set(book.main_rules()) - fired


def test_narration_explains_a_rule_in_full_once_then_in_a_line() -> None:
    game = demo_game(load_ruleset("new-england"))
    told = narrate(game.log, rulebook(ruleset_class("new-england")))
    firsts = [r.id for t in told for r in t.first]
    assert len(firsts) == len(set(firsts)) == len(rules_fired(game.log))
    auctions = [t for t in told if "ne.auction" in t.event.rules]
    assert [r.id for r in auctions[0].first] == ["ne.auction"]
    assert all("ne.auction" not in [r.id for r in t.first] for t in auctions[1:])
    lines = list(text_lines(told, "new-england"))
    assert sum("NEW RULE \u2014 Auctions." in line for line in lines) == 1
    assert any("[Auctions: " in line for line in lines)


def test_narration_never_reads_the_log_text() -> None:
    game = demo_game(load_ruleset("steel-driver"))
    book = rulebook(ruleset_class("steel-driver"))
    blanked = [dataclasses.replace(e, text="") for e in game.log]
    assert [(t.rules, t.first) for t in narrate(blanked, book)] == \
        [(t.rules, t.first) for t in narrate(game.log, book)]


def test_text_demo_reads_as_a_walkthrough() -> None:
    lines = list(text_demo(demo_game(load_ruleset("paris-connection"))))
    assert lines[0].startswith("Paris Connection: a demonstration")
    assert "secret holdings are shown" in lines[1]
    head = "\n".join(lines[:40])
    assert "NEW RULE \u2014 Setting up" in head and "NEW RULE \u2014 Building" in head
    numbered = [line for line in lines if re.match(r"^ {0,4}\d+ ", line)]
    assert len(numbered) == len(demo_game(load_ruleset("paris-connection")).record.actions)
    assert lines[-1].startswith(("Rules shown", "Not at work"))


def test_text_demo_numbers_the_actions_it_tells_without_a_gap() -> None:
    # Railways of the World's choice of an action tells nothing by itself (what is then
    # done tells it): numbering by the record's index left 5, 8, 10, ... out.
    game = demo_game(load_ruleset("railways-of-the-world"))
    assert len({e.action for e in game.log}) < len(game.record.actions) + 1  # some are silent
    lines = list(text_demo(game))
    numbers = [int(m.group(1)) for line in lines if (m := re.match(r"^ {0,4}(\d+) ", line))]
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_shipment_is_told_with_the_city_that_stopped_it() -> None:
    game = demo_game(load_ruleset("new-england"))
    ruleset = game.ruleset
    told = narrate(game.log, rulebook(ruleset_class("new-england")), ruleset)
    ships = [t for t in told if t.event.kind == "ship"]
    assert ships
    for item in ships:
        end = item.event.data["path"][-1]
        assert item.why.startswith(f"Why: {ruleset.city_name(end)} demands {item.event.data['colour']}")
    assert all(not t.why for t in told if t.event.kind != "ship")
