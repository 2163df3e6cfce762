"""Where railgames keeps its caches, and a stamp of the sources cached results come from.

A cache (the launcher's cards, validated boards) is trusted only while its stamp
equals ``source_stamp()``: one line per file of the ``railgames`` package and
of the maps folders (path, size, modification time), after the Python version
and railgames' own. Any change to those files, or another Python, makes every
cache stale, and what it held is worked out again exactly as without it. (The
parsed CSS of the app, app/css_cache.py, is keyed by the CSS text itself and
stamped with Textual's files instead.)
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

import railgames

DATA_DIR_ENV = "RAILGAMES_DATA_DIR"  # saves, and then caches, under this folder
SOURCE_SUFFIXES = (".py", ".md", ".toml", ".tcss")


def cache_dir() -> Path:
    """Beside the saves when ``$RAILGAMES_DATA_DIR`` is set, else the user's cache folder."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override) / "cache"
    return Path(_user_cache_dir())


def _user_cache_dir() -> str:
    """platformdirs' ``user_cache_dir("railgames")``. On Linux, where the XDG rules are
    short, worked out here in the common cases: importing platformdirs takes longer
    than a short command has to spare (a test checks they agree)."""
    if sys.platform == "linux" and not hasattr(sys, "getandroidapilevel"):
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        if xdg.startswith("/"):
            return os.path.join(xdg, "railgames")
        if os.environ.get("HOME", "").startswith("/"):
            return os.path.join(os.path.expanduser("~/.cache"), "railgames")
    from platformdirs import user_cache_dir

    return user_cache_dir("railgames")


def _source_dirs() -> list[Path]:
    package = Path(railgames.__file__).resolve().parent
    checkout_maps = package.parent / "maps"  # an installed package has its maps inside
    return [package, checkout_maps] if checkout_maps.is_dir() else [package]


def scan_sources() -> str:
    """The stamp, worked out now: compared whole, so no hashing module has to load."""
    lines = [f"{sys.version} {railgames.__version__}"]
    for top in _source_dirs():
        stack = [top]
        while stack:
            folder = stack.pop()
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__" and not entry.name.startswith("."):
                        stack.append(Path(entry.path))
                elif entry.name.endswith(SOURCE_SUFFIXES):
                    st = entry.stat()
                    lines.append(f"{entry.path} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(lines)


@lru_cache(maxsize=1)
def source_stamp() -> str:
    """The stamp, worked out once a process: the code this process runs is the code it
    imported, whatever happens to the files later."""
    return scan_sources()
