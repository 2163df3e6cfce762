"""Start-to-launcher time of the whole ``railgames`` process, next to a minimal Textual app.

Each program is started in a real pseudo-terminal (120x40), the runs of the two
alternating, and timed from the fork until its first screen is on the terminal:
for railgames the whole launcher, its subtitle and the keys in its footer; for the
minimal app its one line of text.
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
LAUNCHER_FOOTER = "^p palette"  # the last key of the footer
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


def time_once(argv: list[str], text: str, env: dict[str, str], *more: str) -> float:
    """Seconds until ``text`` and every one of ``more`` are on the terminal."""
    app = PtyApp(argv, cols=120, rows=40, env=env, cwd=str(ROOT))
    try:
        return max(app.wait_for_text(t, timeout=60) for t in (text, *more))
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
        # Fresh data and cache directories: no saved games to list, no launcher cards
        # kept from before, nothing of the user's touched. Compiled bytecode goes to a
        # scratch folder too, and is written even where the environment says not to
        # (PYTHONDONTWRITEBYTECODE): an installed program has its .pyc files, and both
        # programs here then start from theirs.
        env = terminal_env(XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home,
                           PYTHONPYCACHEPREFIX=str(Path(home) / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        minimal = [sys.executable, "-c", MINIMAL_APP]
        ours = railgames_command()
        # One start of each, not counted, writes the .pyc files (and railgames' launcher
        # cards, see railgames/app/cards.py) and warms the disk cache.
        time_once(minimal, MINIMAL_TEXT, env)
        time_once(ours, LAUNCHER_TEXT, env, LAUNCHER_FOOTER)
        t_min: list[float] = []
        t_ours: list[float] = []
        for _ in range(args.runs):
            t_min.append(time_once(minimal, MINIMAL_TEXT, env))
            t_ours.append(time_once(ours, LAUNCHER_TEXT, env, LAUNCHER_FOOTER))

    ratio = statistics.median(t_ours) / statistics.median(t_min)
    print(f"Start to first screen, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(describe("minimal Textual", t_min))
    print(describe("railgames", t_ours) + f"   command: {' '.join(Path(a).name for a in ours)}")
    verdict = "OK" if ratio <= TARGET else "OVER TARGET"
    print(f"ratio railgames / minimal: {ratio:.2f}x (target <= {TARGET}x): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
