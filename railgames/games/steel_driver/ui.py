"""How Steel Driver is presented in the app: labels, the auction, building and claiming
choice trees, the players panel and the final payout.

Everything offered here comes from the rules layer's prompt; what a build or a
claim brings and what shares pay come from the rules (``build_outcome``,
``claim_outcome``, ``share_payouts``), and nothing is decided or worked out here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from railgames.app.gameui import (
    Choice,
    GameUI,
    Highlight,
    Hotkey,
    bot_tag,
    seat_column_width,
    short_name,
)
from railgames.app.palette import player_letters, player_style
from railgames.core.engine import Prompt
from railgames.games.steel_driver.actions import (
    Bid,
    BuildTrack,
    ClaimGoods,
    PassBid,
    PassMarker,
    PutUp,
)
from railgames.games.steel_driver.board import (
    REGULAR_MARK,
    STARTING_MARK,
    colour_letter,
    colour_style,
    company_chip,
    route_mark,
)
from railgames.games.steel_driver.rules import (
    SET_VALUES,
    TRANSCONTINENTAL_OTHERS,
    SteelDriverRules,
    goods_sets,
    set_value,
)
from railgames.games.steel_driver.state import SDState, Step

PASS_KEY = "·pass"
LOOP_PREFIX = "·loop:"  # a link between two places the company already reaches


def cubes(count: int) -> str:
    return f"{count} cube{'s' if count != 1 else ''}"


UNBOUNDED = 10_000  # columns: wider than any screen


class FirstThatFits:
    """The first of several renderables whose natural width fits the space given (else the last)."""

    def __init__(self, *choices: RenderableType) -> None:
        self.choices = choices

    def _pick(self, console: Console, options: ConsoleOptions) -> RenderableType:
        unbounded = options.update(max_width=UNBOUNDED)  # a measurement is capped at its limit
        for choice in self.choices:
            if Measurement.get(console, unbounded, choice).maximum <= options.max_width:
                return choice
        return self.choices[-1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._pick(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._pick(console, options))


class SteelDriverUI(GameUI):
    ruleset: SteelDriverRules
    players_title = "Players"
    # Folded away on a small screen with the players: the order of play.
    folding = (*GameUI.folding, "#sd-order")

    # ------------------------------------------------------------ names
    def company(self, company: str) -> str:
        return self.ruleset.company_name(company)

    def letter(self, company: str) -> str:
        return self.ruleset.map.company_by_id[company].letter

    def chip(self, company: str) -> Text:
        """The company's letter on its colour (as a span, so text appended after it is plain)."""
        return Text().append(f" {self.letter(company)} ", style=company_chip(company))

    def place(self, loc: str) -> str:
        """``Pittsburgh ○r``: a location's name, mark and colour letter (as on the board)."""
        rules = self.ruleset
        mark = STARTING_MARK if rules.is_starting(loc) else REGULAR_MARK
        return f"{rules.location_name(loc)} {mark}{colour_letter(rules.colour(loc))}"

    def other_end(self, route: str, loc: str) -> str:
        r = self.ruleset.route(route)
        return self.ruleset.location_name(r.a if r.b == loc else r.b)

    def network(self, state: SDState, company: str) -> str:
        c = state.companies[company]
        if not c.links:
            return "no track"
        links = len(c.links)
        return f"{links} link{'s' if links != 1 else ''} from {c.start}"

    def company_summary(self, state: SDState, company: str) -> str:
        c = state.companies[company]
        return (f"{cubes(c.cubes)} in box, {self.network(state, company)}, "
                f"{c.shares_left} share{'s' if c.shares_left != 1 else ''} left")

    # ------------------------------------------------------------ what a build earns
    def gain(self, state: SDState, action: BuildTrack) -> int:
        """All the profit a build adds to its company: the place reached and any bonus."""
        return self.ruleset.build_outcome(state, action).profit

    def target(self, state: SDState, action: BuildTrack) -> str | None:
        """The location a build reaches for the first time (None for a loop)."""
        return self.ruleset.target_of(state, action)

    def build_text(self, state: SDState, action: BuildTrack, names: Sequence[str]) -> str:
        """``3 cubes, +$40`` and the transcontinental bonus when this build makes it."""
        rules = self.ruleset
        cost = rules.route(action.route).cost
        outcome = rules.build_outcome(state, action)
        text = f"{cubes(cost)}, +${outcome.gain}"
        if outcome.bonus:
            text += f" and +${outcome.bonus} transcontinental"
            if outcome.sharers:
                text += (" (" + ", ".join(self.company(c) for c in outcome.sharers)
                         + f" +${TRANSCONTINENTAL_OTHERS})")
        return text

    # ------------------------------------------------------------ labels
    def describe(self, state: Any, action: Any, names: Sequence[str]) -> str:
        rules = self.ruleset
        if isinstance(action, PutUp):
            return f"Put the {self.company(action.company)} company up for auction"
        if isinstance(action, PassMarker):
            left = names[(action.seat + 1) % len(names)]
            return f"Pass the Active Player marker to {left}"
        if isinstance(action, Bid):
            if state.step is Step.OPENING:
                return f"Open the bidding at {cubes(action.amount)}"
            return f"Bid {cubes(action.amount)}"
        if isinstance(action, PassBid):
            return "Pass: drop out of this auction"
        if isinstance(action, BuildTrack):
            start = f" from {rules.location_name(action.start)}" if action.start else ""
            return (f"{self.company(action.company)} builds {rules.route_name(action.route)}"
                    f"{start}: {self.build_text(state, action, names)}")
        if isinstance(action, ClaimGoods):
            colour = state.goods_on.get(action.location, "?")
            return (f"{self.company(action.company)} claims the {colour} cube at "
                    f"{rules.location_name(action.location)}")
        return super().describe(state, action, names)

    # ------------------------------------------------------------ choice trees
    def choices(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Choice]:
        step = state.step
        if step is Step.AUCTION:
            return self._auction_choices(state, prompt, names)
        if step is Step.BUILD:
            return self._build_choices(state, prompt, names)
        if step is Step.CLAIM:
            return self._claim_choices(state, prompt)
        out: list[Choice] = []
        for action in prompt.choices:
            if isinstance(action, PassBid):
                out.append(Choice([PASS_KEY], ["Pass: drop out of this auction  (p)"], action))
            else:  # pragma: no cover - the bidding offers only passing as a choice
                out.append(Choice([str(len(out))], [self.describe(state, action, names)], action))
        return out

    def _auction_choices(self, state: SDState, prompt: Prompt,
                         names: Sequence[str]) -> list[Choice]:
        out: list[Choice] = []
        for action in prompt.choices:
            if isinstance(action, PutUp):
                cid = action.company
                out.append(Choice([cid], [f"{self.company(cid)} ({self.letter(cid)}): "
                                          f"{self.company_summary(state, cid)}"], action))
            elif isinstance(action, PassMarker):
                left = names[(action.seat + 1) % len(names)]
                out.append(Choice([PASS_KEY], [f"Pass the marker to {left}  (p)"], action))
        return out

    def _build_choices(self, state: SDState, prompt: Prompt,
                       names: Sequence[str]) -> list[Choice]:
        rules = self.ruleset
        builds = [a for a in prompt.choices if isinstance(a, BuildTrack)]
        out: list[Choice] = []
        if builds and state.companies[builds[0].company].reached == []:
            # The first link: from which starting location, then to where.
            starts: dict[str, list[BuildTrack]] = {}
            for action in builds:
                assert action.start is not None
                starts.setdefault(action.start, []).append(action)
            for start, mine in starts.items():
                best = max(self.gain(state, a) for a in mine)
                first = (f"From {rules.location_name(start)} {STARTING_MARK}: "
                         f"{len(mine)} link{'s' if len(mine) != 1 else ''}, up to +${best}")
                for action in mine:
                    target = self.target(state, action)
                    assert target is not None
                    out.append(Choice(
                        [start, target],
                        [first, f"{self.place(target)}: {self.build_text(state, action, names)}"],
                        action,
                    ))
            return out
        by_target: dict[str, list[BuildTrack]] = {}
        loops: list[BuildTrack] = []
        for action in builds:
            target = self.target(state, action)
            if target is None:
                loops.append(action)
            else:
                by_target.setdefault(target, []).append(action)
        for target, mine in by_target.items():
            if len(mine) == 1:
                action = mine[0]
                out.append(Choice([target], [
                    f"{self.place(target)} from {self.other_end(action.route, target)}: "
                    f"{self.build_text(state, action, names)}"], action))
                continue
            cheapest = min(rules.route(a.route).cost for a in mine)
            head = (f"{self.place(target)}: {len(mine)} ways, {cubes(cheapest)} or more, "
                    f"+${max(self.gain(state, a) for a in mine)}")
            for action in mine:
                out.append(Choice([target, action.route], [
                    head, f"From {self.other_end(action.route, target)}: "
                          f"{self.build_text(state, action, names)}"], action))
        for action in loops:
            out.append(Choice([LOOP_PREFIX + action.route], [
                f"{rules.route_name(action.route)} (a loop): "
                f"{self.build_text(state, action, names)}"], action))
        return out

    def _claim_choices(self, state: SDState, prompt: Prompt) -> list[Choice]:
        rules = self.ruleset
        out: list[Choice] = []
        for action in prompt.choices:
            if not isinstance(action, ClaimGoods):
                continue
            claim = rules.claim_outcome(state, action)
            out.append(Choice([action.location], [
                f"{rules.location_name(action.location)}: {claim.colour} cube "
                f"({colour_letter(claim.colour)}), goods ${claim.before} → ${claim.after}"],
                action))
        return out

    def level_title(self, state: Any, prompt: Prompt, prefix: list[str]) -> str:
        rules = self.ruleset
        step = state.step
        if step is Step.AUCTION:
            return "Put a company up for auction, or pass the marker:"
        if step is Step.BUILD:
            c = state.active_company()
            name = f"{self.company(c.id)} ({cubes(c.cubes)})"
            if not c.reached:
                if not prefix:
                    return f"{name}, first link: build from which starting location ({STARTING_MARK})?"
                return f"{name}: from {rules.location_name(prefix[0])} to where?"
            if not prefix:
                return f"{name}: build to which location?"
            return f"{name}: to {rules.location_name(prefix[0])} along which route?"
        if step is Step.CLAIM:
            c = state.active_company()
            return (f"{self.company(c.id)} (goods ${set_value(c.goods)}): "
                    "claim the cube at which location?")
        return "Choose:"

    def board_level(self, state: Any, prompt: Prompt, prefix: list[str]) -> bool:
        if state.step is Step.BUILD:
            if not state.active_company().reached:
                return len(prefix) < 2
            # Places to reach; a company left with loops only chooses from the list.
            return not prefix and any(self.target(state, a) is not None
                                      for a in prompt.choices if isinstance(a, BuildTrack))
        return state.step is Step.CLAIM

    def highlight(self, state: Any, prompt: Prompt, prefix: list[str], option: str | None) -> Highlight:
        step = state.step
        if step is Step.AUCTION:
            if option and option in state.companies:
                return Highlight(path=list(state.companies[option].links))
            return Highlight()
        if step in (Step.OPENING, Step.BIDDING) and state.auction is not None:
            return Highlight(path=list(state.companies[state.auction.company].links))
        if step is Step.CLAIM:
            c = state.active_company()
            spots = [a.location for a in prompt.choices if isinstance(a, ClaimGoods)]
            return Highlight(cities=spots, path=list(c.links))
        if step is not Step.BUILD:
            return Highlight()
        builds = [a for a in prompt.choices if isinstance(a, BuildTrack)]
        if not builds:
            return Highlight()

        def marks(actions: list[BuildTrack]) -> list[str]:
            return [route_mark(a.route, self.target(state, a), self.gain(state, a))
                    for a in actions]

        c = state.active_company()
        if not c.reached:
            if not prefix:
                starts = sorted({a.start for a in builds if a.start is not None})
                shown = [a for a in builds if a.start == option]
                return Highlight(cities=starts, path=marks(shown))
            mine = [a for a in builds if a.start == prefix[0]]
            targets = [t for t in (self.target(state, a) for a in mine) if t is not None]
            shown = [a for a in mine if self.target(state, a) == option] or mine
            return Highlight(cities=targets, path=marks(shown))
        targets = sorted({t for t in (self.target(state, a) for a in builds) if t is not None})
        if prefix:
            mine = [a for a in builds if self.target(state, a) == prefix[0]]
            shown = [a for a in mine if a.route == option] or mine
            return Highlight(cities=[prefix[0]], path=marks(shown))
        if option and option.startswith(LOOP_PREFIX):
            route = option[len(LOOP_PREFIX):]
            return Highlight(cities=targets, path=[route_mark(route)])
        shown = [a for a in builds if self.target(state, a) == option]
        return Highlight(cities=targets, path=marks(shown))

    def hotkeys(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Hotkey]:
        keys: list[Hotkey] = []
        for action in prompt.choices:
            if isinstance(action, PassMarker):
                keys.append(Hotkey("p", "Pass the marker", action))
            elif isinstance(action, PassBid):
                keys.append(Hotkey("p", "Pass", action))
        return keys

    def amount_context(self, state: Any, prompt: Prompt, names: Sequence[str]) -> str:
        a = state.auction
        if a is None:
            return ""
        me = state.players[prompt.seat]
        lines = [f"{self.company(a.company)}: {self.company_summary(state, a.company)}."]
        if a.high_seat is not None:
            still = ", ".join(short_name(names[s]) for s in a.bidders)
            lines.append(f"High bid {cubes(a.high_bid)} ({short_name(names[a.high_seat])}). "
                         f"Still in: {still}.")
        lines.append(f"You hold {cubes(me.cubes)}; the bid is paid into the company.")
        return "\n".join(lines)

    # ------------------------------------------------------------ state as text
    def shares_text(self, shares: dict[str, int]) -> Text:
        """``R2 B1``: share tokens held, by company letter."""
        text = Text()
        for cid in self.ruleset.companies:
            count = shares.get(cid, 0)
            if not count:
                continue
            if text:
                text.append(" ")
            text.append(self.letter(cid), style=company_chip(cid))
            text.append(str(count))
        if not text:
            text.append("-", style="dim")
        return text

    def players_table(self, state: Any, names: Sequence[str], kinds: Sequence[str],
                      to_move: int | None) -> RenderableType:
        letters = player_letters(names)
        # The name always shows whole (up to NAME_ROOM cells); a bot's kind follows it,
        # dim, and is what gets cut when the side panel is narrow.
        players = [short_name(p.name) for p in state.players]
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
        table.add_column("Player", no_wrap=True, ratio=3, min_width=seat_column_width(players, " ★"))
        table.add_column("Cash", justify="right", no_wrap=True)
        table.add_column("Cubes", justify="right", no_wrap=True)
        table.add_column("Shares", no_wrap=True)
        table.add_column("Runs", no_wrap=True)
        for seat, p in enumerate(state.players):
            mark = "▶" if seat == to_move else " "
            name = Text(mark, style="bold", overflow="ellipsis")
            name.append(f" {letters[seat]} ", style="reverse " + player_style(seat))
            name.append(f" {players[seat]}", style=player_style(seat))
            if seat == state.active and state.step in (Step.AUCTION, Step.OPENING, Step.BIDDING):
                name.append(" ★", style="bold")
            if kinds[seat] != "human":
                name.append(f" ({bot_tag(kinds[seat])})", style="dim")
            runs = Text()
            for cid in self.ruleset.companies:
                if state.companies[cid].controller == seat:
                    runs.append(self.letter(cid), style=company_chip(cid))
            table.add_row(name, f"${p.cash}", str(p.cubes), self.shares_text(p.shares),
                          runs if runs else Text("-", style="dim"))
        return table

    def board_extras(self) -> list[Any]:
        from railgames.games.steel_driver.board import SteelDriverCompanies

        return [SteelDriverCompanies(self.ruleset, id="sd-companies")]

    def side_extras(self) -> list[Any]:
        from railgames.games.steel_driver.board import SteelDriverBoxes

        return [SteelDriverBoxes(self.ruleset, id="sd-boxes")]

    def final_scores(self, state: Any, names: Sequence[str]) -> RenderableType | None:
        """Cash from profits, each company's payout for the shares held, and the total.

        One table when there is room; on a narrow screen the totals and the shares
        are two smaller tables, one above the other.
        """
        if state.final is None:
            return None
        rules = self.ruleset
        result = rules.result(state)
        winners = set(result.winners) if result else set()
        order = sorted(range(len(state.players)),
                       key=lambda s: -state.final[state.players[s].name]["total"])
        paying = [cid for cid in rules.companies
                  if any(p.shares.get(cid) for p in state.players)]
        tables: RenderableType = self._scores_table(state, order, winners, paying)
        if paying:
            split = Group(self._scores_table(state, order, winners, [], worth=False),
                          self._scores_table(state, order, winners, paying, totals=False))
            tables = FirstThatFits(tables, split)
        lines = Text()
        for cid in rules.companies:
            c = state.companies[cid]
            if not c.goods:
                continue
            if lines:
                lines.append("\n")
            lines.append_text(self.chip(cid))
            lines.append(f" {self.company(cid)}: ")
            runs: list[tuple[list[str], int]] = []  # equal sets side by side, counted
            for group in goods_sets(c.goods):
                if runs and runs[-1][0] == group:
                    runs[-1] = (group, runs[-1][1] + 1)
                else:
                    runs.append((group, 1))
            for i, (group, times) in enumerate(runs):
                if i:
                    lines.append(" + ")
                if times > 1:
                    lines.append(f"{times}×")
                lines.append("{")
                for colour in group:
                    lines.append(colour_letter(colour), style=colour_style(colour))
                lines.append(f"}}${SET_VALUES[len(group)]}")
            lines.append(f" = ${c.final_profit or 0} a share", style="bold")
        note = Text("Goods letters: w white, o orange, s silver, k black, r red. Most cash "
                    "wins; a tie goes to the most goods cubes in the companies a player runs "
                    "(Goods run).", style="dim")
        return Group(tables, lines, note) if lines else Group(tables, note)

    def _scores_table(self, state: SDState, order: list[int], winners: set[str],
                      paying: list[str], totals: bool = True, worth: bool = True) -> Table:
        """The final table: a row per player, a column per company in ``paying``, the
        totals unless told not to, and above the players each share's worth if asked."""
        rules = self.ruleset
        table = Table(expand=False, padding=(0, 1))
        table.add_column("Player")
        if totals:
            table.add_column("Profits", justify="right")
        for cid in paying:
            table.add_column(self.chip(cid), justify="right")
        if totals:
            table.add_column("Shares", justify="right")
            table.add_column("Total", justify="right")
            table.add_column("Goods run", justify="right")
        after = ["", "", ""] if totals else []
        if worth:
            per_share = [Text(f"${state.companies[cid].final_profit or 0}/sh", style="bold")
                         for cid in paying]
            table.add_row(Text("Share worth", style="bold"), *([""] if totals else []),
                          *per_share, *after)
        assert state.final is not None
        for seat in order:
            p = state.players[seat]
            parts = state.final[p.name]
            payouts = rules.share_payouts(state, seat)
            cells: list[RenderableType] = []
            for cid in paying:
                count = p.shares.get(cid, 0)
                cells.append(Text(f"{count}=${payouts[cid]}" if count else "-",
                                  style="" if count else "dim"))
            star = "★ " if p.name in winners else "  "
            row: list[RenderableType] = [Text(star + p.name, style=player_style(seat))]
            if totals:
                goods = state.goods_controlled[seat] if state.goods_controlled else 0
                row += [f"${parts['profits']}", *cells, f"+${parts['shares']}",
                        Text(f"${parts['total']}", style="bold"), str(goods)]
            else:
                row += cells
            table.add_row(*row)
        return table


    def why_not(self, state: Any, prompt: Prompt, prefix: list[str], key: str) -> str:
        rules = self.ruleset
        if key not in rules.map.location_by_id:
            return super().why_not(state, prompt, prefix, key)
        place = rules.location_name(key)
        c = state.active_company() if state.step in (Step.BUILD, Step.CLAIM) else None
        reason: str | None = None
        if c is not None and state.step is Step.CLAIM:
            reason = self.rules_refusal(state, ClaimGoods(seat=prompt.seat, company=c.id,
                                                          location=key))
        elif c is not None:
            routes = rules.map.routes_at.get(key, [])
            if not c.reached and not prefix:  # choosing where the first link starts
                candidates = [BuildTrack(seat=prompt.seat, company=c.id, route=r.id, start=key)
                              for r in routes]
            elif not c.reached:
                start = prefix[0]
                candidates = [BuildTrack(seat=prompt.seat, company=c.id, route=r.id, start=start)
                              for r in routes if start in (r.a, r.b)]
                if not candidates:
                    reason = f"no route joins {rules.location_name(start)} and {place}"
            elif key in c.reached:
                reason = (f"{place} is already on the {rules.company_name(c.id)} company's track; "
                          "choose a place the new link would reach")
            else:
                # The reason of the route that comes nearest to being buildable.
                candidates = sorted((BuildTrack(seat=prompt.seat, company=c.id, route=r.id)
                                     for r in routes),
                                    key=lambda a: not ({rules.route(a.route).a,
                                                        rules.route(a.route).b} & set(c.reached)))
            if reason is None:
                reasons = [r for r in (self.rules_refusal(state, a) for a in candidates) if r]
                reason = reasons[0] if reasons else None
        if reason is None:
            return super().why_not(state, prompt, prefix, key)
        return reason if reason.startswith(place) else f"{place}: {reason}"
