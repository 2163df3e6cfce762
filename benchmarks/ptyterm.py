"""Run a program in a real pseudo-terminal and watch what it writes.

Shared by the app benchmarks: they start the app the way a player does, in a
terminal of a given size, and count bytes and time on the terminal's side.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable

ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def plain(data: bytes) -> str:
    """The text of terminal output, escape sequences removed."""
    return ANSI.sub(b"", data).decode("utf-8", "replace")


def terminal_env(**extra: str) -> dict[str, str]:
    # LINES and COLUMNS would override the pty's own size (pytest-xdist's workers set
    # them to 24 and 80).
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "TEXTUAL_THEME", "LINES", "COLUMNS")
           and not k.startswith("TEXTUAL_")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    env.update(extra)
    return env


class PtyApp:
    """A child process on the slave side of a fresh pty; we hold the master side."""

    def __init__(self, argv: list[str], *, cols: int = 120, rows: int = 40,
                 env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child: size the terminal, then become the program
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                if cwd:
                    os.chdir(cwd)
                os.execvpe(argv[0], argv, env if env is not None else terminal_env())
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.output = bytearray()
        self.closed = False
        self.last_data_at = self.started  # perf_counter() of the latest bytes read

    def _read(self, timeout: float) -> bytes:
        if self.closed:
            return b""
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return b""
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the child has gone: EIO on Linux
            self.closed = True
            return b""
        if not chunk:
            self.closed = True
        else:
            self.last_data_at = time.perf_counter()
        self.output += chunk
        return chunk

    def wait_for(self, found: Callable[[bytes], bool], timeout: float = 30.0) -> float:
        """Seconds from the start of the process until ``found(output so far)``."""
        deadline = time.perf_counter() + timeout
        while not found(bytes(self.output)):
            if self.closed or time.perf_counter() > deadline:
                tail = plain(bytes(self.output[-2000:]))
                raise TimeoutError(f"gave up waiting; last output:\n{tail}")
            self._read(deadline - time.perf_counter())
        return time.perf_counter() - self.started

    def wait_for_text(self, text: str, timeout: float = 30.0) -> float:
        squeezed = "".join(text.split())
        return self.wait_for(lambda out: squeezed in "".join(plain(out).split()), timeout)

    def drain(self, quiet: float = 0.3, timeout: float = 10.0) -> bytes:
        """Everything written until the terminal has been quiet for ``quiet`` seconds."""
        start = len(self.output)
        deadline = time.perf_counter() + timeout
        last = time.perf_counter()
        while time.perf_counter() < deadline and not self.closed:
            if self._read(min(quiet, deadline - time.perf_counter())):
                last = time.perf_counter()
            elif time.perf_counter() - last >= quiet:
                break
        return bytes(self.output[start:])

    def send(self, data: str | bytes) -> None:
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def close(self) -> None:
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        deadline = time.perf_counter() + 3
        while time.perf_counter() < deadline:
            self._read(0.05)
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
        else:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self.pid, 0)
        try:
            os.close(self.fd)
        except OSError:
            pass


KEYS = {
    "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
    "enter": "\r", "tab": "\t", "escape": "\x1b",
}


def python() -> str:
    return sys.executable
