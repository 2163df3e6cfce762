"""Each game's tutorial played to its end by keyboard, on a real terminal at 80x24.

``railgames learn GAME`` runs on a pseudo-terminal; Enter is pressed on the
highlighted move until the tutorial's end screen shows. The moves made are read
from the tutorial's save on disk and must be the expected path's, every rule taught.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pyte
import pytest

from benchmarks.ptyterm import PtyApp, terminal_env
from railgames.core.tutorial import chosen_spec, play_path
from railgames.games import launcher_ids, load_ruleset

ENTER = "\r"
WAIT = 60.0  # seconds the app may take to start or to end
STEP = 4.0  # seconds a move may take to be saved before Enter is pressed again


class Screen80:
    def __init__(self, argv: list[str], data_dir: Path) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.fed = 0
        env = terminal_env(RAILGAMES_DATA_DIR=str(data_dir), RAILGAMES_BOT_DELAY="0")
        self.app = PtyApp([sys.executable, "-m", "railgames.cli", *argv], cols=80, rows=24,
                          env=env)

    def text(self) -> str:
        self.stream.feed(bytes(self.app.output[self.fed:]))
        self.fed = len(self.app.output)
        return "\n".join(self.screen.display)

    def shows(self, pattern: str, timeout: float) -> bool:
        try:
            self.app.wait_for(lambda _: re.search(pattern, self.text()) is not None, timeout)
        except TimeoutError:
            return False
        return True


def saved(data: Path, game: str) -> list[dict[str, Any]]:
    path = data / "saves" / "tutorials" / f"{game}.json"
    try:
        return list(json.loads(path.read_text())["actions"])
    except (OSError, ValueError):  # not written yet (a save is replaced whole)
        return []


@pytest.mark.parametrize("game", launcher_ids())
def test_the_tutorial_is_played_to_its_end_by_keyboard(game: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    term = Screen80(["learn", game], data)
    try:
        assert term.shows(r"Rules \d+/\d+", WAIT), term.text()
        deadline = time.monotonic() + 300
        while not re.search("Tutorial finished", term.text()):
            assert time.monotonic() < deadline, term.text()
            before = len(saved(data, game))
            term.app.send(ENTER)
            end = time.monotonic() + STEP
            while len(saved(data, game)) == before and time.monotonic() < end:
                if term.shows("Tutorial finished", 0.05):
                    break
            assert "Not allowed" not in term.text(), term.text()
        assert term.shows("Play a real game", WAIT), term.text()
    finally:
        term.app.close()
    path = play_path(load_ruleset(game), chosen_spec(game))
    assert saved(data, game) == path.game.record.actions
    assert not path.missing
