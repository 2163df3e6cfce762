"""Railways of the World's rules are split by phase: no module imports another that
imports it back (the bots included, and imports inside functions counted), no rules
class is a god-class, no function runs on for pages, and the bots are still found."""

from __future__ import annotations

import ast
from pathlib import Path

from rotw_support import make_ruleset

from railgames.games.railways_of_the_world import bots

GAME = Path(bots.__file__).parent
PACKAGE = "railgames.games.railways_of_the_world"
# The modules of the rules: the class, its phases, what they share and the index.
RULES_MODULES = ("rules", "base", "auction", "turn", "build", "urbanize", "deliver", "income",
                 "index", "terms")


def imports_of(path: Path) -> set[str]:
    """The game's own modules ``path`` imports, anywhere in it (functions included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith(PACKAGE + ".") and (GAME / f"{name[len(PACKAGE) + 1:]}.py").exists():
                found.add(name[len(PACKAGE) + 1:])
    return found


def test_no_module_of_the_game_imports_one_that_imports_it_back() -> None:
    graph = {p.stem: imports_of(p) for p in GAME.glob("*.py")}
    assert "bots" not in graph["rules"]

    def reaches(start: str, target: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            for nxt in graph.get(here, ()):
                if nxt == target:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    circles = sorted(m for m in graph if reaches(m, m))
    assert circles == []


def test_no_rules_class_over_500_lines_and_no_function_over_80() -> None:
    too_long = []
    for name in RULES_MODULES:
        for node in ast.walk(ast.parse((GAME / f"{name}.py").read_text())):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                limit = 500 if isinstance(node, ast.ClassDef) else 80
                if lines > limit:
                    too_long.append(f"{name}.{node.name}: {lines} lines")
    assert too_long == []


def test_the_rules_still_offer_the_greedy_and_the_search_bots() -> None:
    rules = make_ruleset()
    makers = rules.bot_makers()
    assert sorted(makers) == ["greedy", "search"]
    assert isinstance(makers["greedy"](3), bots.GreedyBot)
    assert isinstance(makers["search"](3), bots.RailwaysSearch)
