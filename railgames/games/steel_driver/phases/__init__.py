"""Steel Driver's phases, one module each, as the rulebook orders a turn.

``turn``: taking investment cubes, taking profits, the end of a turn (nothing to
decide in them); ``auction``: the auction of control markers; ``building``: track
building, company by company; ``final``: the final profit determination. Each
phase lists its choices, checks an action and carries it out in one place;
``SteelDriverRules`` (rules.py) runs them in order.
"""
