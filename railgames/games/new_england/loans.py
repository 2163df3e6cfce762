"""New England Railways' Bank Loans: taking them, paying their service, retiring them.

A turn opens with each railway in turn deciding how much to borrow (``Borrowing``), then
every railway pays a fifth of its debt as service (``service_debt``), then those
with debt and cash decide how much to pay off (``Retiring``). The sums that bound
each decision are worked out once here, for the prompt's range and the check alike.
"""

from __future__ import annotations

from typing import Any

from railgames.core.engine import AmountInput, OpenAmount, Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.new_england import rule_texts as R
from railgames.games.new_england.actions import Borrow, Retire
from railgames.games.new_england.base import NewEnglandBase, expect
from railgames.games.new_england.state import NEState, Railway, Step

LOAN_UNIT = 10
SERVICE_DIVISOR = 5  # debt service is 20% of the Bank Loan debt
# Ruling "loan limit": no railway borrows past this debt by its own choice, a sum far
# beyond all the money a whole game pays out (docs/rulings/new-england.md).
MAX_DEBT = 1_000_000_000


def service_due(debt: int) -> int:
    return debt // SERVICE_DIVISOR


def compulsory_borrowing(cash: int, debt: int) -> int:
    """Smallest loan (in $10 units) after which cash covers the service on the new debt."""
    deficit = debt - SERVICE_DIVISOR * cash  # (debt + k) / 5 <= cash + k  <=>  4k >= debt - 5 cash
    if deficit <= 0:
        return 0
    units = -(-deficit // (4 * LOAN_UNIT))
    return units * LOAN_UNIT


def largest_loan(cash: int, debt: int) -> int:
    """The most a railway may borrow now: up to a debt of ``MAX_DEBT``, or the
    compulsory loan where that is more (the rulebook's own loans are never refused)."""
    return max(compulsory_borrowing(cash, debt), (MAX_DEBT - debt) // LOAN_UNIT * LOAN_UNIT)


def most_retired(r: Railway) -> int:
    """The most debt ``r`` may retire now: no more than it owes, in the $10 units its
    cash pays for."""
    return min(r.debt, r.cash // LOAN_UNIT * LOAN_UNIT)


class Borrowing(Phase[NewEnglandBase, NEState]):
    """Acquire Bank Loans: each railway in turn borrows what it likes, at least what
    next service needs."""

    actions = (Borrow,)

    def prompt(self, state: NEState) -> Prompt:
        seat = state.pending[0]
        r = state.railways[seat]
        low = compulsory_borrowing(r.cash, r.debt)
        due = service_due(r.debt + low)
        text = f"{r.name}: take Bank Loans? (cash ${r.cash}, debt ${r.debt})"
        if low:
            text = (f"{r.name} must borrow at least ${low}: ${r.cash} cash cannot cover "
                    f"the ${service_due(r.debt)} debt service otherwise")
        return Prompt(
            seat=seat, step="Acquire Bank Loans", text=text,
            # Ruling "loan limit": the rulebook sets none; the far one of the ruling is the
            # amount's upper end, and only its low end is offered to bots and the palette.
            amount=OpenAmount(action_type="borrow", label="Borrow", min=low,
                              max=largest_loan(r.cash, r.debt), step=LOAN_UNIT, default=low),
            help=f"Loans come in $10 units. Service of 20% is due next (${due} after this loan).",
        )

    def validate(self, state: NEState, action: Any) -> None:
        expect(state.step, Step.LOANS, "take Bank Loans")
        r = state.railways[action.seat]
        if action.amount % LOAN_UNIT:
            raise IllegalAction(f"loans come in $10 units; ${action.amount} is not one")
        low = compulsory_borrowing(r.cash, r.debt)
        if action.amount < low:
            raise IllegalAction(
                f"{r.name} must borrow at least ${low}: with ${r.cash} cash and ${r.debt} "
                f"of debt the coming service could not be paid")
        top = largest_loan(r.cash, r.debt)
        if action.amount > top:
            raise IllegalAction(
                f"{r.name} may borrow at most ${top:,} now: no railway may choose to owe "
                f"more than ${MAX_DEBT:,}, far more than a whole game pays out")

    def execute(self, state: NEState, action: Any, log: EventLog) -> None:
        seat = action.seat
        r = state.railways[seat]
        state.pending.pop(0)
        forced = compulsory_borrowing(r.cash, r.debt) > 0
        if action.amount:
            r.cash += action.amount
            r.debt += action.amount
            log.add(f"{r.name} borrows ${action.amount} (debt now ${r.debt}).",
                    "borrow", rule=R.FORCED_LOAN if forced else R.LOANS, seat=seat, cash=action.amount, debt=action.amount)
        else:
            log.add(f"{r.name} takes no loan.", "no_loan", rule=R.LOANS, seat=seat)


def service_debt(state: NEState, log: EventLog) -> None:
    """Pay Debt Service: every railway pays a fifth of its debt, First Player first."""
    for seat in state.seat_order():
        r = state.railways[seat]
        due = service_due(r.debt)
        if due:
            r.cash -= due
            log.add(f"{r.name} pays ${due} service on ${r.debt} of debt.", "service", rule=R.SERVICE,
                    seat=seat, cash=-due)


def who_may_retire(state: NEState) -> list[int]:
    """The seats that may retire debt, in turn order: those with debt and $10 to pay it."""
    return [s for s in state.seat_order() if most_retired(state.railways[s]) > 0]


class Retiring(Phase[NewEnglandBase, NEState]):
    """Retire Bank Loan Debt: each railway with debt and cash may pay some of it off."""

    actions = (Retire,)

    def prompt(self, state: NEState) -> Prompt:
        seat = state.pending[0]
        r = state.railways[seat]
        return Prompt(
            seat=seat, step="Retire Bank Loan Debt",
            text=f"{r.name}: pay off loans? (cash ${r.cash}, debt ${r.debt})",
            amount=AmountInput(action_type="retire", label="Retire", min=0, max=most_retired(r),
                               step=LOAN_UNIT, default=0),
            help="Each $10 paid removes $10 of debt and $2 of future service.",
        )

    def validate(self, state: NEState, action: Any) -> None:
        expect(state.step, Step.RETIRE, "retire debt")
        r = state.railways[action.seat]
        if action.amount % LOAN_UNIT:
            raise IllegalAction(f"debt is retired in $10 units; ${action.amount} is not one")
        if action.amount > most_retired(r):
            if action.amount > r.debt:
                raise IllegalAction(f"{r.name} owes only ${r.debt}")
            raise IllegalAction(f"{r.name} has ${r.cash}; retiring ${action.amount} needs "
                                f"${action.amount - r.cash} more")

    def execute(self, state: NEState, action: Any, log: EventLog) -> None:
        seat = action.seat
        r = state.railways[seat]
        state.pending.pop(0)
        if action.amount:
            r.cash -= action.amount
            r.debt -= action.amount
            log.add(f"{r.name} retires ${action.amount} of debt (debt now ${r.debt}).",
                    "retire", rule=R.RETIRE, seat=seat, cash=-action.amount, debt=-action.amount)
        else:
            log.add(f"{r.name} keeps the debt.", "no_retire", rule=R.RETIRE, seat=seat)
