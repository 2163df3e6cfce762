"""Paris Connection: what every phase of the rules, and the bots, share.

The game's numbers and ``ParisConnectionBase``: the map as the rules read it, the
names the log uses, where each company could grow (its frontier), and what a
player's holdings score. The phases (``build``, ``trade``, ``turns``) build on it
and the rules class (``rules``) puts them together. The bots read the rules
through this class, so they never import the rules module that names them.
"""

from __future__ import annotations

from railgames.core.engine import Ruleset
from railgames.core.errors import MalformedAction
from railgames.core.hexgrid import Hex
from railgames.games.paris_connection.board_map import ParisConnectionMap
from railgames.games.paris_connection.places import place_names
from railgames.games.paris_connection.state import PCState

# Locomotives dealt to each player, and the holding limit, by player count.
HAND_SIZE = {3: 10, 4: 8, 5: 6, 6: 5}
HOLDING_LIMIT = {3: 20, 4: 15, 5: 12, 6: 10}
PENALTY_PER_EXTRA = 20
MAX_BUILD = 5


VALUE_MARKER = 1  # each company's value marker is one of its own locomotives


class ParisConnectionBase(Ruleset[PCState]):
    """The map, the names, the companies' frontiers and the scores."""

    map: ParisConnectionMap

    def __init__(self, game_map: ParisConnectionMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        m = game_map
        self.companies: list[str] = m.company_ids
        self._links = m.links
        self._capacity = m.capacity
        self._no_room = frozenset(h for h, room in m.capacity.items() if not room)
        self._value = m.hex_value
        self._city_at = m.city_at
        self._paris = m.paris
        self._checkered = m.checkered
        self._end_hex = m.end_hex
        self._offset = {h: m.offset_of(h) for h in m.terrain}
        self._hex_at = {off: h for h, off in self._offset.items()}

    # ------------------------------------------------------------ names
    def hex_at(self, col: int, row: int) -> Hex | None:
        return self._hex_at.get((col, row))

    def offset(self, h: Hex) -> tuple[int, int]:
        return self._offset[h]

    def hex_name(self, h: Hex) -> str:
        """A city's name, or a place as a player would say it: "the plain east of Lyon"."""
        return place_names(self.map)[h]

    def city_name(self, place: str) -> str:
        """A hex given by its id "column,row", named as the log names it."""
        try:
            col, row = (int(p) for p in place.split(","))
        except ValueError:
            return place
        h = self._hex_at.get((col, row))
        return place if h is None else self.hex_name(h)

    def hex_value(self, h: Hex) -> int:
        return self._value[h]

    def is_city(self, h: Hex) -> bool:
        return h in self._city_at

    @staticmethod
    def _name(state: PCState, seat: int) -> str:
        return state.players[seat].name

    @staticmethod
    def _locos(count: int, company: str) -> str:
        return f"{count} {company} locomotive{'s' if count != 1 else ''}"

    def holding_text(self, shares: dict[str, int]) -> str:
        parts = [f"{shares[c]} {c}" for c in self.companies if shares.get(c)]
        return ", ".join(parts) if parts else "nothing"

    def _company(self, company: str) -> str:
        if company not in self.map.company_by_id:
            raise MalformedAction(f"'{company}' is not a company ({', '.join(self.companies)})")
        return company

    def _hex(self, offset: tuple[int, int]) -> Hex:
        h = self._hex_at.get((offset[0], offset[1]))
        if h is None:
            raise MalformedAction(f"there is no hex {offset[0]},{offset[1]} on this map")
        return h

    # ------------------------------------------------------------ the board
    def room_for(self, state: PCState, h: Hex, company: str) -> bool:
        """Could a locomotive of ``company`` stand on ``h``, by the stacking rules alone?"""
        here = state.board.get(h, ())
        return company not in here and len(here) < self._capacity[h]

    def frontier(self, state: PCState, company: str) -> set[Hex]:
        """Hexes next to ``company``'s locomotives where one more of it could stand."""
        out: set[Hex] = set()
        for h, here in state.board.items():
            if company in here:
                out.update(n for n in self._links[h] if self.room_for(state, n, company))
        return out

    def frontiers(self, state: PCState) -> dict[str, set[Hex]]:
        """Every company's frontier, in one pass over the board."""
        board, capacity, links = state.board, self._capacity, self._links
        on: dict[str, list[Hex]] = {c: [] for c in self.companies}
        # Hexes no further locomotive can stand on: full ones, and the tower.
        full = set(self._no_room)
        for h, here in board.items():
            for c in here:
                on[c].append(h)
            if len(here) >= capacity[h]:
                full.add(h)
        out: dict[str, set[Hex]] = {}
        for c, hexes in on.items():
            # Next to one of its locomotives, not full, and not holding one of its own.
            room = set().union(*map(links.__getitem__, hexes)) if hexes else set()
            room -= full
            room.difference_update(hexes)
            out[c] = room
        return out

    def reached_city(self, state: PCState, company: str) -> bool:
        return any(company in here and h in self._city_at for h, here in state.board.items())

    def supplies_left(self, state: PCState) -> int:
        return sum(1 for k in state.supply.values() if k > 0)

    # ------------------------------------------------------------ scores
    def over_limit(self, state: PCState, seat: int) -> int:
        """How many locomotives ``seat`` holds above the holding limit."""
        return max(0, state.players[seat].held - HOLDING_LIMIT[len(state.players)])

    def score_of(self, state: PCState, seat: int) -> dict[str, int]:
        """What ``seat``'s holdings score at the company values of ``state``.

        The parts: each company's points (locomotives held × its value), the
        ``penalty`` for locomotives above the holding limit, and the ``total``.
        These are the final scores once the game is over; before then, what the
        holdings would score if it ended now. Holdings hidden in a view count as none.
        """
        shares = state.players[seat].shares or {}
        parts = {c: shares.get(c, 0) * state.value[c] for c in self.companies}
        parts["penalty"] = -PENALTY_PER_EXTRA * self.over_limit(state, seat)
        parts["total"] = sum(parts.values())
        return parts
