"""Steel Driver's rules as data: the ids its events name, and their explanations.

The full text is shown the first time a rule is at work, the short one every
later time. ``help`` names the section of help.md that says more.
"""

from __future__ import annotations

from railgames.core.rulebook import Rule, RuleBook

PIECES = "The pieces"
TURN = "A turn"
END = "The end: final profit determination"

SETUP = "sd.setup"
TURN_ORDER = "sd.turn"
TAKE_CUBES = "sd.take_cubes"
STAND_INS = "sd.stand_ins"
MARKER = "sd.marker"
AUCTION = "sd.auction"
CONTROL = "sd.control"
END_AUCTIONS = "sd.end_auctions"
BUILD = "sd.build"
FIRST_LINK = "sd.first_link"
NEW_LOCATION = "sd.new_location"
MUST_BUILD = "sd.must_build"
TRANSCONTINENTAL = "sd.transcontinental"
PROFITS = "sd.profits"
NEXT_ORDER = "sd.next_order"
FINAL = "sd.final"
CLAIM = "sd.claim"
SETS = "sd.sets"
WINNER = "sd.winner"

RULEBOOK = RuleBook("steel-driver", [
    Rule(SETUP, "Setting up",
         "Six companies, a pool of cubes, five turns; a random player holds the marker.",
         "Six railroad companies wait to build across the United States; nobody owns any of "
         "them yet. Investment cubes, the money of auctions and building, sit in a common "
         "pool. The game lasts five turns and one player, drawn at random, starts with the "
         "Active Player marker.", PIECES),
    Rule(TURN_ORDER, "The order of a turn",
         "Take cubes, auction the companies, build track, take profits.",
         "Each of the five turns has the same steps: everyone takes investment cubes, the "
         "companies' control is auctioned, the controlled companies build track one link at "
         "a time in the order of play, and each controller pockets the profit of the "
         "companies they run. Control lasts only this turn; shares last the whole game.",
         TURN),
    Rule(TAKE_CUBES, "Taking cubes",
         "Each player takes 10/8/7/6 cubes (3-6 players); unspent cubes are kept.",
         "At the start of every turn each player takes investment cubes from the pool: 10 "
         "with 3 players, 8 with 4, 7 with 5 and 6 with 6. Cubes not spent stay in hand for "
         "later turns. Cubes are only for bidding: cash is score, and cannot buy anything.",
         TURN),
    Rule(STAND_INS, "Goods cubes standing in",
         "When the white cubes run out, goods cubes are used as investment cubes.",
         "The pool holds white investment cubes and coloured goods cubes. Once the white "
         "ones are gone, coloured cubes are handed out and spent in their place; their "
         "colour does not matter until the end.", PIECES, main=False),
    Rule(MARKER, "The Active Player marker",
         "Its holder puts a company up for auction or passes the marker to the left.",
         "The holder of the Active Player marker either offers a company for auction, "
         "opening the bidding with at least 1 cube, or passes the marker to the next player. "
         "Each company can be offered once a turn. The auctions stop when everyone in a row "
         "passes the marker, or when every company has been sold.", TURN),
    Rule(AUCTION, "Bidding",
         "Bids go round; each must top the last and fit in the bidder's cubes; a pass is final.",
         "Bidding goes round the table from the player who offered the company. Each bid "
         "must be higher than the one before and no larger than the cubes the bidder holds; "
         "a player who passes, or cannot top the bid, is out of this auction. The last "
         "bidder left wins.", TURN),
    Rule(CONTROL, "Winning a company",
         "The winner pays the bid into the company's box, runs it this turn, gets a share.",
         "The winning bid is not lost: the cubes go into the company's own box, and the "
         "company spends them on track. The winner controls the company for this turn "
         "(choosing where it builds and taking its profit) and takes one of its shares, "
         "which pays at the very end. The marker then goes to the left of the player who "
         "offered the company.", TURN),
    Rule(END_AUCTIONS, "The end of the auctions",
         "When all pass the marker in a row, or all companies are sold, building begins.",
         "The auction step ends when every player in a row passes the marker, or no "
         "company is left to offer. Companies nobody bought stay idle this turn.", TURN),
    Rule(BUILD, "Building track",
         "Companies build one link each in turn, paying its cost from their own box.",
         "The controlled companies take turns in the order of play, each building one link "
         "per go: a route between two locations, costing the cubes printed on it, paid from "
         "the company's box. A route carries only one company's track ever, and new track "
         "must join the company's own network.", TURN),
    Rule(FIRST_LINK, "A company's first link",
         "A company's first link starts at a starting location (a hexagon), which earns nothing.",
         "A company with no track yet must build its first link from a starting location, "
         "drawn as a hexagon; its controller picks which one. That starting location never "
         "adds to the company's profit.", TURN),
    Rule(NEW_LOCATION, "Reaching a location",
         "Track reaching a location for the first time adds its value to the company's profit.",
         "Whenever a company's track reaches a location it had not reached before, the "
         "location's dollar value is added to the company's profit for the turn, even if "
         "another company is already there. Linking valuable places quickly is how a "
         "company earns.", TURN),
    Rule(MUST_BUILD, "Building is compulsory",
         "A company builds whenever it can; it passes only when it cannot, for the turn.",
         "A controlled company must build if it can afford any link it may build. It passes "
         "only when it cannot (no cubes, nowhere to go, or every link too dear), and a pass "
         "lasts for the rest of the turn. Companies nobody controls pass at once. The order "
         "in which companies pass is next turn's order of play.", TURN),
    Rule(TRANSCONTINENTAL, "The transcontinental link",
         "First track joining San Francisco to New York: $50 to the builder, $30 to each "
         "other company on the line.",
         "Once a game, when track of any companies first joins San Francisco and New York, "
         "the company that built the last link earns $50 of extra profit and every other "
         "company on the line earns $30. The line is traced through as few companies as "
         "possible, then as few links as possible.", TURN),
    Rule(PROFITS, "Taking profits",
         "Each controller is paid in cash the turn's profit of each company they run.",
         "When no company can build any more, each player is paid, in cash, the profit of "
         "every company they control this turn. A company nobody controls pays no one. "
         "Profits then go back to zero and control returns to the companies.", TURN),
    Rule(NEXT_ORDER, "The next order of play",
         "The order in which companies passed is next turn's building order.",
         "At the end of a turn, the companies build next turn in the order in which they "
         "passed this turn: the first to run out of track goes first next time.", TURN),
    Rule(FINAL, "Final profit determination",
         "After turn 5, leftover cubes become goods; each location with track gets one.",
         "After the fifth turn every cube left in company boxes and in players' hands goes "
         "back to the pool, and from now on cubes are goods. Each location reached by track "
         "gets a goods cube of its colour. Each company is now controlled by the player with "
         "most of its shares (a tie goes to the tied player nearest clockwise from its last "
         "controller).", END),
    Rule(CLAIM, "Claiming goods",
         "In turn, each company takes one goods cube from a location on its track.",
         "In the order of play of the last turn, companies take one goods cube at a time "
         "from any location their track reaches, round and round, until none can take more. "
         "The controller picks which cube.", END),
    Rule(SETS, "Sets of goods and share payouts",
         "Different colours make a set (1-5 cubes: $10/$30/$60/$100/$150); each share is "
         "paid the company's total.",
         "Each company's goods are grouped into sets of different colours, in the way that "
         "scores most: a set of 1 is worth $10, 2 are $30, 3 are $60, 4 are $100 and 5 are "
         "$150. The sum is what each share of that company pays its holder.", END),
    Rule(WINNER, "The winner",
         "Most cash wins; a tie goes to who controls the companies with most goods.",
         "After the payout, the player with the most cash wins. On a tie, the tied player "
         "controlling the companies holding the most goods cubes wins.", END),
])
