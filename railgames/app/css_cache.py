"""Textual's parsed style rules, kept from one start of the app to the next.

To draw the launcher, Textual first parses the CSS of the app and of every kind of
widget on it (buttons, the list of games, the footer...): on its own that is a
sixth of the launcher's start, and two thirds of what the launcher costs beyond
a minimal Textual app. What parsing gives depends only on its inputs: the CSS
text, where it came from, its place among the default rules, its scope, and the
theme's variables. So each result is kept in a cache file (``parsed-css.pickle``
in the cache folder, see core/sources.py), under a key of all those inputs, and
the next start takes it from there instead of parsing again. The file also names
Python's version and Textual's files; another version, or a file that cannot be
read, is ignored and the CSS parsed as before. Rules that were not in the file are
parsed as usual and added to it after the first frame (``save``), so the cost
of writing never delays a screen.

Textual never changes rules once parsed (it only reads them to style widgets), so
what is written after the first frame is what parsing gave; a result read back is
unpickled for one stylesheet only, so nothing is shared that Textual would not
share.
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
from typing import Any

from railgames import compat

CACHE_NAME = "parsed-css.pickle"
FORMAT = 1
MAX_BYTES = 4 * 1024 * 1024  # far above what the app's CSS takes (about 200 KB)

Key = tuple[Any, ...]

_state: dict[str, Any] = {"installed": False, "stamp": None, "read": False}
_entries: dict[Key, bytes] = {}  # key -> pickled rules, as read from the file
_fresh: dict[Key, Any] = {}  # key -> rules parsed in this process, not in the file yet


def _stamp() -> tuple[Any, ...]:
    """Python's version and Textual's installation: the files that parse CSS and make its
    rules, each as path, size and modification time (asking Textual for its version
    number would read the installed packages' metadata: longer than parsing)."""
    stamp = _state["stamp"]
    if stamp is None:
        import textual.css

        folder = os.path.dirname(textual.css.__file__)
        files = []
        for name in ("parse.py", "model.py", "styles.py", "tokenize.py", "_styles_builder.py"):
            st = os.stat(os.path.join(folder, name))
            files.append((name, st.st_size, st.st_mtime_ns))
        stamp = _state["stamp"] = (FORMAT, sys.version, folder, tuple(files))
    return stamp  # type: ignore[no-any-return]


def _path() -> str:
    from railgames.core.sources import cache_dir

    return os.path.join(cache_dir(), CACHE_NAME)


def _read() -> None:
    """The file's entries, once a process; nothing if it is missing, stale or unreadable."""
    if _state["read"]:
        return
    _state["read"] = True
    try:
        with open(_path(), "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return
        stamp, entries = pickle.loads(data)
        if stamp != _stamp() or not isinstance(entries, dict):
            return
    except Exception:  # missing, half written, another format: parse as before
        return
    for key, value in entries.items():
        if isinstance(key, tuple) and isinstance(value, bytes):
            _entries.setdefault(key, value)


def _lookup(key: Key) -> list[Any] | None:
    """The rules kept for ``key`` in the file, None if there are none (or they do not load)."""
    _read()
    pickled = _entries.get(key)
    if pickled is None:
        return None
    try:
        rules = pickle.loads(pickled)
    except Exception:
        return None
    return rules if isinstance(rules, list) else None


def _keep(key: Key, rules: Any) -> None:
    _fresh[key] = rules  # pickled when the file is written, after the first frame


def install() -> None:
    """Parse through the cache from now on (idempotent; the hook into Textual's
    stylesheets is in railgames/compat.py)."""
    if _state["installed"]:
        return
    _state["installed"] = True
    compat.cache_parsed_css(_lookup, _keep)


def save() -> None:
    """Write the file again if this process parsed anything it did not hold."""
    if not _fresh:
        return
    for key, rules in list(_fresh.items()):
        try:
            _entries[key] = pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # something that does not pickle: parsed every time, as before
            pass
    _fresh.clear()
    path = _path()
    try:
        data = pickle.dumps((_stamp(), _entries), protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > MAX_BYTES:
            return
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".css-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a cache that cannot be written: the next start parses, as before
