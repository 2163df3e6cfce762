"""The error types the rules layer raises.

Two kinds of refusal are kept apart, as python-chess keeps "not a move" apart
from "not a legal move":

* ``MalformedAction``: the input is not an action of this game at all (unknown
  type, unknown link id, a field of the wrong type).
* ``IllegalAction``: a well-formed action that the rules do not allow now.

Both carry a sentence meant for a player, and neither leaves any trace on the
game state.
"""


def more_problems(count: int) -> str:
    """What follows the first problem of several in a one-line refusal: " (and 2 more problems)"."""
    if count <= 0:
        return ""
    return f" (and {count} more problem{'s' if count > 1 else ''})"


class RailgamesError(Exception):
    """Base of every error the rules layer raises on purpose."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalAction(RailgamesError):
    """A well-formed action the rules do not allow at this moment."""


class MalformedAction(RailgamesError):
    """Input that does not describe an action of this game."""


class MapError(RailgamesError):
    """A map file that cannot be used; the reason names the file and the place."""


class RecordError(RailgamesError):
    """A saved game that cannot be read (truncated, not JSON, wrong fields)."""


class ReplayError(RailgamesError):
    """An action in a record that the rules refuse while replaying it."""

    def __init__(self, index: int, action_type: str, player: str, reason: str) -> None:
        super().__init__(f"action {index} ({action_type} by {player}) is refused: {reason}")
        self.index = index
        self.action_type = action_type
        self.player = player
        self.why = reason
