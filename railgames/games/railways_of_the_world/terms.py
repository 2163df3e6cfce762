"""Railways of the World: the game's figures and the wording its phases share.

The costs, limits and amounts every phase reads, and the small makers of text and
prompts they all use (a sum of money, a count of things, a bid's amount). Kept
apart from the rules so that the phases, the bots and the interface read them
without importing the rules class.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from railgames.core.engine import AmountInput, Choices, OpenAmount, Prompt
from railgames.games.railways_of_the_world.state import Step

BOND = 5000
INTEREST = 1000
URBANIZE_COST = 10_000
MIN_BID = 1000
BID_STEP = 1000
MAX_TILES = 4
TERRAIN_COST = {"open": 2000, "water": 3000, "mountain": 4000}
RIDGE_COST = 4000
ROUNDS = 3
TRACKS_PER_HEX = 2  # a hex holds one track, or two crossing
BID_WINDOW = 20_000  # how far above the lowest bid the bids offered to bots and the palette reach
# Ruling "bids stop at a billion": no bid is higher, a sum whose bonds would cost far more
# points than any player can score (docs/rulings/railways-of-the-world.md).
MAX_BID = 1_000_000_000

# Amounts written before (prices, bids, cash): the log writes the same few again and again.
_MONEY: dict[int, str] = {}


def money(amount: int) -> str:
    text = _MONEY.get(amount)
    if text is None:
        text = f"-${-amount:,}" if amount < 0 else f"${amount:,}"
        if len(_MONEY) < 10_000:
            _MONEY[amount] = text
    return text


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def where(state: Any) -> str:
    """The turn and round a prompt is asked in, as its step shows them."""
    return f"Turn {state.turn}, round {state.round} of {ROUNDS}"


def turn_and_round(state: Any) -> str:
    """The turn and the part of it being played, as the board's status line shows them: the
    auction that opens a turn comes before its first round (the state keeps the last
    turn's round number until the auction is over)."""
    if state.step is Step.AUCTION:
        return f"Turn {state.turn}, auction"
    return f"Turn {state.turn}, round {state.round}"


_PROMPT_FIELDS = ("seat", "step", "text", "choices", "amount", "help")
assert tuple(f.name for f in fields(Prompt)) == _PROMPT_FIELDS, "quick_prompt must fill every field"


def quick_prompt(seat: int, step: str, text: str, choices: list[Any] | Choices,
                 amount: AmountInput | None = None, help: str = "") -> Prompt:
    """``Prompt(...)`` with a list of choices, made without the frozen dataclass's
    field-by-field setting: the rules make one on every step."""
    prompt: Prompt = object.__new__(Prompt)
    prompt.__dict__.update(seat=seat, step=step, text=text, choices=choices, amount=amount,
                           help=help)
    return prompt


@dataclass(frozen=True, kw_only=True)
class BidAmount(OpenAmount):
    """A bid: legal up to ``MAX_BID``; the bids offered reach ``BID_WINDOW`` above the lowest."""

    OPEN_LISTED: ClassVar[int] = BID_WINDOW // BID_STEP + 1


# The bids' AmountInput by their lowest: every auction asks for the same few (frozen, so shared).
_BID_AMOUNTS: dict[int, AmountInput] = {}


def bid_amount(low: int) -> AmountInput | None:
    """The amount of a bid of ``low`` or more; None when even ``low`` is past ``MAX_BID``."""
    if low > MAX_BID:
        return None
    amount = _BID_AMOUNTS.get(low)
    if amount is None:
        amount = BidAmount(action_type="bid", label="Bid", min=low, max=MAX_BID,
                           step=BID_STEP, default=low)
        if len(_BID_AMOUNTS) < 1000:
            _BID_AMOUNTS[low] = amount
    return amount
