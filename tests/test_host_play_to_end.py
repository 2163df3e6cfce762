"""Three SSH terminals play one table of a game from the first move to the final scores.

Whoever's turn it is presses Enter: the first choice at every level of the
action panel, or the board cursor's place (the screen puts it on a choice),
or the amount offered; when Enter alone does not finish the move, Tab
switches between the board and the list first. That plays a whole game through the keyboard, the SSH
sessions and the host's rules layer, and every terminal ends on the scores.

A whole game is hundreds of moves, some minutes on a small machine, so these
run only when RAILGAMES_LONG_TESTS=1 is set.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from host_terminal import HostProcess, Terminal

from railgames.core.engine import Game
from railgames.core.record import GameRecord
from railgames.games import load_ruleset, ruleset_class

pytestmark = pytest.mark.skipif(os.environ.get("RAILGAMES_LONG_TESTS") != "1",
                                reason="a whole game takes minutes: set RAILGAMES_LONG_TESTS=1")

PASSWORD = "table-pw"
GAME_ORDER = ["new-england", "paris-connection", "steel-driver"]  # as the launcher lists them


def actions_saved(data: Path, code: str) -> int:
    saved = json.loads((data / "tables" / f"{code}.json").read_text())
    return len(saved["record"]["actions"])


def table_game(data: Path, code: str) -> Game:
    saved = json.loads((data / "tables" / f"{code}.json").read_text())
    record = GameRecord.model_validate(saved["record"])
    return Game.replay(load_ruleset(record.game, record.map), record)


@pytest.mark.parametrize("game_id", GAME_ORDER)
def test_three_terminals_play_a_table_to_the_end(tmp_path: Path, game_id: str) -> None:
    data = tmp_path / "data"
    host = HostProcess(data).start()
    title = ruleset_class(game_id).title

    async def scenario() -> None:
        names = ["ann", "bob", "cat"]
        terms = [await Terminal().open(host.port, n, PASSWORD) for n in names]
        try:
            ann = terms[0]
            await ann.wait_for("Host a table", 60)
            ann.press(*["down"] * GAME_ORDER.index(game_id))
            await asyncio.sleep(0.5)
            ann.press("h")
            await ann.wait_for(f"Game\\s+{title}")
            ann.press("\x1b[Z", "\x1b[Z", "enter")  # the Players list: three people
            await asyncio.sleep(0.5)
            ann.press("down", "enter")
            await ann.wait_for("Players\\s+3 ")
            ann.press("\x13")  # ctrl+s: open the table
            code = (await ann.wait_for(r"Table ([A-Z]{4})")).group(1)
            for term in terms[1:]:
                await term.wait_for("Join a table", 60)
                term.press("j")
                await term.wait_for("Code")
                term.press(code, "enter")
            for term in terms:
                await term.wait_for(f"{title} · turn", 60)
            # One Enter goes one level down the choices; a move is saved once it is whole.
            count, idle, seat = -1, 0.0, 0
            while True:
                saved = actions_saved(data, code)
                if saved != count:
                    count, idle = saved, 0.0
                    prompt = table_game(data, code).prompt()
                    if prompt is None:
                        break
                    seat = prompt.seat
                assert idle < 60, "no move for a minute:\n" + terms[seat].text()
                tries = round(idle / 0.4)
                if tries % 4 == 3:
                    # Enter did not finish the move: go from the board to the list of
                    # choices (or back), as a player would with Tab.
                    terms[seat].press("tab")
                terms[seat].press("enter")
                await asyncio.sleep(0.4)
                idle += 0.4
            result = table_game(data, code).result()
            assert result is not None
            for term in terms:
                # A last Enter may have come after the end and left the scores for the
                # launcher (Enter's place there): then the table, joined again, shows them.
                shown = await term.wait_for("Game over|You are [a-z]+: host", 120)
                if not shown.group(0).startswith("Game over"):
                    term.press("j")
                    await term.wait_for("Code")
                    term.press(code, "enter")
                    await term.wait_for("Game over", 120)
        finally:
            for term in terms:
                await term.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 3600))
    finally:
        host.kill()
