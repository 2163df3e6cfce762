"""Paris Connection's rules as data: the ids its events name, and their explanations.

The full text is shown the first time a rule is at work, the short one every
later time. ``help`` names the section of help.md that says more.
"""

from __future__ import annotations

from railgames.core.rulebook import Rule, RuleBook

START = "What you start with"
TURN = "Your turn: build or trade"
CUT_OFF = "Cut off"
END = "The end"

SETUP = "pc.setup"
DEAL = "pc.deal"
TURN_CHOICE = "pc.turn"
BUILD = "pc.build"
CITY_VALUE = "pc.city_value"
END_BUILD = "pc.end_build"
TRADE = "pc.trade"
GAME_END = "pc.end"
SCORING = "pc.scoring"
HOLDING_LIMIT = "pc.holding_limit"

RULEBOOK = RuleBook("paris-connection", [
    Rule(SETUP, "Setting up",
         "Six companies start with one locomotive each in Paris, all worth 0.",
         "Nobody owns a company. Each of the six companies (red, yellow, blue, green, black, "
         "white) has a single locomotive standing in its own Paris hex beside the Eiffel "
         "Tower; the rest of its locomotives wait on its supply. Every company is worth 0 to "
         "begin with. A random player goes first, then play goes round the table.", START),
    Rule(DEAL, "Secret shares",
         "Each player is dealt locomotives at random; each one is a secret share.",
         "Each player is dealt a hand of locomotives drawn at random from the supplies (10 "
         "each with 3 players, down to 5 with 6). Every locomotive held is a share in its "
         "company. Only its owner knows the colours; the others see just how many are held. "
         "Guessing who holds what, and hiding your own interest, is the heart of the game.", START),
    Rule(TURN_CHOICE, "A turn: build or trade",
         "On a turn a player either builds for one company or makes one trade.",
         "A turn is one of two things. Build: place 1 to 5 locomotives of a single company "
         "from its supply onto the map. Trade: hand one of your own locomotives back to its "
         "supply and take one or two of a different company. A player can build for any "
         "company, held or not; building helps every holder of that colour.", TURN),
    Rule(BUILD, "Building",
         "Each new locomotive goes next to one of the same colour; a hex holds one of each colour.",
         "Locomotives of the chosen company are placed one at a time, each next to one of "
         "the same colour already on the map. A hex never holds two of one colour; a city "
         "holds one locomotive, a rural hex two; checkered hex sides are walls. A placement "
         "that would leave another colour with nowhere to grow is refused, unless that colour "
         "already reaches a city (see Cut off).", TURN),
    Rule(CITY_VALUE, "Company value",
         "A locomotive in a city raises its company's value: beige 1, purple 2, red 3, "
         "Marseille 4.",
         "Company values rise only through cities. When a locomotive enters a city, its "
         "company's value goes up at once by the city's number: 1 for beige, 2 for purple, "
         "3 for red and 4 for Marseille. Rural hexes add nothing, but they are the way to "
         "the next city. At the end every share pays its company's value.", TURN),
    Rule(END_BUILD, "Ending a build",
         "After at least one placement the builder ends the build and play passes on.",
         "A build is 1 to 5 placements of one company. Once at least one locomotive is down, "
         "the builder may stop, and the turn passes to the next player.", TURN),
    Rule(TRADE, "Trading",
         "Return one locomotive to its supply, take one or two of another company.",
         "Instead of building, a player may return one of their locomotives to its supply "
         "and take one or two of a different company from its supply. Everyone sees what "
         "was given and what was taken, so a trade gives a little away. Taking two grows a "
         "hand, but a hand that grows too big is penalised at the end.", TURN),
    Rule(GAME_END, "The end of the game",
         "The game stops when a locomotive reaches Marseille or only one supply is left.",
         "The game ends at once when a locomotive is placed in Marseille, or when only one "
         "company still has locomotives on its supply. The company values are then final.",
         END),
    Rule(SCORING, "Scoring",
         "Holdings are revealed; each locomotive held scores its company's value.",
         "At the end every player reveals their holdings. For each company, a player scores "
         "the number of its locomotives they hold times the company's value. The highest "
         "total wins; a tie for the top is a shared win.", END),
    Rule(HOLDING_LIMIT, "Too many locomotives",
         "Each locomotive held above the limit (20/15/12/10) costs 20 points.",
         "Holding a big hand is risky: with 3, 4, 5 or 6 players the limit is 20, 15, 12 or "
         "10 locomotives, and each one held above it takes 20 points off that player's "
         "score.", END, main=False),
])
