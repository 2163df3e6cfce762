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
    pass


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ProtocolError("not a JSON message") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is a JSON object")
    return message


def decode_push(line: bytes) -> dict[str, Any]:
    """A message from the host, read by an app process the host started: views nest
    deeper than anything an app may send (``decode``'s limits are for those)."""
    try:
        message = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, ValueError):
        raise ProtocolError("not a JSON message") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message is a JSON object")
    return message
