"""A bot's think in a worker process, so that the screen's thread never waits on it.

A thread is not enough: a search holds Python's interpreter lock for most of
its think, and the screen's thread, which gives the lock up at every wait for
input, then waits for it again each time — keys take seconds. In a process of
its own the search runs beside the app, which stays as quick as ever.

One worker process serves a game screen; it is started (spawned, not forked:
the app has threads) at the first think and ended when the screen closes. A
think that is no longer wanted ends with its process: nothing of it reaches the
game, whose save already holds every move made.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from railgames import compat
from railgames.core.bots import Bot, think, worker_setup
from railgames.core.engine import Prompt


class BotWorker:
    """The worker process of one game screen."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def submit(self, bot: Bot, ruleset: Any, view: Any, prompt: Prompt,
               done: Callable[[tuple[Any, Bot] | None, BaseException | None], None]) -> None:
        """Think in the worker; ``done(result, error)`` is called from another thread."""
        self.run(think, (bot, ruleset, view, prompt), done)

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...],
            done: Callable[[Any, BaseException | None], None]) -> None:
        """Call ``fn(*args)`` in the worker (a module-level function, its arguments picklable);
        ``done(result, error)`` is called from another thread. A hint or a review is
        worked out here as a bot's think is."""
        # The app captures sys.stdout and sys.stderr, whose stand-ins have no file
        # descriptor a new process could be given; the real ones are lent meanwhile.
        out, err = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        try:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=worker_setup, initargs=(os.getpid(),))
            future = self._pool.submit(fn, *args)
        finally:
            sys.stdout, sys.stderr = out, err

        def finished(f: Future[Any]) -> None:
            if f.cancelled():
                return
            error = f.exception()
            done(None if error is not None else f.result(), error)

        future.add_done_callback(finished)

    def stop(self) -> None:
        """End the worker and any think under way in it."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = compat.pool_processes(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
