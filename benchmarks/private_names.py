"""Where the code touches private names of the libraries it runs on (Textual, Rich,
pydantic, asyncssh, asyncio, the standard library): each place, and how many.

A name is private to a library when it starts with an underscore (``_driver``,
``textual._compositor``), or is one of pydantic's ``__pydantic_…__`` attributes.
Such a name may move or change in any release, so the project keeps every use of
one in ``railgames/compat.py``; this script lists the uses, and
tests/test_compat.py checks that none is elsewhere.

What counts as a use, found by reading each module (and importing it, to know the
classes ours are built on):

* an import of a private module or name from another package;
* ``self._x`` / ``super()._x`` / ``cls._x``, or a method or class attribute ``_x``
  defined, in a class of ours whose upstream base classes have ``_x`` (as a class
  attribute, or as ``self._x`` in their source);
* ``Widget._x``, where ``Widget`` is a class or module from another package;
* ``thing._x`` on any other object, and ``getattr(thing, "_x")`` and the like, when
  no class of ours defines ``_x`` for itself (so ``log._line_cache`` counts and
  ``rules._links`` does not: a name both we and a library use on objects of unknown
  type is taken to be ours);
* the text ``"__pydantic_…__"`` anywhere.

Names the standard library documents although they start with an underscore
(``os._exit``, a named tuple's ``_replace``, an enum's ``_missing_``) are not private.

    .venv/bin/python benchmarks/private_names.py [--all] [--root CHECKOUT]

prints the places outside compat.py (``--all``: in compat.py too), then the count;
``--root`` reads another checkout of the project (an older commit, say: run it with
``PYTHONPATH=CHECKOUT`` so that its modules are the ones imported).
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import inspect
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
COMPAT = "railgames/compat.py"

DOCUMENTED = {"_exit", "_replace", "_asdict", "_fields", "_make", "_field_defaults",
              "_missing_", "_generate_next_value_", "_value_", "_name_", "_ignore_", "_order_"}
ATTR_CALLS = {"getattr", "setattr", "hasattr", "delattr"}
SELF_ATTR = re.compile(r"\bself\.(_[A-Za-z]\w*)")


@dataclass(frozen=True, order=True)
class Touch:
    path: str  # relative to the project's folder
    line: int
    name: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name}"


def private(name: str) -> bool:
    if name.startswith("__pydantic_"):
        return True
    if not name.startswith("_") or name in DOCUMENTED:
        return False
    return not (name.startswith("__") and name.endswith("__"))


def _foreign(obj: Any) -> bool:
    module = getattr(obj, "__module__", None) if not inspect.ismodule(obj) else obj.__name__
    return isinstance(module, str) and module.split(".")[0] not in ("railgames", "builtins")


def _upstream_names(cls: type) -> set[str]:
    """Private names the upstream classes ``cls`` is built on define or set."""
    names: set[str] = set()
    for base in cls.__mro__:
        if _foreign(base):
            names.update(_names_of_one(base))
    return names


@functools.cache
def _names_of_one(base: type) -> frozenset[str]:
    """Private names one upstream class defines or sets (read once: many of ours share a base)."""
    names = {n for n in vars(base) if private(n)}
    try:
        names.update(SELF_ATTR.findall(inspect.getsource(base)))
    except (OSError, TypeError):
        pass
    return frozenset(names)


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class _File:
    def __init__(self, path: Path, root: Path) -> None:
        self.path = path
        self.rel = path.relative_to(root).as_posix()
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        # (a package's __main__ runs the program when imported: it is read, not imported)
        self.module = (importlib.import_module(_module_name(path, root)) if path.name != "__main__.py"
                       else None)
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self._upstream: dict[ast.ClassDef, set[str]] = {}

    def enclosing_class(self, node: ast.AST) -> ast.ClassDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.ClassDef):
                return node
        return None

    def upstream(self, cls: ast.ClassDef) -> set[str]:
        if cls not in self._upstream:
            obj: Any = self.module
            for part in self._qualname(cls):
                obj = getattr(obj, part, None)
            self._upstream[cls] = _upstream_names(obj) if isinstance(obj, type) else set()
        return self._upstream[cls]

    def _qualname(self, cls: ast.ClassDef) -> list[str]:
        names = [cls.name]
        outer = self.enclosing_class(cls)
        while outer is not None:
            names.insert(0, outer.name)
            outer = self.enclosing_class(outer)
        return names

    def resolves_foreign(self, node: ast.expr) -> bool:
        """``node`` names a class or module of another package (``Widget``, ``asyncio``)."""
        if isinstance(node, ast.Name):
            obj = getattr(self.module, node.id, None)
            return (inspect.isclass(obj) or inspect.ismodule(obj)) and _foreign(obj)
        return False


def _own_and_candidates(files: list[_File]) -> tuple[set[str], list[tuple[_File, ast.AST, str, str]]]:
    """Names our classes define for themselves, and every private name seen, with the
    way it was seen (``self``: on the class's own instance, ``def``: defined in a
    class body, ``upstream``: on an upstream class or module, ``other``)."""
    own: set[str] = set()
    seen: list[tuple[_File, ast.AST, str, str]] = []
    for f in files:
        for node in ast.walk(f.tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
                if isinstance(node, ast.ImportFrom) and (node.level or module.startswith("railgames")):
                    continue
                for alias in node.names:
                    full = f"{module}.{alias.name}" if module else alias.name
                    if full.split(".")[0] != "railgames" and any(private(p) for p in full.split(".")):
                        seen.append((f, node, full, "upstream"))
            elif isinstance(node, ast.Attribute) and private(node.attr):
                base = node.value
                cls = f.enclosing_class(node)
                is_self = (isinstance(base, ast.Name) and base.id in ("self", "cls")) or (
                    isinstance(base, ast.Call) and isinstance(base.func, ast.Name)
                    and base.func.id == "super")
                if is_self and cls is not None:
                    if node.attr in f.upstream(cls):
                        seen.append((f, node, node.attr, "self"))
                    else:
                        own.add(node.attr)
                elif f.resolves_foreign(base):
                    seen.append((f, node, node.attr, "upstream"))
                else:
                    seen.append((f, node, node.attr, "other"))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if private(node.name):
                    cls = f.enclosing_class(node)
                    if cls is not None and f.parents.get(node) is cls:
                        if node.name in f.upstream(cls):
                            seen.append((f, node, node.name, "def"))
                        else:
                            own.add(node.name)
                    else:
                        own.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                cls = f.enclosing_class(node)
                for target in targets:
                    if isinstance(target, ast.Name) and private(target.id):
                        if cls is not None and f.parents.get(node) is cls and target.id in f.upstream(cls):
                            seen.append((f, node, target.id, "def"))
                        else:
                            own.add(target.id)
            elif isinstance(node, ast.Call) and len(node.args) >= 2:
                func = node.func
                name = func.id if isinstance(func, ast.Name) else (
                    func.attr if isinstance(func, ast.Attribute) else "")
                arg = node.args[1]
                if (name in ATTR_CALLS and isinstance(arg, ast.Constant)
                        and isinstance(arg.value, str) and private(arg.value)):
                    seen.append((f, node, arg.value, "other"))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.startswith("__pydantic_"):
                seen.append((f, node, node.value, "upstream"))
    return own, seen


def touchpoints(root: Path = ROOT) -> list[Touch]:
    """Every use of an upstream private name in the package of the checkout ``root``."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    files = [_File(p, root) for p in sorted((root / "railgames").rglob("*.py"))]
    own, seen = _own_and_candidates(files)
    found = set()
    for f, node, name, how in seen:
        if how == "other" and name in own and not name.startswith("__pydantic_"):
            continue
        found.add(Touch(f.rel, getattr(node, "lineno", 0), name))
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="list the places in compat.py too")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to read")
    args = parser.parse_args()
    found = touchpoints(args.root.resolve())
    outside = [t for t in found if t.path != COMPAT]
    for touch in found if args.all else outside:
        print(touch)
    names = sorted({t.name for t in outside})
    modules = sorted({t.path for t in outside})
    print(f"outside {COMPAT}: {len(outside)} places, {len(names)} names, {len(modules)} modules;"
          f" in it: {len(found) - len(outside)} places")


if __name__ == "__main__":
    main()
