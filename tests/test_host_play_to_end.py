"""Three SSH terminals play one table of each game from the first move to the final scores.

Whoever's turn it is decides as the greedy bot would and gives that choice
through the command palette (ctrl+p, the choice's text, Enter). Where the
palette does not list it (a number beyond those it lists), Enter takes the
first choice at every level of the action panel, or the board cursor's place,
or the amount offered, with Tab between the board and the list when Enter
alone does not finish the move. That plays a whole game through the keyboard,
the SSH sessions and the host's rules layer, and every terminal ends on the
scores.

Each game is played twice: with asyncssh's client, and with the system's
OpenSSH client in tmux windows (a person's terminal; skipped where ``ssh`` or
``tmux`` is missing). Each finished game adds a line to the play log (game,
players, moves, winner, time): printed, and appended to ``RAILGAMES_PLAY_LOG``
when that names a file.

A whole game is hundreds of moves, some minutes on a small machine, so these
run only when RAILGAMES_LONG_TESTS=1 is set.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
from host_terminal import HostProcess, OpenSshTerminal, Terminal, kept_record

from railgames.app.cards import launcher_cards
from railgames.core.engine import Game
from railgames.games import load_ruleset, ruleset_class

pytestmark = pytest.mark.skipif(os.environ.get("RAILGAMES_LONG_TESTS") != "1",
                                reason="a whole game takes minutes: set RAILGAMES_LONG_TESTS=1")

PASSWORD = "table-pw"
GAMES = ["new-england", "paris-connection", "steel-driver", "railways-of-the-world",
         "american-rails"]
# The players choose as the greedy bot would, and give each choice through the command
# palette (ctrl+p, its text, Enter), as a player may. First choices alone make poor games,
# or none: in New England Enter passes every auction, and in Railways of the World the
# first choice is always more track, which is taken up again when it reaches no city
# (bonds having no limit), so that game would never end.
NAMES = ["ann", "bob", "cat"]


def table_game(data: Path, code: str) -> Game:
    record = kept_record(data, code)
    return Game.replay(load_ruleset(record.game, record.map), record)


def actions_saved(data: Path, code: str) -> int:
    record = kept_record(data, code)
    return len(record.actions) if record is not None else -1


def palette_line(game: Game, seat: int) -> str | None:
    """The greedy bot's choice here, as the command palette names it (None: not listed there)."""
    from railgames.app.boards import game_ui
    from railgames.app.commands import MAX_AMOUNTS
    from railgames.core.bots import make_bot

    prompt = game.prompt()
    if prompt is None:
        return None
    view = game.view(seat)
    action = make_bot("greedy", game.ruleset, len(game.record.actions)).choose(
        game.ruleset, view, prompt)
    amount = prompt.amount
    listed = action in prompt.choices or (
        amount is not None and action.type == amount.action_type
        and getattr(action, "amount", None) in list(amount.values())[:MAX_AMOUNTS])
    if not listed:
        return None
    return str(game_ui(game.ruleset).describe(view, action, [p.name for p in game.players]))


def terminal(client: str) -> Any:
    if client == "openssh":
        return OpenSshTerminal(prefix=os.environ.get("RAILGAMES_TMUX_PREFIX", "railgames-test"))
    return Terminal()


def log_game(line: str) -> None:
    print(line)
    where = os.environ.get("RAILGAMES_PLAY_LOG")
    if where:
        with open(where, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


@pytest.mark.parametrize("client", ["asyncssh", "openssh"])
@pytest.mark.parametrize("game_id", GAMES)
def test_three_terminals_play_a_table_to_the_end(tmp_path: Path, game_id: str,
                                                 client: str) -> None:
    if client == "openssh" and not OpenSshTerminal.available():
        pytest.skip("the system ssh client or tmux is not installed")
    data = tmp_path / "data"
    host = HostProcess(data).start()
    title = ruleset_class(game_id).title
    order = [card.id for card in launcher_cards()]

    async def scenario() -> None:
        terms = [await terminal(client).open(host.port, n, PASSWORD) for n in NAMES]
        try:
            ann = terms[0]
            await ann.wait_for("Host a table", 60)
            ann.press("g")  # from the player's tables to the games' list
            await ann.wait_for("Watch a demo", 60)
            ann.press(*["down"] * order.index(game_id))
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
            started = time.monotonic()
            # One Enter goes one level down the choices; a move is saved once it is whole.
            count, idle, seat, bids, pass_now, line = -1, 0.0, 0, 0, False, None
            while True:
                saved = actions_saved(data, code)
                if saved != count:
                    count, idle = saved, 0.0
                    game = table_game(data, code)
                    prompt = game.prompt()
                    if prompt is None:
                        break
                    seat = prompt.seat
                    line = palette_line(game, seat)
                    # Where the choice is not in the palette, Enter bids the least amount
                    # offered; an auction with no cap would go on for ever, so once everyone
                    # has bid a player drops out with 'p'.
                    bids = bids + 1 if prompt.amount is not None else 0
                    pass_now = bids > len(NAMES) and any(
                        getattr(c, "type", "") == "pass_bid" for c in prompt.choices)
                assert idle < 60, f"no move for a minute after {count} moves:\n" + terms[seat].text()
                tries = round(idle / 0.4)
                if line is not None and tries < 8:
                    if tries == 0:
                        terms[seat].press("ctrl+p")
                        try:  # typed anywhere else, the letters would be the screen's keys
                            await terms[seat].wait_for("Search for commands", 10)
                        except TimeoutError:
                            terms[seat].press("escape")
                        else:
                            terms[seat].press(line)
                            await asyncio.sleep(1.0)  # the palette narrows its list as typed
                            terms[seat].press("enter")
                    elif tries == 7:
                        terms[seat].press("escape")  # not found: close it, and Enter it is
                elif pass_now and tries < 3:
                    terms[seat].press("p")
                else:
                    if tries % 4 == 3:
                        # Enter did not finish the move: go from the board to the list of
                        # choices (or back), as a player would with Tab.
                        terms[seat].press("tab")
                    terms[seat].press("enter")
                await asyncio.sleep(0.4)
                idle += 0.4
            game = table_game(data, code)
            result = game.result()
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
            scores = ", ".join(f"{n} {v}" for n, v in result.scores.items())
            log_game(f"{game_id} ({client}): seats {', '.join(NAMES)}; "
                     f"{len(game.record.actions)} moves; won by {' and '.join(result.winners)} "
                     f"({scores}); {time.monotonic() - started:.0f} s")
        finally:
            for term in terms:
                await term.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 3600))
    finally:
        host.kill()
