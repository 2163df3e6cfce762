"""A Paris Connection build made by pointing, in a real terminal.

``python -m railgames play`` runs on a pseudo-terminal; the keys are written as
the terminal sends them. After the company is chosen, each locomotive is placed
by moving the board cursor with the arrow keys to a hex where it may go and
pressing Enter; then ``e`` ends the build. Where the cursor is, is read from the
screen (the cursor line names the hex); what was placed is read from the save.
"""

from __future__ import annotations

import json
import re
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyte
import pytest

from benchmarks.ptyterm import KEYS, PtyApp, terminal_env
from railgames.core.engine import Game
from railgames.core.hexgrid import Hex
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.paris_connection.board import board_layout
from railgames.games.paris_connection.places import place_names
from railgames.games.paris_connection.rules import ParisConnectionRules

WAIT = 60.0  # seconds any one thing may take to show
PLAYERS = ["Ann", "Bob", "Cat"]
SEED = 4
PLACEMENTS = 3
CURSOR_LINE = re.compile(r"Cursor (\S.*?)(?: \([A-Z]{3}\))?(?:\s{2,}|\s*│|$)", re.M)


class Terminal:
    """The app on a pseudo-terminal of 120x40, its output read through a screen emulator."""

    def __init__(self, data_dir: Path) -> None:
        self.screen = pyte.Screen(120, 40)
        self.stream = pyte.ByteStream(self.screen)
        self.fed = 0
        env = terminal_env(RAILGAMES_DATA_DIR=str(data_dir), RAILGAMES_BOT_DELAY="0")
        self.app = PtyApp([sys.executable, "-m", "railgames", "play", "paris-connection",
                           "--players", ",".join(PLAYERS), "--seed", str(SEED)], env=env)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_until(self, shows: Any, what: str) -> None:
        def check(output: bytes) -> bool:
            self.stream.feed(output[self.fed:])
            self.fed = len(output)
            return bool(shows(self.text()))

        try:
            self.app.wait_for(check, WAIT)
        except TimeoutError:
            raise TimeoutError(f"{what}; the screen:\n{self.text()}") from None

    def wait_for(self, pattern: str) -> None:
        self.wait_until(lambda text: re.search(pattern, text), f"no {pattern!r} on the screen")

    def cursor(self) -> str | None:
        match = CURSOR_LINE.search(self.text())
        return match.group(1) if match else None


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[tuple[Terminal, Path]]:
    data = tmp_path / "data"
    term = Terminal(data)
    try:
        yield term, data
    finally:
        term.app.close()


def saved_actions(data_dir: Path) -> list[dict[str, Any]]:
    saves = sorted(data_dir.rglob("saves/paris-connection-*.json"))
    if not saves:
        return []
    try:
        return list(json.loads(saves[0].read_text())["actions"])
    except (OSError, ValueError):
        return []


def path_to(layout: Any, start: Hex, targets: set[Hex]) -> list[str]:
    """The arrow keys that take the board cursor from ``start`` to the nearest of
    ``targets`` (at least one key: the cursor is moved, not left where it was)."""
    home = layout.centre[start][0]
    queue: deque[tuple[Hex, int, list[str]]] = deque([(start, home, [])])
    seen = {(start, home)}
    while queue:
        here, home, keys = queue.popleft()
        if keys and here in targets:
            return keys
        for key in ("left", "right", "up", "down"):
            there = layout.step(here, key, home)
            if there is None:
                continue
            nhome = layout.centre[there][0] if key in ("left", "right") else home
            if (there, nhome) not in seen:
                seen.add((there, nhome))
                queue.append((there, nhome, [*keys, key]))
    raise AssertionError(f"no way from {start} to any of {targets}")


def test_a_build_of_several_locomotives_is_made_by_pointing(
        terminal: tuple[Terminal, Path]) -> None:
    term, data = terminal
    rules = load_ruleset("paris-connection")
    assert isinstance(rules, ParisConnectionRules)
    layout = board_layout(rules)
    named = {name: h for h, name in place_names(rules.map).items()}
    # The same game beside the app, to know where a locomotive may go.
    model = Game.new(rules, [PlayerSpec(name=n) for n in PLAYERS], SEED)

    term.wait_for(r"Pass the keyboard to[\s┃]+A  Ann")
    term.app.send(KEYS["enter"])
    term.wait_for(r"Build or trade\?")
    prompt = model.prompt()
    assert prompt is not None
    company = prompt.choices[0].company  # the first company listed
    term.app.send(KEYS["enter"])
    term.wait_for(r"where\? \(the \+ hexes\)")
    placed: list[list[int]] = []
    for n in range(1, PLACEMENTS + 1):
        prompt = model.prompt()
        assert prompt is not None
        legal = {h for a in prompt.choices if a.type == "build" and a.company == company
                 if (h := rules.hex_at(*a.hex)) is not None}
        term.wait_until(lambda text: CURSOR_LINE.search(text), "no cursor line")
        moved = False
        for _ in range(40):  # one arrow at a time, each seen on the cursor line
            before = term.cursor()
            at = named[before or ""]
            if moved and at in legal:
                break
            key = path_to(layout, at, legal)[0]
            term.app.send(KEYS[key])
            term.wait_until(lambda _text, before=before: term.cursor() != before,
                            f"the cursor did not move on {key}")
            moved = True
        else:
            raise AssertionError("the cursor never reached a hex where a locomotive may go")
        term.app.send(KEYS["enter"])
        term.wait_until(lambda _text, n=n: len(saved_actions(data)) >= n,
                        f"placement {n} was never saved")
        action = saved_actions(data)[-1]
        assert action["type"] == "build" and action["company"] == company
        assert rules.hex_at(*action["hex"]) == at
        placed.append(action["hex"])
        model.apply(action)
        term.wait_for(rf"{n} of 5 {company} locomotives")
    term.app.send("e")
    term.wait_until(lambda _text: len(saved_actions(data)) >= PLACEMENTS + 1,
                    "the end of the build was never saved")
    actions = saved_actions(data)
    assert [a["type"] for a in actions] == ["build"] * PLACEMENTS + ["end_build"]
    assert [a["hex"] for a in actions[:PLACEMENTS]] == placed
    assert len({tuple(h) for h in placed}) == PLACEMENTS
    term.wait_for(r"Pass the keyboard to[\s┃]+B  Bob")
