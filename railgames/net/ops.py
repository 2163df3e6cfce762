"""Requests a player's app may make beyond sitting down and playing, kept with their parts.

The table socket (``tableserver``) answers the basic requests itself (list, create,
join, act, undo, leave, history). Each further part of the host (the home screen,
notifications, chat, the archive) registers its own requests here with ``@op`` in
its own module, and what it must do when the host starts with ``@on_start``; the
socket finds them through ``OPS`` and runs each setup once.

A handler gets the table server, the member asking and the request (a JSON object
already parsed, nothing else checked), and returns the answer (``{"ok": True, ...}``
or ``{"ok": False, "reason": one line}``), or an awaitable of it for work that must
leave the loop. A ``RailgamesError`` it raises becomes a refusal with its reason.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from railgames.core.errors import RailgamesError
from railgames.net.tables import Member, event

Answer = dict[str, Any]
# (The table server is passed as Any: it imports this module, and modules here never
# import each other both ways.)
Handler = Callable[[Any, Member, dict[str, Any]], Answer | Awaitable[Answer]]
Setup = Callable[[Any], None]

OPS: dict[str, Handler] = {}
CHANGES: set[str] = set()  # requests that change a table: they wait for its earlier changes
SETUPS: list[Setup] = []

# The modules whose requests the host answers (imported once, when the host starts).
PARTS: tuple[str, ...] = ("railgames.net.notify", "railgames.net.hometables",
                          "railgames.net.after", "railgames.net.chat")


def op(name: str, *, changes: bool = False) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        if name in OPS:
            raise ValueError(f"request '{name}' registered twice")
        OPS[name] = handler
        if changes:
            CHANGES.add(name)
        return handler

    return register


def on_start(setup: Setup) -> Setup:
    SETUPS.append(setup)
    return setup


def load_parts() -> None:
    for module in PARTS:
        importlib.import_module(module)


async def call(server: Any, member: Member, request: dict[str, Any]) -> Answer:
    """The answer of a registered request: refusals as one line, faults logged."""
    name = str(request.get("op"))
    try:
        answer = OPS[name](server, member, request)
        if inspect.isawaitable(answer):
            answer = await answer
        return answer
    except RailgamesError as exc:
        return {"ok": False, "reason": exc.reason}
    except Exception as exc:  # logged; the session gets one line and goes on
        event("request_error", op=name, player=member.login.name, error=repr(exc)[:300])
        return {"ok": False, "reason": "the host could not do that (see its log)"}
