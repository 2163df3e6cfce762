"""New England Railways' rules as data: the ids its events name, and their explanations.

Written for a newcomer watching a demo: the full text is shown the first time
a rule is at work, the short one every later time. ``help`` names the section
of help.md that says more.
"""

from __future__ import annotations

from typing import Any

from railgames.core.events import Event
from railgames.core.rulebook import Rule, RuleBook

START = "What you start with"
TURN = "A turn, step by step"
SHIPPING = "Shipping a cube"
END = "The end and the score"

SETUP = "ne.setup"
TURN_ORDER = "ne.turn"
LOANS = "ne.loans"
FORCED_LOAN = "ne.forced_loan"
SERVICE = "ne.service"
RETIRE = "ne.retire"
GROWTH = "ne.growth"
RESHUFFLE = "ne.reshuffle"
UNFINISHED = "ne.unfinished"
PUBLICISE = "ne.publicise"
AUCTION = "ne.auction"
ONE_LINK = "ne.one_link"
SET_ASIDE = "ne.set_aside"
BUILD_ROLL = "ne.build_roll"
PAY_TO_FINISH = "ne.pay_to_finish"
SHIP = "ne.ship"
SHIP_ROUNDS = "ne.ship_rounds"
MARKET = "ne.market"
INCOME = "ne.income"
FIRST_PLAYER = "ne.first_player"
TIE_ROLL = "ne.tie_roll"
FINAL = "ne.final"



def because(rules: Any, event: Event) -> str:
    """Why a shipment went where it did: the city that demands the cube's colour."""
    if event.kind == "ship":
        path, colour = event.data["path"], event.data["colour"]
        end = rules.city_name(path[-1])
        passed = [rules.city_name(c) for c in path[1:-1]]
        wants = "which wants another colour" if len(passed) == 1 else "which want other colours"
        via = f" (passing {', '.join(passed)}, {wants})" if passed else ""
        return (f"Why: {end} demands {colour}, so the cube stops there{via}; each link it used "
                "pays its owner +1 income.")
    return ""


RULEBOOK = RuleBook("new-england", [
    Rule(SETUP, "Setting up",
         "Everyone starts with $10 and no income; a few cubes already wait in cities.",
         "Each railway company begins with $10 in cash, no debt and no income. Cubes drawn "
         "from the cup wait in some cities, ready to be shipped, and a few links (one fewer "
         "than there are players) are on offer for the first auctions. The rest of the links "
         "are shuffled into a deck. A random player holds the First Player card.", START),
    Rule(TURN_ORDER, "The order of a turn",
         "Loans, debt service, repayments, growth, auctions, shipping, market, income.",
         "Every turn runs through the same steps: take loans, pay 20% service on debt, repay "
         "debt, new cubes appear (commodity growth), last turn's unfinished links are "
         "completed, next turn's links are shown, the links on offer are auctioned, cubes are "
         "shipped in two rounds, the market roll trims income, and income is paid. Each step "
         "starts with the holder of the First Player card.", TURN),
    Rule(LOANS, "Bank loans",
         "A player may borrow in $10 steps; debt costs 20% service every turn.",
         "At the start of a turn each player, in order, may borrow from the bank in units of "
         "$10. Cash buys links at auction, but every $10 owed costs $2 of debt service each "
         "turn from now on, and at the end all debt is paid back with one more round of "
         "service on top. Borrowing is a bet that the links bought will earn more than that.",
         TURN),
    Rule(FORCED_LOAN, "Borrowing to pay service",
         "A player who cannot cover the coming debt service must borrow enough to cover it.",
         "Debt service is never skipped. When a player's cash would not cover the service "
         "due on the debt (including the debt of the new loan), they must borrow at least the "
         "amount that makes it payable. The app shows the smallest such loan.", TURN,
         main=False),
    Rule(SERVICE, "Debt service",
         "Each player pays a fifth of their debt to the bank, by itself.",
         "Straight after the loans, every player with debt pays 20% of it (a fifth, rounded "
         "down) to the bank. This payment does not reduce the debt: it is the price of keeping "
         "the loan for another turn.", TURN),
    Rule(RETIRE, "Paying off debt",
         "A player with debt may pay some of it back in $10 steps, cutting future service.",
         "After the service is paid, each player who owes money and has at least $10 may pay "
         "back debt in $10 units. Every $10 repaid lowers the service of later turns by $2. "
         "Keeping debt is allowed; it is settled in full at the end.", TURN),
    Rule(GROWTH, "Commodity growth",
         "For each link on offer a growth card is turned; each city it names gets a cube.",
         "New goods appear every turn. For each link on offer this turn, a Commodity Growth "
         "card is turned up; every city on it receives one cube drawn blind from the cup. "
         "Cubes pile up in cities until someone ships them, so busy cities are worth linking. "
         "When the cup is empty, no more cubes appear until shipped ones return to it.", TURN),
    Rule(RESHUFFLE, "Reshuffling the growth deck",
         "When the growth deck runs out, its discards are shuffled into a new deck.",
         "The Commodity Growth deck is used again and again: when no card is left to turn, "
         "the turned cards are shuffled and form the deck anew.", TURN, main=False),
    Rule(UNFINISHED, "Unfinished links",
         "A link whose build roll fell short is completed at the start of the next turn.",
         "A link bought but not built (its build roll fell short and the buyer did not pay "
         "the difference) carries no cubes this turn. It is completed for its owner at the "
         "start of the next turn, just after commodity growth, and works from then on.", TURN),
    Rule(PUBLICISE, "Next turn's links",
         "Links for next turn are turned up now, so everyone can plan for them.",
         "After growth, as many links are drawn from the deck as are on offer now; they "
         "will be auctioned next turn. Seeing them a turn early lets a player save cash, or "
         "borrow, for a link that will join their network. When the deck is empty, no more "
         "links are shown, and the game heads for its end.", TURN),
    Rule(AUCTION, "Auctions",
         "Links are sold one at a time; each bid must beat the last, a pass leaves the auction.",
         "The links on offer are auctioned one after the other. Starting with the First "
         "Player and going round, each bidder either bids more than the high bid (never more "
         "than their cash) or passes and is out of this auction; a player who cannot top the "
         "high bid drops out by themselves. When one bidder is left, they pay their bid to "
         "the bank and own the link for the rest of the game.", TURN),
    Rule(ONE_LINK, "One link a turn",
         "A company that has bought a link this turn sits out the later auctions.",
         "No company may buy more than one link in a turn, so once a player has won an "
         "auction they take no part in the remaining auctions of that turn. It also costs "
         "them the first shipping round (see shipping rounds).", TURN),
    Rule(SET_ASIDE, "Links nobody buys",
         "A link that nobody bids on is removed from the game.",
         "If every bidder passes without a bid (or nobody may bid), the link is set aside "
         "for good: it will never be built, and cubes can never travel along it.", TURN,
         main=False),
    Rule(BUILD_ROLL, "The build roll",
         "The buyer rolls two dice: reaching the link's number builds it at once.",
         "The winner of an auction rolls two dice at once. If the total is at least the "
         "number printed on the link, the link is built and can carry cubes this very turn. "
         "If it falls short, the buyer may pay the difference in cash to build it now, or "
         "wait: it is then completed at the start of next turn. Expensive links are harder "
         "to build at once, but they also count more at the end.", TURN),
    Rule(PAY_TO_FINISH, "Paying to finish",
         "After a short roll, the buyer pays the shortfall to build the link now.",
         "A buyer whose build roll fell short may pay the difference between the roll and "
         "the link's number. The link is then built at once and can carry cubes in this "
         "turn's shipping rounds.", TURN),
    Rule(SHIP, "Shipping a cube",
         "A cube rides built links (at most 5) to the first city demanding its colour; "
         "each link pays its owner +1 income.",
         "A player ships one cube from a city, along built links of anyone's railway, up to "
         "5 links long and never through the same city twice. It must end in a city that "
         "demands its colour, and it stops at the first such city it reaches. Every link it "
         "used raises its owner's income by 1, for good, even when the owner is another "
         "player. The cube then goes back into the cup.", SHIPPING),
    Rule(SHIP_ROUNDS, "Shipping rounds",
         "Round one: only players who bought nothing this turn; round two: everyone.",
         "Shipping happens in two rounds in turn order, one cube per player per round, and "
         "passing is allowed. In the first round only players who did not buy a link this "
         "turn may ship (a consolation for missing out); in the second round everyone may. "
         "A player with no cube that can reach a demanding city is skipped.", SHIPPING),
    Rule(MARKET, "The market roll",
         "The First Player rolls two dice, adds 1; each company loses its income divided by it.",
         "At the end of every turn the market shifts. The First Player rolls two dice and "
         "adds one. Each company's income is divided by that number, rounded down, and loses "
         "that much. A low roll hurts big earners most; a high roll spares everyone.", TURN),
    Rule(INCOME, "Income",
         "Each company is paid its income in cash; income stays for the next turn.",
         "After the market roll, every company receives its income in cash. Income is not "
         "spent: it stays and keeps paying every turn, shrinking only with market rolls, so "
         "income won early is worth the most.", TURN),
    Rule(FIRST_PLAYER, "The First Player card",
         "The card goes to the highest income (ties: most cash, then least debt).",
         "The First Player card is handed to the company with the highest income. On a tie "
         "it goes to the tied company with most cash, then least debt. Going first matters: "
         "the First Player opens the bidding and ships first.", TURN),
    Rule(TIE_ROLL, "First Player tie roll",
         "Players still tied for the card each roll a die; the highest takes it.",
         "When income, cash and debt all tie, the tied players each roll one die and the "
         "highest roll takes the First Player card, rolling again if still tied.", TURN,
         main=False),
    Rule(FINAL, "The end and final scoring",
         "When the last link is built, links add their numbers to cash, loans are repaid "
         "with service, and the richest wins.",
         "The game ends after the turn in which no links are left to offer and the last "
         "bought link is built. Each company then adds the number printed on each of its "
         "links to its cash, repays all its debt plus one more round of 20% service, and "
         "the company with the most money wins; tied companies share the win.", END),
], because)
