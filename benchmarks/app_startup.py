"""Start-to-launcher time of the whole ``railgames`` process, next to a minimal Textual app.

Each program is started in a real pseudo-terminal (120x40), the runs of the two
alternating, and timed from the fork until its first screen is on the terminal:
the launcher's subtitle for railgames, the one line of text for the minimal app.
Target: railgames' median at most 1.5 times the minimal app's.

    .venv/bin/python benchmarks/app_startup.py [--runs 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from ptyterm import PtyApp, terminal_env

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER_TEXT = "Railway board games for one shared keyboard."
MINIMAL_TEXT = "A minimal Textual app is ready."
TARGET = 1.5

MINIMAL_APP = f"""
from textual.app import App
from textual.widgets import Static


class Minimal(App):
    def compose(self):
        yield Static({MINIMAL_TEXT!r})


Minimal().run()
"""


def railgames_command() -> list[str]:
    script = Path(sys.executable).with_name("railgames")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "railgames"]


def time_once(argv: list[str], text: str, env: dict[str, str]) -> float:
    app = PtyApp(argv, cols=120, rows=40, env=env, cwd=str(ROOT))
    try:
        return app.wait_for_text(text, timeout=60)
    finally:
        app.close()


def describe(name: str, times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (f"{name:<16} median {statistics.median(ms):7.1f} ms   "
            f"min {min(ms):7.1f}   max {max(ms):7.1f}   ({len(ms)} runs)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as home:
        # A fresh data directory: no saved games to list, nothing of the user's touched.
        env = terminal_env(XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)
        minimal = [sys.executable, "-c", MINIMAL_APP]
        ours = railgames_command()
        # One unmeasured start of each warms the disk cache and .pyc files.
        time_once(minimal, MINIMAL_TEXT, env)
        time_once(ours, LAUNCHER_TEXT, env)
        t_min: list[float] = []
        t_ours: list[float] = []
        for _ in range(args.runs):
            t_min.append(time_once(minimal, MINIMAL_TEXT, env))
            t_ours.append(time_once(ours, LAUNCHER_TEXT, env))

    ratio = statistics.median(t_ours) / statistics.median(t_min)
    print(f"Start to first screen, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(describe("minimal Textual", t_min))
    print(describe("railgames", t_ours) + f"   command: {' '.join(Path(a).name for a in ours)}")
    verdict = "OK" if ratio <= TARGET else "OVER TARGET"
    print(f"ratio railgames / minimal: {ratio:.2f}x (target <= {TARGET}x): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
