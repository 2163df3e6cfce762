"""No import circles inside railgames/, and the kernel imports no registry.

The graph is drawn from the source (an AST walk), not from what happens to be
imported at run time: every ``import`` and ``from ... import`` counts wherever
it stands — at the top of a module, inside a function (a lazy import is how a
circle hides), or under ``if TYPE_CHECKING:`` (a reader follows it all the same).
``from a.b import c`` is an edge to the module ``a.b.c`` when that is a module,
else to ``a.b``; an import of a package's module is not counted as an import of
the package's ``__init__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "railgames"


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the railgames modules it imports (anywhere in it)."""
    known = modules()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out |= {r for a in node.names if (r := resolve(a.name))}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here[:len(here) - (node.level - 1)]
                    base = ".".join([*parent, base] if base else parent)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in known else resolve(base)
                    if target:
                        out.add(target)
        out.discard(module)
        graph[module] = out
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_walk_sees_a_circle_through_a_function_level_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    # and the graph of the package has the lazy imports in it
    assert "railgames.games" in import_graph()["railgames.app.screens.setup"]


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_kernel_imports_no_registry() -> None:
    # The registry (railgames.games) passes rulesets and map models into the kernel.
    graph = import_graph()
    offenders = sorted(f"{m} imports {t}" for m, targets in graph.items()
                       if m.startswith("railgames.core") for t in targets
                       if t == "railgames.games" or t.startswith("railgames.games."))
    assert not offenders, offenders
