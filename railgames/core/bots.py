"""Bots: players that choose an action from what their seat may see.

A bot gets the seat's view and the prompt (never the full state), so a bot in a
hidden-information game cannot peek. Bots keep their own random source, seeded
separately from the game's, so their choices never disturb the game's dice.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any, Protocol

from railgames.core.engine import Prompt, Ruleset, amount_action


class Bot(Protocol):
    kind: str

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any: ...


class RandomBot:
    """Picks uniformly among the legal choices; a number range counts as one choice."""

    kind = "random"
    reads_view = False  # only the prompt: callers may pass None for the view

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        # Only the number of choices and the one picked are needed (the draw is
        # ``rng.choice``'s, of the choices with the amount after them): a prompt's
        # ``Choices`` is never listed in full for it. An amount's value is drawn by
        # its index, as ``rng.choice`` draws from a list, however many values there
        # are (``len`` of a range stops at 2**63).
        choices = prompt.choices
        amount = prompt.amount
        if amount is not None and amount.count == 0:
            amount = None
        pick = self.rng.choice(choices if amount is None else _Then(choices, amount))
        if pick is amount:
            assert amount is not None
            value = amount.values()[self.rng.randrange(amount.count)]
            return amount_action(ruleset, amount.action_type, prompt.seat, value)
        return pick


class _Then(Sequence[Any]):
    """``choices`` followed by one more item, without copying them."""

    __slots__ = ("_choices", "_last")

    def __init__(self, choices: Sequence[Any], last: Any) -> None:
        self._choices = choices
        self._last = last

    def __len__(self) -> int:
        return len(self._choices) + 1

    def __getitem__(self, index: Any) -> Any:
        if index == len(self._choices):
            return self._last
        return self._choices[index]


def make_bot(kind: str, ruleset: Ruleset[Any], seed: int) -> Bot:
    """A bot of ``kind`` for this game: the kernel's random bot, or one the ruleset names.

    ``search``, ``search:easy`` and ``search:hard`` are the kernel's search bot
    (see ``railgames.core.search``) at 1 s, 0.3 s and 2 s a move, playing with
    the search hooks the game names as its ``search`` maker.
    """
    if kind == "random":
        return RandomBot(seed)
    makers = ruleset.bot_makers()
    from railgames.core.search import strength_of

    strength = strength_of(kind)
    if strength is not None and "search" in makers:
        from railgames.core.search import SearchBot

        return SearchBot(makers["search"], seed, strength=strength)  # type: ignore[arg-type]
    if kind not in makers:
        known = ", ".join(["random", *sorted(makers)])
        raise ValueError(f"{ruleset.title} has no bot of kind '{kind}' (bots: {known})")
    bot: Bot = makers[kind](seed)
    return bot


# --- bots that think in a worker process (the app's and the host's)

def think(bot: Bot, ruleset: Any, view: Any, prompt: Prompt) -> tuple[Any, Bot]:
    """A bot's choice, and the bot as it is afterwards (its random source moved on)."""
    return bot.choose(ruleset, view, prompt), bot


# How much lower a worker's scheduling priority is than its parent's: when a key
# comes in while a bot thinks, the process answering it gets the processor first.
WORKER_NICENESS = 10


def worker_setup(parent: int) -> None:
    """The start of a bot's worker process: end with the parent, and yield to it."""
    try:
        os.nice(WORKER_NICENESS)
    except (OSError, AttributeError):
        pass  # no way to lower it here: the think runs at the parent's priority
    die_with_parent(parent)


def die_with_parent(parent: int) -> None:
    """In a worker process: end when its parent ends, even if that is killed outright (Linux).

    Without this a worker whose parent was killed stays behind for good.
    """
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
    except (OSError, AttributeError):
        return  # not Linux: the parent's own shutdown ends its workers
    if os.getppid() != parent:  # the parent was gone before the line above ran
        os._exit(0)
