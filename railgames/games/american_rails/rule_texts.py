"""American Rails' rules as data: the ids its events name, and their explanations.

The full text is shown the first time a rule is at work, the short one every
later time. ``help`` names the section of help.md that says more.
"""

from __future__ import annotations

from railgames.core.rulebook import Rule, RuleBook

START = "What you start with"
PREPARATION = "The preparation round"
ROUND = "A round: three action phases, then dividends"
EXPANDING = "Expanding"
INCOME_SECTION = "Income"
END_SECTION = "Dividends and the end"

SETUP = "ar.setup"
PREP = "ar.prep"
AUCTION = "ar.auction"
FIRST_CUBE = "ar.first_cube"
TRACK = "ar.track"
LEAVE_UNDONE = "ar.leave_undone"
DEVELOP = "ar.develop"
FUND = "ar.fund"
TAKE_TWO = "ar.take_two"
EXPAND = "ar.expand"
INCOME = "ar.income"
SPECIAL = "ar.special"
DIVIDEND = "ar.dividend"
GAME_END = "ar.end"

RULEBOOK = RuleBook("american-rails", [
    Rule(SETUP, "Setting up",
         "Each player gets $50 ($40 with five); companies start off the map at income $0.",
         "Six companies wait off the map, each with its cubes, its shares and an income "
         "marker at $0 (with three players one company, drawn at random, sits out). Each "
         "player receives $50, or $40 with five players. Money is public, and at the end "
         "only money counts.", START),
    Rule(PREP, "The preparation round",
         "One share of each company is auctioned; winners take the turn order spaces.",
         "Before 1851 one share of every company goes up for auction, the banker choosing "
         "the first. Each buyer takes the next free space of the turn order track and picks "
         "the next company; players who bought nothing take the last spaces.", PREPARATION),
    Rule(AUCTION, "Share auctions",
         "Bids go round clockwise from $10; a pass is final; the price goes to the company.",
         "The player who put the share up bids first, then the others clockwise. The opening "
         "bid is $10 or more; after it each bid need only top the high bid, by as little as "
         "$1, and a pass is for good. The last bidder left buys the share and pays the "
         "bid into the company's treasury, which pays for its track. A share nobody bids on "
         "leaves the game.", PREPARATION),
    Rule(FIRST_CUBE, "A company's first cube",
         "A new company starts on an empty city, at that city's full value.",
         "When a company's first share is bought, the buyer puts one of its cubes on any city "
         "without track; the company's income becomes that city's full value.", PREPARATION),
    Rule(TRACK, "The action track",
         "Each player takes a free space of the column; the order down it sets who goes next.",
         "A round has three action phases. In each, every player moves a marker to a free "
         "space of the action track's column and carries out that action. A space holds one "
         "marker. The markers' order down a column decides who chooses first in the next, and "
         "the last column sets next round's turn order.", ROUND),
    Rule(LEAVE_UNDONE, "Leaving an action undone",
         "A player may take a space and do nothing with it.",
         "Taking a space does not oblige anyone to carry out its action: it may be taken "
         "just to block it, or to choose early in the next column. An action with nothing "
         "left to do ends at once.", ROUND, main=False),
    Rule(DEVELOP, "Develop",
         "A development marker on a city with track: +$2 alone there, +$1 each when shared.",
         "Develop puts one of twelve markers on a city that has track. The city is worth $2 "
         "more to a company alone there, $1 more to each company when shared. New York, "
         "Baltimore, Philadelphia, Boston and Chicago are never developed.", ROUND),
    Rule(FUND, "Fund $5",
         "The bank puts $5 into a company's treasury.",
         "Fund $5 takes five dollars from the bank into any company's treasury, the only "
         "money a company has for track besides what its shares sold for.", ROUND,
         main=False),
    Rule(TAKE_TWO, "Take $2",
         "Take $2 from the bank, or every other player pays $2 to the bank.",
         "Take $2 gives the player two dollars from the bank, or instead makes every other "
         "player pay two dollars to the bank. With four or five players the space may be "
         "used for an Expand 2 instead.", ROUND, main=False),
    Rule(EXPAND, "Expanding",
         "Cubes go next to their own colour; the company's treasury pays the terrain's price.",
         "Expand 2, 3 or 4 places up to that many cubes, one at a time, each of a company the "
         "player holds a share of, next to a cube of its colour. A hex holds one cube of each "
         "colour, forests and mountains one cube in all. The company pays: a city $2 plus $2 "
         "per cube or marker there, plains $2 plus $2 per cube, forest $3, mountain $5.",
         EXPANDING),
    Rule(INCOME, "Company income",
         "A city pays its full value to a company alone there, its shared value to each of several.",
         "A company's income grows with the cities it reaches. Alone in a city it earns the "
         "full value; when a second company arrives, both earn the shared value, so the first "
         "one's income drops. Later arrivals earn the shared value too.", INCOME_SECTION),
    Rule(SPECIAL, "Special connections",
         "Joining two of Chicago, New York and Atlanta adds $10 of income, once per pair.",
         "A company whose track reaches two of Chicago, New York and Atlanta gains $10 of "
         "income at once, once for each pair; reaching the third city of the three completes "
         "two pairs at once.", INCOME_SECTION, main=False),
    Rule(DIVIDEND, "Dividends",
         "After three action phases each company pays its income over the shares held, rounded up.",
         "At the end of a round each company pays every share players hold its income divided "
         "by the number of shares held, rounded up. The bank pays; unsold and removed shares "
         "get nothing.", END_SECTION),
    Rule(GAME_END, "The end",
         "After 1857, or when shares or supplies run out, the most money wins.",
         "The game ends after a dividend phase if it is 1857, if every share is sold or "
         "removed, or if as many supplies as there are players are down to two or fewer. "
         "The player with the most money wins; ties share the win.", END_SECTION),
])
