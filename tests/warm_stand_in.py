"""A stand-in app for the warm process's tests (``HostConfig.warm_app``): forked from the
warm process as the seat app is, it says what it was given, then answers keys.

Its first line is ``state`` and a JSON object: its player, folder, token, environment
names, open descriptors, session, process group, parent, working folder and umask,
and what the module held before this app (``SEEN``: only this app's player, if nothing
of one session reaches the next). Then each read of its terminal is answered with
``got N``; ``spawn`` starts a ``sleep`` in its process group (its pid answered);
``quit`` says ``bye`` and ends with status 3. ``slow_main`` is the same app, in a
warm process that takes three seconds to be ready (it waits as it imports this).
"""

from __future__ import annotations

import json
import os
import subprocess

SEEN: list[str] = []  # module state an app changes: the next app must not see it


def __getattr__(name: str) -> object:
    """``slow_main``: ``main``, looked up (by the warm process, before it is ready) after
    three seconds."""
    if name == "slow_main":
        import time

        time.sleep(3.0)
        return main
    raise AttributeError(name)


def main() -> int:
    SEEN.append(os.environ.get("RAILGAMES_PLAYER", "?"))
    fds = []
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:  # the listing's own descriptor, closed by now
            continue
        if not target.startswith("/proc/"):
            fds.append(int(name))
    umask = os.umask(0o022)
    os.umask(umask)
    state = {
        "player": os.environ.get("RAILGAMES_PLAYER"),
        "data_dir": os.environ.get("RAILGAMES_DATA_DIR"),
        "token": os.environ.get("RAILGAMES_TOKEN"), "env": sorted(os.environ),
        "seen": SEEN, "fds": sorted(fds), "pid": os.getpid(), "sid": os.getsid(0),
        "pgid": os.getpgid(0), "ppid": os.getppid(), "cwd": os.getcwd(), "umask": umask,
        "tty": os.ttyname(0), "stdout_tty": os.isatty(1),
    }
    os.write(1, b"state " + json.dumps(state).encode() + b"\r\n")
    SEEN.append("changed by " + str(state["player"]))
    os.environ["RAILGAMES_PLAYER"] = "changed"
    os.chdir("/")
    os.umask(0o077)
    while True:
        data = os.read(0, 65536)
        if not data:
            return 0
        if data == b"quit":
            os.write(1, b"bye\r\n")
            return 3
        if data == b"spawn":
            sleeper = subprocess.Popen(["sleep", "600"])
            os.write(1, b"spawned %d\r\n" % sleeper.pid)
            continue
        os.write(1, b"got %d\r\n" % len(data))
