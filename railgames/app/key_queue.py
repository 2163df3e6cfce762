"""Typed keys are handled one at a time: a key waits until the app is at rest after the last.

Textual takes the keys of one read from the terminal (a paste, tmux ``send-keys``, a
slow link delivering a few keys at once) and hands each to the focused widget's
message queue at once, without waiting for the one before it. From there a key is
handled in two places. The widget's own key handler, which types a digit into an
amount or a letter into a name, runs as soon as the key reaches the widget; a key
bound to an action (Backspace, Enter, the arrows, a screen's letters) runs its action
only after it has bubbled up, queue after queue, through every container to the app.
So in ``Backspace 4`` the 4 was typed before the Backspace erased, which then erased
the 4; and every key of a burst went to the widget that had the focus when the burst
came in, though its first Enter had already moved on to another field or screen.

The app therefore keeps the keys (and pastes) from the terminal in order, and hands
on the next one only when the app has come to rest after the one before: nothing is
left to run on the event loop (so the key's handlers, its binding, and every message,
focus change and mount it set off have run), and the screen has run the callbacks it
was asked to run after its next refresh (a field that selects its text once shown).
A key that comes when the app is at rest is handled at once, as before. (The mouse
is not held back: a click is aimed at what the screen shows when it is made.)

Work done off the loop (a bot thinking in its worker, a timer that has not come due)
does not hold keys back: a key typed then is handled, as one typed slowly would be.
A loop that never comes to rest (something busy without end) holds a key back no
longer than ``REST_LIMIT`` seconds and ``REST_POLLS`` looks at it, so that keys are
never stuck.
"""

from __future__ import annotations

import asyncio
from collections import deque
from time import monotonic
from typing import Any

from textual import events

from railgames import compat

# A key waits for an app that never comes to rest no longer than both of these: seconds,
# and looks that found it busy (one long step of work is one look, however long it
# takes). Starting a game, the heaviest a key does, takes under 100 looks.
REST_LIMIT = 2.0
REST_POLLS = 1000
AFTER_REFRESH_POLL = 1 / 200  # seconds between looks while the screen is to refresh


class KeyQueue:
    """The typed keys of one app, handed on one at a time (see the module's docstring).

    The app calls ``hold`` for every event it receives, and ``handed_on`` after
    Textual has taken a typed event that was not held.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.waiting: deque[events.Event] = deque()
        self.at_rest = True
        self._turn: events.Event | None = None  # the held event given back to the app
        self._wait = 0  # which wait for rest is current (a later one makes older looks void)
        self._since = 0.0
        self._busy_looks = 0

    @property
    def idle(self) -> bool:
        """Every typed key has been handled, and the app is at rest after the last."""
        return self.at_rest and not self.waiting

    @staticmethod
    def typed(event: events.Event) -> bool:
        """A key or paste from the terminal, not yet on its way to a widget."""
        return isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded

    def hold(self, event: events.Event) -> bool:
        """True when ``event`` must wait for its turn (it is kept, and given back later)."""
        if not self.typed(event):
            return False
        if event is self._turn:
            self._turn = None
            return False
        if self.at_rest and not self.waiting:
            return False
        self.waiting.append(event)
        return True

    def handed_on(self) -> None:
        """A typed event has just been handed on: the next waits until the app rests."""
        self.at_rest = False
        self._wait += 1
        self._since = monotonic()
        self._busy_looks = 0
        asyncio.get_running_loop().call_soon(self._look, self._wait)

    def _look(self, wait: int) -> None:
        if wait != self._wait:
            return
        loop = asyncio.get_running_loop()
        # Another callback ready to run: a task whose message has come, a step of a
        # mount, a handler's next step. (The event loop's list of them is not public;
        # without it, a look finds the loop at rest, and only the screen is waited for.)
        busy = compat.loop_busy(loop)
        if busy or self._refresh_callbacks_due():
            self._busy_looks += 1
            if self._busy_looks < REST_POLLS or monotonic() - self._since < REST_LIMIT:
                if busy:
                    loop.call_soon(self._look, wait)
                else:  # the screen refreshes at its next frame: look again then
                    loop.call_later(AFTER_REFRESH_POLL, self._look, wait)
                return
        self._rested()

    def _refresh_callbacks_due(self) -> bool:
        """Callbacks asked for after the screen's next refresh have not run yet.

        (Textual keeps them on the screen until its next frame is drawn; a key that
        opens a field and has it select its text there is handled only then.)
        """
        try:
            screen = self.app.screen
        except Exception:  # no screen (starting, ending): nothing to wait for
            return False
        return compat.screen_callbacks_due(screen)

    def _rested(self) -> None:
        if not self.waiting or not self.app.is_running:
            self.waiting.clear()
            self.at_rest = True
            return
        # Given back through the app's queue, so that Textual handles it as it came.
        self._turn = self.waiting.popleft()
        if not self.app.post_message(self._turn):
            self._turn = None
            self.waiting.clear()
            self.at_rest = True
