"""How far the game screens reach past the Table protocol.

For a checkout (default: this one) it prints the members of the Table protocol,
the distinct members the game and game-over screens read on their table
(``self.session``, a local bound to it, or ``.game`` reached through it) that the
protocol does not have, and the ``if``s in the screens that ask whether a table
is remote.

    .venv/bin/python benchmarks/table_seam.py [CHECKOUT]
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SCREENS = {"game.py": "GameScreen", "game_over.py": "GameOverScreen"}


def protocol_members(root: Path) -> set[str]:
    for rel in ("railgames/tables/table.py", "railgames/core/table.py"):
        path = root / rel
        if not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name == "Table":
                names = set()
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        names.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        names.add(item.target.id)
                return names
    raise SystemExit(f"no Table protocol under {root}")


def _is_table(node: ast.AST, aliases: set[str]) -> bool:
    """``self.session`` or a local bound to it."""
    if isinstance(node, ast.Attribute) and node.attr == "session":
        return isinstance(node.value, ast.Name) and node.value.id == "self"
    return isinstance(node, ast.Name) and node.id in aliases


def reads(cls: ast.ClassDef) -> set[str]:
    """Every member read on the table, ``game.X`` for what is read through its ``.game``."""
    aliases: set[str] = set()
    games: set[str] = set()
    for node in ast.walk(cls):  # locals bound to the table, or to its game
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            if _is_table(node.value, set()):
                aliases.add(node.targets[0].id)
            elif isinstance(node.value, ast.Attribute) and node.value.attr == "game" \
                    and _is_table(node.value.value, set()):
                games.add(node.targets[0].id)
    found: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute):
            if _is_table(node.value, aliases):
                if node.attr != "game":
                    found.add(node.attr)
            elif isinstance(node.value, ast.Attribute) and node.value.attr == "game" \
                    and _is_table(node.value.value, aliases):
                found.add(f"game.{node.attr}")
            elif isinstance(node.value, ast.Name) and node.value.id in games:
                found.add(f"game.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2 \
                and isinstance(node.args[1], ast.Constant):
            target = node.args[0]
            if _is_table(target, aliases):
                found.add(str(node.args[1].value))
            elif isinstance(target, ast.Attribute) and target.attr == "game" \
                    and _is_table(target.value, aliases):
                found.add(f"game.{node.args[1].value}")
        elif isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "of_game" and isinstance(node.args[0], ast.Attribute) \
                and node.args[0].attr == "game" and _is_table(node.args[0].value, aliases):
            found.add("game")  # the whole engine Game handed on
    return found


def remote_branches(root: Path) -> int:
    count = 0
    for path in sorted((root / "railgames" / "app" / "screens").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.If | ast.IfExp) and any(
                    (isinstance(n, ast.Attribute) and n.attr == "remote")
                    or (isinstance(n, ast.Constant) and n.value == "remote")
                    for n in ast.walk(node.test)):
                count += 1
    return count


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    members = protocol_members(root)
    print(f"Table protocol: {len(members)} members: {', '.join(sorted(members))}")
    for file, name in SCREENS.items():
        tree = ast.parse((root / "railgames/app/screens" / file).read_text(encoding="utf-8"))
        cls = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name)
        read = reads(cls)
        outside = sorted(m for m in read if m not in members)
        print(f"{name}: reads {len(read)} members of its table, {len(outside)} outside the protocol"
              + (f": {', '.join(outside)}" if outside else ""))
    print(f"'remote' branches in the screens: {remote_branches(root)}")


if __name__ == "__main__":
    main()
