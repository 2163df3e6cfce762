"""Railways of the World's rules are split by phase: no module imports another that
imports it back (the bots included, and imports inside functions counted), and the bots
are still found. (Class and function sizes: tests/test_rules_layout.py, every game.)"""

from __future__ import annotations

from rotw_support import make_ruleset

from railgames.games.railways_of_the_world import bots
from tests.test_imports import circles, import_graph

PACKAGE = "railgames.games.railways_of_the_world"


def test_no_module_of_the_game_imports_one_that_imports_it_back() -> None:
    graph = import_graph()
    assert f"{PACKAGE}.bots" not in graph[f"{PACKAGE}.rules"]
    assert [c for c in circles(graph) if any(m.startswith(PACKAGE) for m in c)] == []


def test_the_rules_still_offer_the_greedy_and_the_search_bots() -> None:
    rules = make_ruleset()
    makers = rules.bot_makers()
    assert sorted(makers) == ["greedy", "search"]
    assert isinstance(makers["greedy"](3), bots.GreedyBot)
    assert isinstance(makers["search"](3), bots.RailwaysSearch)
