"""Railways of the World's rules as data: the ids its events name, and their explanations.

The full text is shown the first time a rule is at work, the short one every
later time. ``help`` names the section of help.md that says more.
"""

from __future__ import annotations

from railgames.core.rulebook import Rule, RuleBook

PIECES = "The pieces"
TURN = "A turn"
END = "The end"
OPTIONS = "Options at set-up"

SETUP = "rw.setup"
TURN_START = "rw.turn"
AUCTION = "rw.auction"
ALL_PASS = "rw.all_pass"
ORDER = "rw.order"
BONDS = "rw.bonds"
BUILD = "rw.build"
RIDGE = "rw.ridge"
CROSSING = "rw.crossing"
LINK = "rw.link"
URBANIZE = "rw.urbanize"
ENGINE = "rw.engine"
DELIVER = "rw.deliver"
EMPTY_CITY = "rw.empty_city"
PASS = "rw.pass"
INCOME = "rw.income"
INTEREST = "rw.interest"
REMOVE = "rw.remove_incomplete"
END_TRIGGER = "rw.end_trigger"
FINAL = "rw.final"
FIRST_TURN_FIXED = "rw.first_turn_fixed"
PASS_PAYS_HALF = "rw.pass_pays_half"

RULEBOOK = RuleBook("railways-of-the-world", [
    Rule(SETUP, "Setting up",
         "Cities get cubes from the bag; railroads start penniless with a level 1 engine.",
         "Every coloured city is given goods cubes drawn at random from the bag, as many as "
         "it shows (one fewer with two or three players, never none); gray cities start "
         "empty. Each railroad begins with no money at all and a level 1 engine, so the "
         "first track is bought with bonds.", PIECES),
    Rule(TURN_START, "A turn",
         "An auction for first place, three rounds of one action each, then income.",
         "Each turn opens with an auction for the First Player marker, then every player "
         "takes one action in each of three rounds, and the turn closes with income, bond "
         "interest and the removal of unfinished track.", TURN),
    Rule(AUCTION, "The First Player auction",
         "Outbid or drop out for good; the last bidder pays and plays first.",
         "Starting with the last First Player and going round, each player either bids more "
         "than the standing bid (at least $1,000) or passes and is out of this auction. The "
         "last bidder left pays the bid to the bank and plays first this turn.", TURN),
    Rule(ALL_PASS, "Nobody bids",
         "If everyone passes, the next player after the last First Player goes first.",
         "When every player passes without a bid, nobody pays: the First Player marker moves "
         "on to the player after the one who held it.", TURN, main=False),
    Rule(ORDER, "Order of play",
         "The First Player acts first in each round, the others follow round the table.",
         "The First Player takes the first action of every round of this turn, and the "
         "others follow in seat order after them.", TURN),
    Rule(BONDS, "Bonds",
         "A bond brings $5,000 when a payment needs it; it is never repaid.",
         "Whenever a player must pay more than they have, just enough bonds are issued to "
         "cover it, each bringing $5,000. Bonds stay for the whole game: each costs $1,000 "
         "at every income phase and a point at the end.", PIECES),
    Rule(BUILD, "Building track",
         "Up to four tiles in one link, from a city or your own open end; terrain sets the price.",
         "A build lays up to four tiles forming one link: the first starts at a city or at the "
         "open end of the builder's own unfinished link, and each next tile continues it. A "
         "tile costs $2,000 in open country, $3,000 with water and $4,000 in mountains.", TURN),
    Rule(RIDGE, "Ridges",
         "Track crossing a ridge costs $4,000 more.",
         "Some hex sides carry a ridge; every ridge the new track crosses adds $4,000 to the "
         "tile that crosses it.", TURN, main=False),
    Rule(CROSSING, "Crossings",
         "Track may cross another track in a hex, but never join or bend it.",
         "A hex may hold two tracks that cross; no hex side ever carries two tracks, so one "
         "player's track can never be joined to or redirected by another's.", TURN, main=False),
    Rule(LINK, "Completing a link",
         "Reaching a second city completes the link and ends the build.",
         "Track that reaches another city completes a link between the two, owned by its "
         "builder; the build stops there. Cubes travel only along complete links.", TURN),
    Rule(URBANIZE, "Urbanizing",
         "For $10,000 a gray city takes a New City colour and two cubes from the bag.",
         "A player may pay $10,000 to put a New City tile of any colour still available on a "
         "gray city: the city takes that colour, and two cubes are drawn for it from the "
         "bag.", TURN, main=False),
    Rule(ENGINE, "Upgrading the engine",
         "One level up per action; the engine level is how many links a cube may travel.",
         "A player may buy the next engine card, one level at a time up to 8. The level is the "
         "most links that player can move a cube in one delivery.", TURN),
    Rule(DELIVER, "Delivering a cube",
         "Along complete links to the first city of its colour; every link pays its owner.",
         "A cube moves along complete links, no more than the mover's engine level, to a city "
         "of its own colour, stopping at the first such city, never passing a city or link "
         "twice, the first link the mover's own. Each link's owner moves up one income space; "
         "the cube goes back into the bag.", TURN),
    Rule(EMPTY_CITY, "Empty cities",
         "A city whose last cube leaves gets an empty-city marker.",
         "When the last cube of a city is delivered away, an empty-city marker is put there. "
         "Enough markers end the game.", END),
    Rule(PASS, "Passing",
         "A player may take no action in a round.",
         "Instead of acting, a player may pass for the round; nothing is paid.", TURN,
         main=False),
    Rule(INCOME, "Income",
         "Each railroad collects the dollars its income space shows.",
         "After the third round every player collects the money shown on the income track at "
         "their marker's space.", TURN),
    Rule(INTEREST, "Bond interest",
         "$1,000 per bond after income; new bonds if short, charged from next time.",
         "After collecting income each player pays $1,000 for every bond they hold. A player "
         "who cannot pay issues more bonds, which are not charged until the next income.",
         TURN),
    Rule(REMOVE, "Unfinished links removed",
         "At the end of the turn every incomplete link comes off the board.",
         "Any track that has not reached a second city by the end of the turn is removed, "
         "whoever built it; the money spent on it is lost.", TURN, main=False),
    Rule(END_TRIGGER, "The end approaches",
         "The last marker needed is placed: this turn is finished, then one more.",
         "Once the number of empty-city markers the board sets for this many players is on "
         "the map, the turn in progress is played out and one more full turn follows.", END),
    Rule(FINAL, "Final scores",
         "Income space less bonds; ties go to more links, then more money.",
         "Each player scores their income space, less one point per bond. The highest score "
         "wins; a tie goes to the player with more complete links, then to more money.", END),
    Rule(FIRST_TURN_FIXED, "First turn in seat order (option)",
         "No first auction: later seats are paid $1,000 a place.",
         "With this option the first turn has no auction: seats play in order, and the "
         "second player receives $1,000, the third $2,000 and so on.", OPTIONS, main=False),
    Rule(PASS_PAYS_HALF, "Dropping out pays half (option)",
         "Each player who drops out pays half their bid; drop-outs set the order.",
         "With this option a player who drops out of the auction pays half their last bid, "
         "rounded up to $1,000, and the turn order is the winner, then the others in the "
         "reverse of the order they dropped out.", OPTIONS, main=False),
])
