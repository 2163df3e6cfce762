"""Every game's rules stay split by phase: no rules class over 500 lines and no function
over 80 in any module of a game's rules (its board, UI, bots and rule texts aside)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "railgames" / "games"
NOT_RULES = {"board", "board_map", "ui", "bots", "rule_texts", "game"}


def rules_modules(folder: Path) -> list[Path]:
    return [path for path in sorted(folder.rglob("*.py")) if path.stem not in NOT_RULES]


def too_long(path: Path, root: Path = GAMES) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            limit = 500 if isinstance(node, ast.ClassDef) else 80
            if lines > limit:
                found.append(f"{path.relative_to(root)}: {node.name} has {lines} lines")
    return found


@pytest.mark.parametrize("game", sorted(p.name for p in GAMES.iterdir()
                                        if (p / "rules.py").exists()))
def test_no_rules_class_over_500_lines_and_no_function_over_80(game: str) -> None:
    folder = GAMES / game
    assert len(rules_modules(folder)) > 3, "the rules are split into modules by phase"
    found = [line for path in rules_modules(folder) for line in too_long(path)]
    assert found == []


def test_the_check_finds_a_class_or_a_function_too_long(tmp_path: Path) -> None:
    methods = "\n".join(f"    def m{i}(self) -> None:\n        pass\n" for i in range(200))
    steps = "\n".join(f"    x{i} = {i}" for i in range(85))
    (tmp_path / "big.py").write_text(f"class Big:\n{methods}\n\ndef long() -> None:\n{steps}\n")
    assert too_long(tmp_path / "big.py", tmp_path) == ["big.py: Big has 600 lines",
                                                       "big.py: long has 86 lines"]
