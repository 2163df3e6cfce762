"""Reading a file someone named from outside: a regular file only, within a size cap.

A path from the command line, a saves folder or a host's tables folder may name
a named pipe (whose reader waits forever for a writer), a device (``/dev/zero``
never ends, ``/dev/tty`` waits for keys), a socket or a folder. None of those is
opened in a way that can block: the path is looked at first, then opened
non-blocking, and the opened file is looked at again, so a pipe swapped in
between is caught before a byte is read. Only then is it read, never past the cap.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from railgames.core.errors import RailgamesError

# Opened without waiting (a pipe with no writer), without becoming the process's
# terminal (a tty), and closed in any program this one starts.
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular one is, in a player's words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_regular(path: Path, limit: int, what: str,
                 error: type[RailgamesError] = RailgamesError) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Anything else is refused at once with one ``error`` naming the path: a file
    that is missing, unreadable, over the cap, or not a regular file. ``what``
    names the kind of file expected ("a saved game", "a map").
    """
    def refuse(reason: str) -> RailgamesError:
        return error(f"{path}: {reason}")

    def check(st: os.stat_result) -> None:
        kind = kind_of(st.st_mode)
        if kind is not None:
            raise refuse(f"is {kind}, not {what}")
        if st.st_size > limit:  # refused before a byte of it is read
            raise refuse(f"too large for {what} ({st.st_size:,} bytes; at most {limit:,})")

    try:
        check(os.stat(path))
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise refuse("no such file") from None
    except OSError as exc:
        raise refuse(f"cannot be read ({exc.strerror or exc})") from None
    try:
        check(os.fstat(fd))  # the file opened, which may not be the one looked at
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # it may have grown since: never more than the cap and one byte
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise refuse(f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if size > limit:
        raise refuse(f"too large for {what} (over {limit:,} bytes)")
    return b"".join(chunks)
