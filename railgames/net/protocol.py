"""Messages between the host and the app processes: one JSON object per line.

App → host messages are plain JSON and are never trusted: the host parses
them, checks who sent them, and runs every action through the rules layer.
Host → app messages carry what a seat may see of its table: game objects
made plain JSON by ``wire`` (nothing is pickled either way), and after the
first message only what changed (``feed``).
"""

from __future__ import annotations

import json
from typing import Any

MAX_REQUEST = 64 * 1024  # an app's message: an action is a few hundred bytes
MAX_PUSH = 16 * 1024 * 1024  # a whole view with its log, or a finished game's record


# Sent as the prompt of the seat to move in a game without secrets: that seat sees the
# whole state, so its app works the prompt out itself, as the host did (a build's
# hundreds of tiles never travel).
PROMPT_HERE = "here"


class ProtocolError(Exception):
    """A message refused; ``rid`` is its request's id when that much could be read, so
    that the refusal reaches the request waiting for it."""

    def __init__(self, reason: str, rid: int | None = None) -> None:
        super().__init__(reason)
        self.rid = rid


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes, *, from_host: bool = False) -> dict[str, Any]:
    """One message, read as strictly as a saved game; every refusal is one ProtocolError line.

    A message is UTF-8 JSON, a JSON object, of at most ``MAX_REQUEST`` bytes, with
    numbers of at most ``MAX_INT_DIGITS`` digits and no nesting that could exhaust
    the stack (the record reader's ``strict_loads``). What an app sends the host is
    also held to a record's shape (``check_shape``: depth, text lengths, items), as
    the actions in it are. ``from_host``: a message the host sent an app, which may
    be up to ``MAX_PUSH`` bytes and carries a seat's view as one long text.
    """
    from railgames.core.record import StrictJSONError, check_shape, strict_loads

    limit = MAX_PUSH if from_host else MAX_REQUEST
    if len(line) > limit:
        raise ProtocolError(f"a message of {len(line):,} bytes (at most {limit:,})")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError("a message is UTF-8 text") from None
    try:
        message = strict_loads(text)
    except StrictJSONError as exc:
        raise ProtocolError(f"not a JSON message: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is a JSON object")
    if not from_host:
        problem = check_shape(message)
        if problem:
            rid = message.get("id")
            raise ProtocolError(f"not a message this host reads: {problem}",
                                rid if type(rid) is int else None)
    return message

