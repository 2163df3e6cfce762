"""What the app benchmarks share: the figures they print, and the app in a real terminal.

Every figure is shown as mean, p95 and max (a median hides the slow keys a
player notices), next to its target and a verdict. ``GameInTerminal`` starts
the whole app on a mid-game record (see midgame.py) in a pseudo-terminal of a
given size, the way ``railgames load`` does, with hand-off screens off.
"""

from __future__ import annotations

import json
import math
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from midgame import GAMES, midgame, write_record
from ptyterm import PtyApp, terminal_env

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((80, 24), (120, 40))
TITLES = {"new-england": "New England", "paris-connection": "Paris Connection",
          "steel-driver": "Steel Driver", "railways-of-the-world": "Railways of the World",
          "american-rails": "American Rails"}


# ------------------------------------------------------------------- figures


def p95(values: Sequence[float]) -> float:
    """The 95th percentile, nearest rank (with 20 values or fewer: the largest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class Figure:
    """Mean, p95 and max of some measurements."""

    values: list[float]

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else math.nan

    @property
    def p95(self) -> float:
        return p95(self.values) if self.values else math.nan

    @property
    def max(self) -> float:
        return max(self.values) if self.values else math.nan

    def show(self, unit: str = "", digits: int = 0) -> str:
        if not self.values:
            return "no data"
        f = f"{{:,.{digits}f}}"
        return (f"mean {f.format(self.mean)}{unit} / p95 {f.format(self.p95)}{unit} / "
                f"max {f.format(self.max)}{unit}  (n={len(self.values)})")


def verdict(ok: bool) -> str:
    return "OK" if ok else "OVER TARGET"


# ------------------------------------------------------------------- the app in a pty


def serve(record: str) -> None:
    """The child process: the whole app resuming ``record`` as ``railgames load`` does,
    with hand-off screens off (bots wait RAILGAMES_BOT_DELAY seconds)."""
    import gc

    gc.disable()  # as the command line does while the app starts (see cli.py, run_app)
    gc.freeze()
    from railgames.app.main import RailgamesApp

    app = RailgamesApp(load_path=record, handoff=False)
    profile_to = os.environ.get("RAILGAMES_PROFILE")  # a file for cProfile's figures
    if profile_to:
        import cProfile
        import signal

        profilers = [cProfile.Profile()]

        def restart(*_: object) -> None:  # SIGUSR1: measure from now on
            profilers[0].disable()
            profilers[0] = cProfile.Profile()
            profilers[0].enable()

        def dump(*_: object) -> None:  # SIGUSR2: write what was measured
            profilers[0].disable()
            profilers[0].dump_stats(profile_to)

        signal.signal(signal.SIGUSR1, restart)
        signal.signal(signal.SIGUSR2, dump)
        profilers[0].enable()
    try:
        app.run()
    finally:
        gc.enable()



class GameInTerminal:
    """The app on a mid-game record of ``game_id``, in a ``cols`` x ``rows`` pty."""

    def __init__(self, game_id: str, cols: int, rows: int, bot_delay: float = 1.0,
                 home_in: str | None = None, game: Any = None, ready: str | None = None) -> None:
        self.game_id = game_id
        self.game = game if game is not None else midgame(game_id)
        self.ready = ready  # text on the screen once it is open (default: the prompt's)
        # The saves go to a scratch folder (``home_in``: under that folder, e.g. /dev/shm
        # to leave the disk's own time out).
        self._home = tempfile.TemporaryDirectory(dir=home_in)
        home = Path(self._home.name)
        self.record = write_record(self.game, home, "midgame.json")
        self.saves = home / "data"
        env = terminal_env(XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home),
                           XDG_CACHE_HOME=str(home), RAILGAMES_DATA_DIR=str(self.saves),
                           RAILGAMES_BOT_DELAY=str(bot_delay))
        argv = [sys.executable, str(Path(__file__).resolve()), "--serve", str(self.record)]
        self.app = PtyApp(argv, cols=cols, rows=rows, env=env, cwd=str(ROOT))

    def __enter__(self) -> GameInTerminal:
        try:
            ready = self.ready
            if ready is None:
                prompt = self.game.prompt()
                assert prompt is not None
                ready = prompt.text
            self.app.wait_for_text(ready, timeout=90)
            self.app.drain(quiet=1.0)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.app.close()
        self._home.cleanup()

    def actions_saved(self) -> int:
        """How many actions the app's autosave holds now."""
        saves = [p for p in self.saves.rglob("*.json") if not p.name.startswith(".")]
        if not saves:
            return len(self.game.record.actions)
        newest = max(saves, key=lambda p: p.stat().st_mtime_ns)
        try:
            return len(json.loads(newest.read_text(encoding="utf-8"))["actions"])
        except (OSError, ValueError, KeyError):
            return -1


def load_line() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def main_serve() -> bool:
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
        return True
    return False


__all__ = ["GAMES", "SIZES", "TITLES", "Figure", "GameInTerminal", "load_line", "p95", "verdict"]

if __name__ == "__main__":
    main_serve()
