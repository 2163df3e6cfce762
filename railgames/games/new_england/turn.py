"""New England Railways' turn as it opens and closes, where no one decides anything.

Between the debt decisions and the auctions come the draws of the turn's start:
Commodity Growth cards put cubes in cities (``commodity_growth``), last turn's
unfinished links are completed (build.py), and next turn's links are publicised
(``publicise``). After the shipping rounds the turn ends (``end_of_turn``): the
market takes its share of every income, income is paid, and the First Player card
passes (``pass_first_player_card``); once no link is left to sell or finish, the
game is scored (``final_scoring``).
"""

from __future__ import annotations

from railgames.core.events import EventLog
from railgames.games.new_england import rule_texts as R
from railgames.games.new_england.base import NewEnglandBase
from railgames.games.new_england.loans import service_due
from railgames.games.new_england.state import NEState, Step


def begin_turn(rules: NewEnglandBase, state: NEState, log: EventLog) -> None:
    state.turn += 1
    for r in state.railways:
        r.bought_this_turn = None
    state.step = Step.LOANS
    state.pending = state.seat_order()
    log.add(f"Turn {state.turn} begins; {rules.railway_name(state, state.first)} is First Player.",
            "turn", rule=R.TURN_ORDER, turn=state.turn)


def draw_cube(state: NEState, city: str) -> str | None:
    """A cube drawn from the cup to ``city``: its colour, or None when the cup is empty."""
    if sum(state.cup.values()) == 0:
        return None
    colour = state.chance.pick_weighted({c: k for c, k in state.cup.items() if k > 0})
    state.cup[colour] -= 1
    here = state.cubes[city]
    here[colour] = here.get(colour, 0) + 1
    return colour


def commodity_growth(rules: NewEnglandBase, state: NEState, log: EventLog) -> None:
    """One Commodity Growth card per link on offer, each a cube from the cup to each of its cities."""
    # Ruling "empty deck": a reshuffle takes only earlier turns' discards; the cards
    # turned this turn are still face up on the table and join the discards after.
    # Edition 1 (saves made before that ruling) discarded each card as it was turned,
    # so a reshuffle could bring it back in the same turn.
    first_edition = state.rules_edition == 1
    turned: list[int] = []
    for _ in state.current:
        if not state.growth_deck:
            if not state.growth_discard:
                log.add("Every Commodity Growth card has been turned this turn: no more "
                        "cards come up.", "growth_exhausted", rule=R.RESHUFFLE)
                break
            state.growth_deck = state.growth_discard
            state.growth_discard = []
            state.chance.shuffle(state.growth_deck)
            log.add("The Commodity Growth deck is reshuffled." if first_edition else
                    "The Commodity Growth deck is reshuffled from earlier turns' discards.",
                    "reshuffle", rule=R.RESHUFFLE, chance=True)
        card = state.growth_deck.pop()
        (state.growth_discard if first_edition else turned).append(card)
        cities = rules.map.growth_deck[card].cities
        parts = []
        for city in cities:
            colour = draw_cube(state, city)
            parts.append(f"{colour} cube to {rules.city_name(city)}" if colour
                         else f"none for {rules.city_name(city)} (the cup is empty)")
        names = " & ".join(rules.city_name(c) for c in cities)
        log.add(f"Commodity Growth card {names}: {'; '.join(parts)}.", "growth", rule=R.GROWTH,
                chance=True, cities=list(cities))
    state.growth_discard.extend(turned)


def publicise(rules: NewEnglandBase, state: NEState, log: EventLog) -> None:
    """Next turn's links are drawn and shown, one for each link on offer now."""
    drawn = []
    for _ in state.current:
        if state.link_deck:
            drawn.append(state.link_deck.pop())
    state.future.extend(drawn)
    if drawn:
        log.add("Publicised for next turn: " + ", ".join(map(rules.link_name, drawn)) + ".",
                "publicise", rule=R.PUBLICISE, chance=True, links=drawn)
    else:
        log.add("The Railway Link deck is empty: no links are publicised.", "publicise", rule=R.PUBLICISE)


def end_of_turn(rules: NewEnglandBase, state: NEState, log: EventLog) -> None:
    """The market's losses, income, the First Player card; then the next turn or the end."""
    first = state.railways[state.first]
    dice = state.chance.roll(2)
    loss_number = sum(dice) + 1
    losses = []
    for r in state.railways:
        loss = r.income // loss_number
        r.income -= loss
        losses.append(f"{r.name} -{loss}")
    log.add(f"Market: {first.name} rolls {sum(dice)} ({dice[0]}+{dice[1]}); market loss number "
            f"{loss_number}: {', '.join(losses)}.", "market", rule=R.MARKET, chance=True, roll=sum(dice))
    for seat, r in enumerate(state.railways):
        if r.income:
            r.cash += r.income
            log.add(f"{r.name} receives ${r.income} income.", "income", rule=R.INCOME, seat=seat, cash=r.income)
    state.history.append([(r.income, r.cash) for r in state.railways])
    pass_first_player_card(state, log)
    if not state.current and not state.link_deck and not state.unfinished:
        final_scoring(rules, state, log)
    else:
        begin_turn(rules, state, log)


def pass_first_player_card(state: NEState, log: EventLog) -> None:
    """The card goes to the highest income; ties go to more cash, then less debt, then dice."""
    rs = state.railways
    top = max(r.income for r in rs)
    tied = [s for s, r in enumerate(rs) if r.income == top]
    why = "highest income"
    if len(tied) > 1:
        cash = max(rs[s].cash for s in tied)
        tied = [s for s in tied if rs[s].cash == cash]
        why = "tied on income; most cash"
    if len(tied) > 1:
        debt = min(rs[s].debt for s in tied)
        tied = [s for s in tied if rs[s].debt == debt]
        why = "tied on income and cash; least debt"
    if len(tied) > 1:
        # Ruling "first player ties": the still-tied players roll a die, highest takes it.
        while len(tied) > 1:
            rolls = {s: state.chance.roll(1)[0] for s in tied}
            best = max(rolls.values())
            log.add("First Player tie: " + ", ".join(
                f"{rs[s].name} rolls {v}" for s, v in rolls.items()) + ".", "tie_roll", rule=R.TIE_ROLL, chance=True)
            tied = [s for s in tied if rolls[s] == best]
        why = "won the tie roll"
    state.first = tied[0]
    log.add(f"{rs[state.first].name} takes the First Player card ({why}).",
            "first_player", rule=R.FIRST_PLAYER, seat=state.first)


def final_scoring(rules: NewEnglandBase, state: NEState, log: EventLog) -> None:
    """Each railway adds its links' values and repays its loans with their service."""
    final: dict[str, dict[str, int]] = {}
    for seat, r in enumerate(state.railways):
        values = sum(rules.link_value(link) for link in r.links)
        service = service_due(r.debt)
        cash_before = r.cash
        if values:
            r.cash += values
            log.add(f"{r.name} adds ${values} for {len(r.links)} Railway "
                    f"Link{'s' if len(r.links) != 1 else ''}.", "link_values", rule=R.FINAL,
                    seat=seat, cash=values)
        if r.debt:
            r.cash -= r.debt + service
            log.add(f"{r.name} repays ${r.debt} of loans and ${service} service.", "repay", rule=R.FINAL,
                    seat=seat, cash=-(r.debt + service), debt=-r.debt)
        final[r.name] = {
            "cash": cash_before, "link_values": values, "debt_owed": -r.debt,
            "service": -service, "total": r.cash,
        }
        r.debt = 0
    state.final = final
    state.step = Step.OVER
    state.pending = []
    result = rules.result(state)
    assert result is not None
    log.add(result.summary("$"), "game_over", rule=R.FINAL)
