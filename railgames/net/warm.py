"""The warm process: the app's modules imported once, each session's app forked from it.

A fresh interpreter per SSH session imports Textual, Rich and the games again
(about a second of processor time and 65 MB each). Forked from a process that
has already imported them, a session's app shares those pages with every other
session's, and only what it changes is its own.

``railgames host`` starts one at start-up (``WarmForker``), with one end of a
socket pair as its only way in: no name in the file system, nothing a session's
app can reach (each app closes every descriptor but its terminal). On each
request (a session's environment, its niceness, and its terminal's end as a
passed descriptor) it forks; the child leads a session of its own on that
terminal and runs the seat app. The warm process reaps its children and tells
the host each one's pid and, later, its exit status.

The warm process never runs a session's code itself: each app starts from the
same state, whatever the apps before it did (their players, folders, caches).
It imports with the environment every app shares (``WarmForker.base_env``), so
what a module reads from the environment as it is imported is what a fresh app
would read; the values that differ per session are set in the child.

If the warm process dies or stops answering, the host logs one line, starts a
new one, and meanwhile starts apps the old way (a fresh interpreter each).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

# A request waits this long for the warm process's answer (a fork takes milliseconds);
# with none, the warm process is taken for lost and the app is started the old way.
ANSWER_TIMEOUT = 10.0
# After a warm process is lost, the next one is started after this many seconds, doubled
# (up to RESTART_MAX) each time one is lost within a minute of starting.
RESTART_FIRST = 0.5
RESTART_MAX = 60.0
MESSAGE_MAX = 256 * 1024
# What each child runs ("module:function", its return value the exit status): the seat
# app. Another (HostConfig.warm_app) is imported alone, with nothing preloaded for it.
SEAT_APP = "railgames.net.app:run"

# What the warm process imports before it forks anything: the seat app, and what a session
# imported later besides (measured: a session that opened a table and played at it), so
# that no app imports it on its own. Every game's modules are imported too (walked).
PRELOAD = (
    "railgames.net.app", "railgames.net.home", "railgames.net.hometables",
    "railgames.net.settings_ui", "railgames.net.after_ui",
    "railgames.app.saves", "railgames.app.screens.game", "railgames.app.widgets.board_base",
    "railgames.app.widgets.graph_board", "railgames.app.widgets.hex_layout",
    "railgames.core.auctions", "railgames.core.board_cache", "railgames.core.gains",
    "railgames.core.phases", "railgames.core.places", "railgames.core.rulebook",
    "railgames.core.state_copy",
    "textual.drivers.linux_driver", "textual.drivers._writer_thread", "textual._xterm_parser",
    "textual._keyboard_protocol", "textual.layouts.factory", "textual.layouts.horizontal",
    "textual.layouts.stream", "textual.scrollbar", "textual.pilot",
    "rich._unicode_data.unicode17-0-0", "tomllib", "tty", "queue", "concurrent.futures.thread",
)
WALKED = ("railgames.games",)


def _preload() -> None:
    import importlib
    import pkgutil

    names = list(PRELOAD)
    for package in WALKED:
        with contextlib.suppress(Exception):
            found = importlib.import_module(package)
            names += [info.name for info in pkgutil.walk_packages(found.__path__, package + ".")]
    for name in names:
        with contextlib.suppress(Exception):  # an app that needs it imports it (and says why not)
            importlib.import_module(name)
    # Each game's default map, read once here (kept by load_ruleset's cache): a table's
    # app finds it read already, in pages every app shares.
    with contextlib.suppress(Exception):
        from railgames.games import launcher_ids, load_ruleset

        for game in launcher_ids():
            with contextlib.suppress(Exception):
                load_ruleset(game)


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):  # the host is gone: the next read says so
        sock.send(json.dumps(message).encode())


def _app(spec: str) -> Any:
    import importlib

    module, _, function = spec.partition(":")
    return getattr(importlib.import_module(module), function)


def serve(fd: int, spec: str = SEAT_APP) -> None:
    """The warm process's loop: a request in, a child forked; a child ended, reaped."""
    import gc
    import select

    gc.disable()  # as the seat app does while it imports
    sock = socket.socket(fileno=fd)
    sock.setblocking(True)
    if spec == SEAT_APP:
        _preload()
    main = _app(spec)
    gc.collect()
    gc.freeze()  # no collector pass in an app touches (and so copies) these pages
    poller = select.poll()  # no descriptor of its own to leak into a child
    poller.register(sock.fileno(), select.POLLIN)
    children: dict[int, int] = {}  # pidfd -> pid
    _send(sock, {"ready": True, "pid": os.getpid()})
    while True:
        for fd_ready, _ in poller.poll():
            if fd_ready != sock.fileno():
                pid = children.pop(fd_ready)
                poller.unregister(fd_ready)
                os.close(fd_ready)
                _, status = os.waitpid(pid, 0)
                _send(sock, {"pid": pid, "exit": os.waitstatus_to_exitcode(status)})
                continue
            try:
                data, fds, _flags, _addr = socket.recv_fds(sock, MESSAGE_MAX, 4)
            except OSError:
                return
            if not data:  # the host has gone: its apps go on until their terminals hang up
                return
            try:
                request = json.loads(data)
                ident = request["id"]
            except (ValueError, KeyError, TypeError):
                for extra in fds:
                    os.close(extra)
                continue
            if len(fds) != 1:
                for extra in fds:
                    os.close(extra)
                _send(sock, {"id": ident, "error": "no terminal given"})
                continue
            try:
                pid = os.fork()
            except OSError as exc:
                os.close(fds[0])
                _send(sock, {"id": ident, "error": str(exc)})
                continue
            if pid == 0:
                _child(sock, fds[0], request.get("env") or {}, int(request.get("nice") or 0),
                       main)
            os.close(fds[0])
            pidfd = os.pidfd_open(pid)
            children[pidfd] = pid
            poller.register(pidfd, select.POLLIN)
            _send(sock, {"id": ident, "pid": pid})


_KEPT: list[Any] = []  # the warm process's standard streams, never closed in a child


def _child(sock: socket.socket, tty: int, env: dict[str, str], nice: int, main: Any) -> None:
    """In the forked child: the terminal made its own, then the seat app. Never returns."""
    code: Any = 1
    try:
        sock.detach()  # closed below with the rest, by number
        os.setsid()
        import fcntl
        import termios

        fcntl.ioctl(tty, termios.TIOCSCTTY, 0)
        for target in (0, 1, 2):
            os.dup2(tty, target)
        # Nothing of the warm process's (its socket to the host, the other children's
        # pidfds, this terminal's first descriptor) stays open in the app.
        os.closerange(3, os.sysconf("SC_OPEN_MAX"))
        if nice:
            os.nice(nice)
        os.environ.clear()
        os.environ.update(env)
        import random

        random.seed()  # (os.fork reseeds it too; no app shares another's sequence)
        _KEPT.extend((sys.stdin, sys.stdout, sys.stderr))
        # The standard streams on the terminal, as a fresh interpreter has them there
        # (Textual's driver reads and writes sys.__stdin__ and sys.__stderr__).
        streams = (open(0, encoding="utf-8", closefd=False),  # noqa: SIM115
                   open(1, "w", encoding="utf-8", buffering=1, closefd=False),  # noqa: SIM115
                   open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                        buffering=1, closefd=False))
        sys.stdin, sys.stdout, sys.stderr = streams
        for name, stream in zip(("__stdin__", "__stdout__", "__stderr__"), streams,
                                strict=True):
            setattr(sys, name, stream)
        from railgames.net import seat_app

        sys.argv = [seat_app.__file__ or "seat_app"]
        import gc

        gc.enable()
        code = main()
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        import traceback

        with contextlib.suppress(BaseException):
            traceback.print_exc()
        code = 1
    finally:
        try:
            from railgames.compat import run_exit_functions

            run_exit_functions()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            if code is None:
                code = 0
            elif not isinstance(code, int):
                with contextlib.suppress(BaseException):
                    print(code, file=sys.stderr)
                code = 1
            os._exit(code & 0xFF)


# ------------------------------------------------------------------ the host's side
class WarmLost(Exception):
    """The warm process is gone (or never answered): the app is started the old way."""


class ForkedApp:
    """An app the warm process forked, as a session sees it: what it needs of asyncio's
    ``Process`` (``pid``, ``returncode``, ``wait``)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._done = asyncio.Event()
        self._watching = False
        try:  # to know when it ends should the warm process (its parent) be lost
            self.pidfd: int | None = os.pidfd_open(pid)
        except OSError:  # already ended and reaped: its exit status is on its way
            self.pidfd = None

    async def wait(self) -> int:
        await self._done.wait()
        assert self.returncode is not None
        return self.returncode

    def ended(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
            self._done.set()
        if self.pidfd is not None:
            if self._watching:
                asyncio.get_running_loop().remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = None

    def orphaned(self) -> None:
        """Its parent is gone: it is watched here, and its exit status is not known (an
        orphan is reaped by the system), so it is taken as 0."""
        if self.pidfd is None:
            self.ended(0)
            return
        self._watching = True
        asyncio.get_running_loop().add_reader(self.pidfd, self.ended, 0)


class WarmForker:
    """The host's side of the warm process: starts it, asks it for apps, and starts a new
    one when it is lost (``event`` logs one line each time)."""

    def __init__(self, base_env: dict[str, str], event: Any, spec: str = SEAT_APP) -> None:
        self.base_env = base_env
        self.spec = spec
        self.event = event
        self.proc: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        self.pending: dict[int, asyncio.Future[ForkedApp]] = {}
        self.apps: dict[int, ForkedApp] = {}
        self.next_id = 0
        self.started_at = 0.0
        self.restart_delay = RESTART_FIRST
        self.restart: asyncio.TimerHandle | None = None
        self.closing = False
        self.ready = False  # it has said it is ready (its imports done)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def start(self) -> None:
        self.restart = None
        if self.closing or self.sock is not None:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            # A session of its own: a Ctrl-C at the host's terminal is the host's to handle.
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "railgames.net.warm", str(theirs.fileno()), self.spec],
                pass_fds=[theirs.fileno()], env=self.base_env, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            ours.close()
            self._schedule_restart(f"not started: {exc}")
            return
        finally:
            theirs.close()
        ours.setblocking(False)
        self.ready = False
        self.sock = ours
        self.started_at = time.monotonic()
        asyncio.get_running_loop().add_reader(ours.fileno(), self._read)

    async def fork(self, env: dict[str, str], tty: int, nice: int) -> ForkedApp:
        """An app forked on terminal ``tty`` (its slave end); WarmLost if none can be."""
        if self.sock is None:
            raise WarmLost
        self.next_id += 1
        ident = self.next_id
        future: asyncio.Future[ForkedApp] = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        try:
            socket.send_fds(self.sock, [json.dumps({"id": ident, "env": env,
                                                    "nice": nice}).encode()], [tty])
        except OSError as exc:
            self.pending.pop(ident, None)
            self.lost(f"a request could not be sent: {exc}")
            raise WarmLost from None
        try:
            return await asyncio.wait_for(asyncio.shield(future), ANSWER_TIMEOUT)
        except TimeoutError:
            self.lost(f"no answer in {ANSWER_TIMEOUT:.0f} s")
            raise WarmLost from None
        except asyncio.CancelledError:
            # The session stopped waiting: an app forked for it after all is ended at
            # once (here, or in _read when its answer comes), never left running unseen.
            if future.done() and not future.cancelled() and future.exception() is None:
                _kill_group(future.result().pid)
            raise
        finally:
            self.pending.pop(ident, None)

    def _read(self) -> None:
        sock = self.sock
        while sock is not None:
            try:
                data = sock.recv(MESSAGE_MAX)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data = b""
            if not data:
                self.lost("it ended")
                return
            try:
                message = json.loads(data)
            except ValueError:
                continue
            if "id" in message:
                future = self.pending.pop(message["id"], None)
                if "pid" in message:
                    app = ForkedApp(int(message["pid"]))
                    self.apps[app.pid] = app
                    if future is None or future.done():  # nobody waits for it any more
                        _kill_group(app.pid)
                    else:
                        future.set_result(app)
                elif future is not None and not future.done():
                    future.set_exception(WarmLost(str(message.get("error"))))
            elif "exit" in message:
                ended = self.apps.pop(int(message["pid"]), None)
                if ended is not None:
                    ended.ended(int(message["exit"]))
            elif message.get("ready"):
                self.ready = True
                self.restart_delay = RESTART_FIRST

    def lost(self, reason: str) -> None:
        """The warm process is gone or of no use: ended, its apps watched here, its waiting
        requests refused (their apps are started the old way), a new one on the way."""
        sock, proc = self.sock, self.proc
        if sock is None:
            return
        asyncio.get_running_loop().remove_reader(sock.fileno())
        sock.close()
        self.sock = None
        self.proc = None
        self.ready = False
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.kill()
            asyncio.get_running_loop().run_in_executor(None, proc.wait)
        for future in self.pending.values():
            if not future.done():
                future.set_exception(WarmLost(reason))
        self.pending.clear()
        for app in self.apps.values():
            app.orphaned()
        running = len(self.apps)
        self.apps.clear()
        if not self.closing:
            self._schedule_restart(reason, running)

    def _schedule_restart(self, reason: str, running: int = 0) -> None:
        if self.closing or self.restart is not None:
            return
        delay = self.restart_delay
        if time.monotonic() - self.started_at < 60.0:  # lost soon after it started
            self.restart_delay = min(self.restart_delay * 2, RESTART_MAX)
        self.event("warm_process_lost", reason=reason, apps_running=running,
                   restart_in=round(delay, 1))
        self.restart = asyncio.get_running_loop().call_later(delay, self.start)

    async def close(self) -> None:
        """The warm process ends (its apps, if any, go on until their terminals hang up)."""
        self.closing = True
        if self.restart is not None:
            self.restart.cancel()
            self.restart = None
        proc = self.proc
        if self.sock is not None:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.sock.close()  # its end of file: it leaves by itself
            self.sock = None
        self.proc = None
        if proc is not None:
            try:
                await asyncio.wait_for(asyncio.to_thread(proc.wait), 5.0)
            except TimeoutError:
                proc.kill()
                await asyncio.to_thread(proc.wait)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def fresh_command(spec: str) -> list[str]:
    """The command that runs app ``spec`` in a fresh interpreter (no warm process)."""
    if spec == SEAT_APP:
        return [sys.executable, "-m", "railgames.net.seat_app"]
    return [sys.executable, "-m", "railgames.net.warm", "--fresh", spec]


if __name__ == "__main__":
    if sys.argv[1] == "--fresh":  # an app of a host's warm_app, started the old way
        raise SystemExit(_app(sys.argv[2])())
    serve(int(sys.argv[1]), sys.argv[2])
