"""Messages between the host and the app processes: one JSON object per line.

App → host messages are plain JSON and are never trusted: the host parses
them, checks who sent them, and runs every action through the rules layer.
Host → app messages may carry a seat's view, which is a game state object; it
travels pickled inside the JSON (``view`` field). Only the host ever
produces those and only the app processes it started read them, so nothing a
player types is ever unpickled.
"""

from __future__ import annotations

import base64
import json
import pickle
from typing import Any

MAX_REQUEST = 64 * 1024  # an app's message: an action is a few hundred bytes
MAX_PUSH = 16 * 1024 * 1024  # a view with its log


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


def pack(obj: Any) -> str:
    return base64.b64encode(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)).decode()


def unpack(text: str) -> Any:
    return pickle.loads(base64.b64decode(text))  # noqa: S301 - only ever from the host
