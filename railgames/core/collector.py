"""The garbage collector in a process that runs the rules.

The rules make many small objects per action (events, dictionaries, actions)
that reference counting frees at once; the cycle collector only needs to find
the rare cycle. Two things made its passes costly and uneven (a replay took
11 ms, now and then 70 ms):

* every full pass walked all that start-up made — modules, classes, maps,
  rules tables — which live as long as the process; ``gc.freeze()`` leaves them
  out of every later pass;
* a young pass came every 700 new container objects, hundreds of times in one
  game; every ``YOUNG`` instead, each pass walks more objects but the passes are
  far fewer, and the pauses between actions stay short (a young pass over
  ``YOUNG`` objects takes well under a millisecond).

Call ``settle()`` once start-up is done (the maps and rules loaded); the app
does the same when its first screen is drawn (``gc.freeze``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 10_000


def settle() -> None:
    """Freeze what start-up made and make young passes rarer (idempotent)."""
    gc.freeze()
    young, middle, old = gc.get_threshold()
    if young and young < YOUNG:
        gc.set_threshold(YOUNG, middle, old)


@contextmanager
def quiet_start(settle_after: bool = True) -> Iterator[None]:
    """No collector passes while start-up loads modules and rules (all of it lasts as
    long as the process, so a pass would find nothing to free); then ``settle()``.
    The collector is as it was before, afterwards."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
        if settle_after:
            settle()
    finally:
        if was_on:
            gc.enable()
