"""Start-to-launcher time of the whole ``railgames`` process, next to a minimal Textual app.

Each program is started in a real pseudo-terminal (120x40), the runs of the two
alternating, and timed from the fork until its first screen is on the terminal:
for railgames the whole launcher, its subtitle and the keys in its footer; for the
minimal app its one line of text. A first start of each is timed apart: as just
after installing, its bytecode compiled but no data or cache folders yet.
Target: railgames at most 1.15 times the minimal app, the mean of the warm runs and
the first start alike.

    .venv/bin/python benchmarks/app_startup.py [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from appmeasure import Figure, load_line, verdict
from ptyterm import PtyApp, terminal_env

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER_TEXT = "Railway board games for one shared keyboard."
LAUNCHER_FOOTER = "^p palette"  # the last key of the footer
MINIMAL_TEXT = "A minimal Textual app is ready."
TARGET = 1.15
CARDS_CACHE = "railgames/launcher-cards.json"  # see railgames/app/cards.py

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


def time_once(argv: list[str], text: str, env: dict[str, str], *more: str,
              settle: str | None = None) -> float:
    """Seconds until ``text`` and every one of ``more`` are on the terminal.

    With ``settle``, a file under $XDG_CACHE_HOME: the program is left running until it
    has written it (railgames writes its launcher cards just after the first frame).
    """
    app = PtyApp(argv, cols=120, rows=40, env=env, cwd=str(ROOT))
    try:
        took = max(app.wait_for_text(t, timeout=60) for t in (text, *more))
        if settle:
            wanted = Path(env["XDG_CACHE_HOME"]) / settle
            deadline = time.perf_counter() + 30
            while not wanted.exists() and time.perf_counter() < deadline:
                app.drain(quiet=0.1, timeout=0.2)
        return took
    finally:
        app.close()


def describe(name: str, times: list[float]) -> str:
    return f"{name:<16} {Figure([t * 1000 for t in times]).show(' ms', 1)}"


@dataclass
class StartupResult:
    first_min: float
    first_ours: float
    t_min: list[float]
    t_ours: list[float]

    @property
    def ratio(self) -> float:
        return statistics.mean(self.t_ours) / statistics.mean(self.t_min)

    @property
    def first_ratio(self) -> float:
        return self.first_ours / self.first_min

    @property
    def ok(self) -> bool:
        return self.ratio <= TARGET and self.first_ratio <= TARGET


def scratch_env(home: Path, pycache: Path) -> dict[str, str]:
    """Data and cache folders under ``home``, compiled bytecode in ``pycache``.

    Fresh folders: no saved games to list, no launcher cards kept from before,
    nothing of the user's touched. The bytecode is written even where the
    environment says not to (PYTHONDONTWRITEBYTECODE): an installed program has its
    .pyc files (pip compiles them when it installs), and both programs start from theirs.
    """
    home.mkdir(parents=True, exist_ok=True)
    env = terminal_env(XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home),
                       XDG_CACHE_HOME=str(home), PYTHONPYCACHEPREFIX=str(pycache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(runs: int = 10) -> StartupResult:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        minimal = [sys.executable, "-c", MINIMAL_APP]
        ours = railgames_command()
        pycache = root / "pycache"
        warm = scratch_env(root / "warm", pycache)
        # One start of each, not counted, writes the .pyc files (and railgames' launcher
        # cards, see railgames/app/cards.py) and warms the disk cache.
        time_once(minimal, MINIMAL_TEXT, warm)
        time_once(ours, LAUNCHER_TEXT, warm, LAUNCHER_FOOTER, settle=CARDS_CACHE)
        # The first start after installing: bytecode compiled, data and cache folders
        # not there yet.
        first_min = time_once(minimal, MINIMAL_TEXT, scratch_env(root / "first-min", pycache))
        first_ours = time_once(ours, LAUNCHER_TEXT, scratch_env(root / "first-ours", pycache),
                               LAUNCHER_FOOTER)
        t_min: list[float] = []
        t_ours: list[float] = []
        for _ in range(runs):
            t_min.append(time_once(minimal, MINIMAL_TEXT, warm))
            t_ours.append(time_once(ours, LAUNCHER_TEXT, warm, LAUNCHER_FOOTER))
    return StartupResult(first_min, first_ours, t_min, t_ours)


def ratio_rows(games: list[str], quick: bool) -> list[dict[str, object]]:
    """The start-up rows of run_all.py: the ratio of each warm pair, and of the first starts."""
    res = measure(4 if quick else 10)
    pairs = Figure([o / m for o, m in zip(res.t_ours, res.t_min, strict=True)])
    ours, minimal = Figure([t * 1000 for t in res.t_ours]), Figure([t * 1000 for t in res.t_min])
    return [
        {"figure": "start to launcher / minimal Textual app, warm, ratio per pair",
         "game": "all", "size": "120x40",
         "values": f"{pairs.mean:.2f} / {pairs.p95:.2f} / {pairs.max:.2f}x  (railgames "
                   f"{ours.show(' ms', 0)}; minimal {minimal.show(' ms', 0)})",
         "target": f"<= {TARGET}x (ratio of means {res.ratio:.2f}x)",
         "ok": res.ratio <= TARGET},
        {"figure": "start to launcher / minimal Textual app, first start", "game": "all",
         "size": "120x40",
         "values": f"{res.first_ratio:.2f}x  ({res.first_ours * 1000:,.0f} ms vs "
                   f"{res.first_min * 1000:,.0f} ms)",
         "target": f"<= {TARGET}x", "ok": res.first_ratio <= TARGET},
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    result = measure(args.runs)
    print(f"Start to first screen, Python {sys.version.split()[0]}; {load_line()}")
    print(f"first start (no data or cache folders yet): minimal {result.first_min * 1000:.1f} ms, "
          f"railgames {result.first_ours * 1000:.1f} ms: {result.first_ratio:.2f}x")
    print(describe("minimal Textual", result.t_min))
    print(describe("railgames", result.t_ours)
          + f"   command: {' '.join(Path(a).name for a in railgames_command())}")
    print(f"ratio railgames / minimal, means of warm starts: {result.ratio:.2f}x, first start "
          f"{result.first_ratio:.2f}x (target <= {TARGET}x each): {verdict(result.ok)}")
    return 0 if result.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
