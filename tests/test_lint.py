"""Style and types are part of the test command; the rules layer never imports Textual."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "railgames", "tests", "benchmarks"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(shutil.which("mypy") is None and not (Path(sys.executable).parent / "mypy").exists(),
                    reason="mypy is not installed")
def test_mypy_checks_the_rules_layer() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def rules_layer_files() -> list[Path]:
    files = list((ROOT / "railgames" / "core").rglob("*.py"))
    for game in (ROOT / "railgames" / "games").iterdir():
        if game.is_dir():
            # (board.py, board_layout.py and ui.py draw: they are the game's face, not its rules)
            files += [p for p in game.glob("*.py")
                      if p.name not in {"board.py", "board_layout.py", "ui.py"}]
    return files + [ROOT / "railgames" / "games" / "__init__.py"]


def test_rules_layer_never_imports_textual() -> None:
    offenders = []
    for path in rules_layer_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.split(".")[0] in {"textual", "railgames"} and
                          (n.startswith("textual") or n.startswith("railgames.app"))]
    assert not offenders, offenders


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports, at the top or inside a function."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_the_tables_never_import_textual() -> None:
    # What a game screen plays against (railgames/tables) is used by the host and by
    # tests with no terminal: neither it nor anything it loads may bring in Textual.
    # (The local table keeps its saves through railgames.app.saves, which has no Textual.)
    tables = sorted((ROOT / "railgames" / "tables").glob("*.py"))
    assert len(tables) >= 4, tables
    offenders = [f"{path.relative_to(ROOT)}: {name}" for path in tables
                 for name in imported_modules(path) if name.split(".")[0] == "textual"]
    assert not offenders, offenders
    modules = ", ".join("railgames.tables." + p.stem for p in tables if p.stem != "__init__")
    loaded = subprocess.run(
        [sys.executable, "-c", f"import sys, {modules}; "
         "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual'}))"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    assert loaded.stdout.strip() == "[]", loaded.stdout + loaded.stderr


def test_the_kernel_never_imports_a_game() -> None:
    # Games plug into the kernel (each Ruleset names its own bots); never the other way round.
    # The registry (railgames.games itself) only maps ids to import paths, so it may be used.
    games = {p.name for p in (ROOT / "railgames" / "games").iterdir() if p.is_dir()}
    offenders = []
    for path in sorted((ROOT / "railgames" / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.startswith("railgames.games.")
                          and (n.split(".")[2] in games or n.split(".")[2] == "bots")]
    assert not offenders, offenders


def test_the_screens_never_import_the_app_that_imports_them() -> None:
    # Screens know the app only as the GameShell protocol (railgames/app/shell.py).
    offenders = [f"{path.relative_to(ROOT)}: {name}"
                 for path in sorted((ROOT / "railgames" / "app" / "screens").rglob("*.py"))
                 for name in imported_modules(path) if name == "railgames.app.main"]
    assert not offenders, offenders
    assert "railgames.app.screens" not in " ".join(imported_modules(ROOT / "railgames" / "app" / "shell.py"))
