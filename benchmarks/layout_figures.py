"""Figures of the code's layout, read from the source: how well its seams hold.

    .venv/bin/python benchmarks/layout_figures.py [--root CHECKOUT]

Prints, for the checkout at ``--root`` (this one by default):

- what the game screens read of their table outside the Table protocol (each member,
  and how often), and how often they branch on ``remote``;
- the places each game is registered: files outside the game's own folder that name
  its id or import its package;
- import circles inside ``railgames/`` (imports inside functions count too);
- private names of other libraries touched outside ``railgames/compat.py``;
- per game, the largest class and the largest function of its rules (every module of
  the game but its board, UI, bots and rule texts), in lines.

Nothing is imported from the checkout: it is all read with ``ast``, so an old checkout
can be measured with this script.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections import Counter
from pathlib import Path

GAMES = ("new-england", "paris-connection", "steel-driver", "railways-of-the-world",
         "american-rails")
SCREENS = ("app/screens/game.py", "app/screens/game_over.py", "app/screens/viewer.py")
NOT_RULES = ("board", "ui", "bots", "rule_texts", "board_map", "help", "descriptor")


def modules(pkg: Path) -> dict[str, Path]:
    out = {}
    for path in sorted(pkg.rglob("*.py")):
        parts = list(path.relative_to(pkg.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


# ---------------------------------------------------------------- the table seam

def protocol_members(pkg: Path) -> set[str]:
    """Members of the class named Table that is a Protocol (wherever it lives)."""
    for path in pkg.rglob("*.py"):
        for node in ast.walk(parse(path)):
            if isinstance(node, ast.ClassDef) and node.name == "Table" and any(
                    (isinstance(b, ast.Name) and b.id == "Protocol")
                    or (isinstance(b, ast.Subscript) and isinstance(b.value, ast.Name)
                        and b.value.id == "Protocol") for b in node.bases):
                names = set()
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        names.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        names.add(item.target.id)
                    elif isinstance(item, ast.Assign):
                        names.update(t.id for t in item.targets if isinstance(t, ast.Name))
                return names
    return set()


def table_reads(pkg: Path) -> tuple[Counter[str], int]:
    """Members read on ``self.session`` / ``self.table`` (and names bound to them) in the
    game screens, ``game.x`` for reads through the engine game; and ``remote`` branches."""
    reads: Counter[str] = Counter()
    remote = 0
    holders = {"session", "table", "_table", "_session"}
    for rel in SCREENS:
        path = pkg / rel
        if not path.exists():
            continue
        tree = parse(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                base = node.value
                held = (isinstance(base, ast.Attribute) and base.attr in holders
                        and isinstance(base.value, ast.Name) and base.value.id == "self") or (
                    isinstance(base, ast.Name) and base.id == "session")
                if held:
                    reads[node.attr] += 1
                elif (isinstance(base, ast.Attribute) and base.attr == "game" and (
                        (isinstance(base.value, ast.Attribute) and base.value.attr in holders)
                        or (isinstance(base.value, ast.Name) and base.value.id in holders))):
                    reads["game." + node.attr] += 1
            if isinstance(node, (ast.If, ast.IfExp, ast.BoolOp)):
                test = node.test if isinstance(node, (ast.If, ast.IfExp)) else node
                if any(isinstance(n, ast.Attribute) and n.attr == "remote"
                       for n in ast.walk(test)):
                    remote += 1
    return reads, remote


# ---------------------------------------------------------------- registration

def registrations(pkg: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for game in GAMES:
        folder = game.replace("-", "_")
        pattern = re.compile(rf"""["']{game}["']|games\.{folder}\b|games/{folder}\b""")
        places = []
        for path in sorted(pkg.rglob("*")):
            if path.suffix not in (".py", ".tcss") or (pkg / "games" / folder) in path.parents:
                continue
            if pattern.search(path.read_text(encoding="utf-8")):
                places.append(str(path.relative_to(pkg.parent)))
        out[game] = places
    return out


# ---------------------------------------------------------------- import circles

def import_graph(pkg: Path) -> dict[str, set[str]]:
    mods = modules(pkg)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(parse(path)):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")
                    base = base[: len(base) - node.level + (1 if is_pkg else 0)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                targets = [stem] + [f"{stem}.{a.name}" for a in node.names]
            for target in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected parts of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


# ---------------------------------------------------------------- private names

# Names with a leading underscore that their libraries document for use.
DOCUMENTED = {"_exit", "_asdict", "_replace", "_fields", "_make", "_field_defaults"}


def private_name(name: str) -> bool:
    if name in DOCUMENTED:
        return False
    return (name.startswith("_") and not name.startswith("__")) or name.startswith("__pydantic")


def private_touches(pkg: Path) -> Counter[str]:
    """``x._name`` where ``_name`` is defined nowhere in our code, and imports of private
    modules of other packages; ``railgames/compat.py`` is left out."""
    ours: set[str] = set()
    trees = {p: parse(p) for p in pkg.rglob("*.py")}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ours.add(node.name)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                ours.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                ours.add(node.id)
            elif isinstance(node, ast.arg):
                ours.add(node.arg)
            elif isinstance(node, ast.alias) and node.asname:
                ours.add(node.asname)
    touches: Counter[str] = Counter()
    for path, tree in trees.items():
        if path == pkg / "compat.py":
            continue
        rel = str(path.relative_to(pkg.parent))
        foreign = set()  # names this module imports from other libraries
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and not (
                    node.module or "").startswith("railgames"):
                foreign.update(a.asname or a.name for a in node.names)
            elif isinstance(node, ast.Import):
                foreign.update((a.asname or a.name).split(".")[0] for a in node.names
                               if not a.name.startswith("railgames"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                name = node.attr
                on_foreign = isinstance(node.value, ast.Name) and node.value.id in foreign
                if private_name(name) and (on_foreign or name not in ours):
                    touches[f"{rel}: .{name}"] += 1
            elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
                  and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
                  in ("getattr", "setattr", "hasattr", "delattr", "__setattr__")
                  and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                  and isinstance(node.args[1].value, str)):
                name = node.args[1].value
                if private_name(name) and name not in ours:
                    touches[f"{rel}: .{name} (by name)"] += 1
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                if node.module != "__future__" and not node.module.startswith("railgames") and any(
                        part.startswith("_") for part in node.module.split(".")):
                    touches[f"{rel}: from {node.module}"] += 1
                for alias in node.names:
                    if (alias.name.startswith("_") and not node.module.startswith("railgames")
                            and not alias.name.startswith("__")):
                        touches[f"{rel}: {node.module}.{alias.name}"] += 1
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if any(p.startswith("_") for p in alias.name.split(".")[1:]):
                        touches[f"{rel}: import {alias.name}"] += 1
    return touches


# ---------------------------------------------------------------- sizes

def largest(pkg: Path) -> dict[str, tuple[tuple[int, str], tuple[int, str]]]:
    out = {}
    for game in GAMES:
        folder = pkg / "games" / game.replace("-", "_")
        best_class, best_func = (0, ""), (0, "")
        for path in sorted(folder.rglob("*.py")):
            if path.stem in NOT_RULES:
                continue
            for node in ast.walk(parse(path)):
                if not hasattr(node, "end_lineno"):
                    continue
                size = node.end_lineno - node.lineno + 1  # type: ignore[attr-defined]
                where = f"{node.name if hasattr(node, 'name') else ''} ({path.relative_to(folder)})"
                if isinstance(node, ast.ClassDef):
                    best_class = max(best_class, (size, where))
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    best_func = max(best_func, (size, where))
        out[game] = (best_class, best_func)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    pkg = parser.parse_args().root / "railgames"

    members = protocol_members(pkg)
    reads, remote = table_reads(pkg)
    outside = {k: v for k, v in reads.items() if k not in members}
    print(f"table seam: the Table protocol has {len(members)} members; the game screens read "
          f"{len(outside)} members outside it ({sum(outside.values())} reads); "
          f"{remote} branches on 'remote'")
    for name, count in sorted(outside.items()):
        print(f"    {name} ×{count}")

    places = registrations(pkg)
    print("registration: files outside a game's folder that name it: "
          + ", ".join(f"{g} {len(p)}" for g, p in places.items()))
    for path in sorted({p for ps in places.values() for p in ps}):
        print(f"    {path}")

    found = circles(import_graph(pkg))
    print(f"import circles: {len(found)}")
    for part in found:
        print("    " + " ↔ ".join(m.removeprefix("railgames.") for m in part))

    touches = private_touches(pkg)
    files = {k.split(":")[0] for k in touches}
    print(f"private names of other libraries outside railgames/compat.py: {len(touches)} "
          f"names in {len(files)} modules")
    for key, count in sorted(touches.items()):
        print(f"    {key} ×{count}")

    print("largest in each game's rules (lines): class; function")
    for game, ((cl, cn), (fl, fn)) in largest(pkg).items():
        print(f"    {game}: {cl} {cn}; {fl} {fn}")


if __name__ == "__main__":
    main()
