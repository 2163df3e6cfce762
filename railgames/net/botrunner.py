"""The bots at a host's tables: who moves, when, and where they think.

Bots think in a worker process (or a thread), never on the host's event
loop, which carries every player's keys and screens. They move only while a
person sits at the table (or, with ``unattended``, always): a table everyone
has left waits for them, bots and all. A person's seat left empty for
``takeover`` seconds is played by a bot until its player is back, again only
while someone else is there to play against.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from railgames.core.bots import Bot, think, worker_setup
from railgames.core.engine import Prompt
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.net.tables import HostTable, event


class BotRunner:
    def __init__(self, commit: Callable[[HostTable, dict[str, Any]], Awaitable[None]], *,
                 delay: float = 0.7, takeover: float | None = None, unattended: bool = False,
                 workers: int = 1) -> None:
        # ``commit(table, entry)``: keep the entry and show the table (the service's).
        self.commit = commit
        self.delay = delay  # seconds each move takes at least, so people can follow
        self.takeover = takeover  # seconds a seat may stay empty before a bot plays it
        self.unattended = unattended  # bots move with nobody at the table
        self.workers = workers  # worker processes (0: think in a thread)
        self._pool: ProcessPoolExecutor | None = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def attended(self, table: HostTable) -> bool:
        """Whether the bots at ``table`` may move now (at a turn-based table, always: its
        players come and go between their moves)."""
        return self.unattended or table.pace.turn_based or table.people_here() > 0

    async def _think(self, bot: Bot, ruleset: Any, view: Any, prompt: Prompt) -> tuple[Any, Bot]:
        if not self.workers:
            return await asyncio.to_thread(think, bot, ruleset, view, prompt)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=worker_setup, initargs=(os.getpid(),))
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, think, bot, ruleset, view, prompt)
        except BrokenProcessPool:
            self._pool = None  # a worker died: the next move gets a fresh one
            raise

    def to_move(self, table: HostTable) -> int | None:
        """The seat of the bot to move now, or None (a person's turn, over, or nobody here)."""
        if table.game is None or table.led_elsewhere or not self.attended(table):
            return None
        seat = table.game.ruleset.to_move(table.game.state)
        if seat is None or not table.bot_moves(seat):
            return None
        return int(seat)

    def schedule(self, table: HostTable) -> None:
        if self.to_move(table) is None or (table.bot_task and not table.bot_task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a plain test): run is called by hand
        table.bot_task = loop.create_task(self.run(table))

    async def run(self, table: HostTable) -> None:
        """Bots move one after another; each move is kept and shown before the next."""
        while (seat := self.to_move(table)) is not None:
            game = table.game
            assert game is not None
            version = (id(game.state), len(game.record.actions))
            prompt = game.prompt()
            assert prompt is not None
            view = game.view(seat)
            started = time.monotonic()
            try:
                action, table.bots[seat] = await self._think(table.bots[seat], game.ruleset, view,
                                                             prompt)
            except Exception as exc:  # a bot's fault must not take the host down
                event("bot_error", code=table.code, seat=seat, error=repr(exc))
                return
            wait = self.delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            if table.pending is not None:  # a person's move is still being kept
                await asyncio.shield(table.pending)
            if (id(game.state), len(game.record.actions)) != version or table.game is not game \
                    or self.to_move(table) != seat:
                continue  # a move taken back, or everyone left, while the bot thought
            try:
                game.apply(action)
            except (IllegalAction, MalformedAction) as exc:
                event("bot_refused", code=table.code, seat=seat, reason=exc.reason)
                return
            event("action", code=table.code, player=table.seats[seat].name, type=action.type,
                  index=len(game.record.actions) - 1, bot=True)
            await self.commit(table, {"act": game.record.actions[-1]})

    def due(self, table: HostTable, now: float) -> list[int]:
        """The empty seats of ``table`` a bot takes over now."""
        if not self.takeover or table.status != "playing" or not self.attended(table) \
                or table.pace.turn_based or table.led_elsewhere:  # away by design; or not ours
            return []
        return [i for i, s in enumerate(table.seats)
                if s.human and not s.bot_taken and s.empty_since is not None
                and now - s.empty_since >= self.takeover and not table.connected(i)]
