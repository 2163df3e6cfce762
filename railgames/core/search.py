"""The search bot: Monte Carlo tree search for every game, through the ``Ruleset``.

One search serves every game. Where nothing is hidden it is UCT with a reward
per player (each seat maximises its own part of the vector). Where a game hides
something — holdings behind a screen, the order of a deck, the next draw from a
cup or bag — it is information-set MCTS: every iteration starts from a fresh
*determinization*, a full state consistent with what the bot's seat can see,
made by the game's own sampler from ``view(state, seat)`` and the bot's seeded
random source. The bot never sees more than its view; the random source of the
real game is replaced in every determinization, so future dice stay unknown.

Each iteration walks the tree (UCB1 among the moves available in this
determinization), adds one node, plays the game on for a few actions with the
game's fast policy (its greedy bot, with a little noise), and scores the
position with the game's evaluation (its estimate of each player's final
score). The scores become rewards with a logistic curve of the margin over the
best opponent, so a clear lead is near 1 and a close race near ½.

A game supplies a ``SearchHooks`` (see each game's ``bots.py``): the sampler,
the evaluation, the playout policy, and the candidate moves — where a move is a
number (a bid, a loan) only a few values are searched; where there are very
many moves (each track tile's sides) the game may offer a few good ones.

Budget: seconds or iterations. Given iterations and a seed the choice is
reproducible; a time budget is not (it depends on the machine).
"""

from __future__ import annotations

import copy
import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from railgames.core.engine import AmountInput, Prompt, Ruleset, amount_action
from railgames.core.events import EventLog
from railgames.core.rng import Chance

# Strength -> seconds a move. ``search`` alone is normal.
STRENGTHS: dict[str, float] = {"easy": 0.3, "normal": 1.0, "hard": 2.0}
SEARCH_KINDS = ("search", "search:easy", "search:hard")


def strength_of(kind: str) -> str | None:
    """'search' -> 'normal', 'search:hard' -> 'hard'; None for a kind that is no search bot."""
    if kind == "search":
        return "normal"
    if kind.startswith("search:") and kind[7:] in STRENGTHS:
        return kind[7:]
    return None


@dataclass
class Budget:
    """How long a search may think: ``seconds``, ``iterations``, or both (whichever ends first)."""

    seconds: float | None = 1.0
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a search budget needs seconds or iterations")


class Cancelled(Exception):
    """The search was told to stop (the game closed mid-think)."""


def action_key(action: Any) -> Any:
    """A hashable name for an action (lists in its fields become tuples)."""
    try:
        hash(action)
        return action
    except TypeError:
        if isinstance(action, dict):
            return ("dict", tuple(sorted((str(k), action_key(v)) for k, v in action.items())))
        if isinstance(action, list):
            return tuple(action_key(v) for v in action)
        return (type(action).__name__,
                tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in action.__dict__.items()))


class SearchHooks:
    """What a game tells the search. Override what the defaults get wrong for the game.

    ``score_scale``: a typical lead at the end, in the game's points; a lead of
    that much earns a reward of about 0.73.
    ``playout_depth``: actions played after the tree before the evaluation.
    ``noise``: the share of playout moves chosen at random among the candidates.
    """

    score_scale: float = 10.0
    playout_depth: int = 30
    noise: float = 0.05
    # Exploration constant of UCB1, and the head start of the game's own policy
    # move at each node (shrinking with visits).
    exploration: float = 0.7
    policy_bias: float = 0.3
    # How many standard errors better another move must look before the search
    # leaves the policy's move (see ``MCTS._decide``).
    deviation: float = 1.0

    def __init__(self, ruleset: Ruleset[Any]) -> None:
        self.rules = ruleset
        self._policies: dict[int, Any] = {}

    @classmethod
    def maker(cls, ruleset: Ruleset[Any]) -> Callable[..., SearchHooks]:
        """What a ruleset's ``bot_makers`` gives for "search": these hooks for
        ``ruleset``, whatever seed the bot is made with."""

        def make(seed: int = 0) -> SearchHooks:
            return cls(ruleset)

        return make

    # --- the unseen
    def determinize(self, view: Any, seat: int, rng: random.Random) -> Any:
        """A full state consistent with ``view`` (what ``seat`` sees), drawn with ``rng``.

        The default suits games whose only unknown is the future: a copy of the
        view with a new random source for dice and draws. Games with hidden
        holdings or deck orders deal them here. Never reads anything but ``view``.
        """
        state = self.copy(view)
        if hasattr(state, "chance"):
            state.chance = Chance(rng.getrandbits(64))
        return state

    @staticmethod
    def copy(state: Any) -> Any:
        """A deep copy without the event log (the search never reads it)."""
        log = getattr(state, "log", None)
        memo: dict[int, Any] = {} if log is None else {id(log): []}
        return copy.deepcopy(state, memo)

    # --- the moves
    def candidates(self, state: Any, prompt: Prompt) -> list[Any]:
        """The moves the search considers: every choice, and a few values of an amount."""
        out = list(prompt.choices)
        if prompt.amount is not None:
            out.extend(self.amount_actions(prompt, self.amount_values(state, prompt.amount)))
        return out

    @staticmethod
    def amount_values(state: Any, amount: AmountInput) -> list[int]:
        """A few values of an amount: the least and two steps above it (the policy adds its own).

        Bids and loans are made a little at a time, so the low end is where the
        choice lies; a game with other needs overrides this.
        """
        values = amount.values()[:4]  # a slice of a range: never the whole of a long one
        return [v for i, v in enumerate(values) if i in (0, 1, 3)]

    def amount_actions(self, prompt: Prompt, values: Sequence[int]) -> list[Any]:
        assert prompt.amount is not None
        kind, seat = prompt.amount.action_type, prompt.seat
        return [amount_action(self.rules, kind, seat, v) for v in values]

    # --- the playout
    def playout_prompt(self, state: Any) -> Prompt | None:
        """The prompt a playout move is chosen from (a game may list fewer choices here)."""
        return self.rules.prompt(state)

    def policy_bot(self, seat: int, rng: random.Random) -> Any:
        """The fast bot that plays ``seat`` in playouts: the game's greedy bot."""
        bot = self._policies.get(seat)
        if bot is None:
            bot = self.rules.bot_makers()["greedy"](rng.getrandbits(32))
            self._policies[seat] = bot
        return bot

    def policy(self, state: Any, prompt: Prompt, rng: random.Random) -> Any:
        """The move a playout makes: the greedy bot's, sometimes a random candidate."""
        if self.noise and rng.random() < self.noise:
            options = self.candidates(state, prompt)
            if options:
                return options[rng.randrange(len(options))]
        return self.policy_bot(prompt.seat, rng).choose(self.rules, state, prompt)

    # --- where a playout stops
    def horizon(self, root: Any) -> Any:
        """A mark, made once per decision from the root view, of where playouts stop.

        None (the default) stops every playout after ``playout_depth`` actions. A
        game whose evaluation is only consistent at one point of its round (say the
        start of a turn) returns a mark here and answers ``past_horizon``: then every
        candidate move is scored at the same point of the game, however many
        actions it takes to get there (``playout_depth`` still caps the playout).
        """
        return None

    def past_horizon(self, state: Any, mark: Any) -> bool:
        """Whether a playout has reached the ``horizon`` mark."""
        return False

    # --- the score
    def evaluate(self, state: Any) -> list[float]:
        """Each seat's expected final score from ``state`` (the game is not over)."""
        raise NotImplementedError

    def final_scores(self, state: Any) -> list[float]:
        result = self.rules.result(state)
        assert result is not None
        return [float(v) for v in result.scores.values()]

    def rewards(self, scores: Sequence[float], winners: Sequence[int] | None = None) -> list[float]:
        """Per seat, a reward in 0..1 from its margin over the best other seat."""
        n = len(scores)
        out = []
        for i in range(n):
            best_other = max(scores[j] for j in range(n) if j != i)
            margin = (scores[i] - best_other) / self.score_scale
            margin = max(-30.0, min(30.0, margin))
            r = 1.0 / (1.0 + math.exp(-margin))
            if winners is not None:
                # A finished game: the win itself counts most, the margin breaks ties.
                r = 0.75 * (1.0 / len(winners) if i in winners else 0.0) + 0.25 * r
            out.append(r)
        return out


@dataclass
class Node:
    """A decision in the tree: statistics of the moves tried from it."""

    children: dict[Any, Node] = field(default_factory=dict)
    visits: int = 0  # times the move into this node was chosen
    available: int = 0  # times that move was legal when its parent was reached
    totals: list[float] | None = None  # reward sums, per seat
    policy_key: Any = None  # the game's own move here (in the first determinization seen)
    opened: bool = False
    action: Any = None  # the move into this node
    squares: list[float] | None = None  # sums of squared rewards, per seat
    # Sums of each seat's score minus the best other seat's, in the game's points
    # (what the rewards are made from, before the curve flattens a big lead).
    margins: list[float] | None = None


@dataclass
class SearchReport:
    """What the last search did, for the benchmarks and the tests."""

    iterations: int
    seconds: float  # wall-clock time
    cpu: float  # processor time of this process (the same on a busy machine as on an idle one)
    visits: dict[str, int]


class MCTS:
    """The search itself: one ``choose`` per decision, reproducible from its seed."""

    def __init__(self, hooks: SearchHooks, budget: Budget, seed: int = 0) -> None:
        self.hooks = hooks
        self.budget = budget
        self.rng = random.Random(seed)
        self.cancel = threading.Event()
        self.last: SearchReport | None = None
        # The tree of the last decision (None when there was one move only), kept for
        # whoever wants more than the choice: the hint ranks the root's moves by it.
        self.root: Node | None = None
        self._mark: Any = None  # the hooks' horizon for the decision under way

    # A bot is sent to a worker process and back (the host's tables): the stop
    # signal belongs to one process and is made anew in the other; the last tree
    # stays behind (it is large, and only the process that searched reads it).
    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("cancel", "root")}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self.cancel = threading.Event()
        self.root = None

    def choose(self, view: Any, prompt: Prompt) -> Any:
        hooks = self.hooks
        rules = hooks.rules
        seat = prompt.seat
        policy = hooks.policy_bot(seat, self.rng).choose(rules, view, prompt)
        root_moves = _with(hooks.candidates(view, prompt), policy)
        if len(root_moves) == 1:
            self.last = SearchReport(0, 0.0, 0.0, {})
            self.root = None
            return root_moves[0]
        by_key = {action_key(a): a for a in root_moves}
        self._mark = hooks.horizon(view)
        root = Node(opened=True, policy_key=action_key(policy))
        start = time.perf_counter()
        cpu_start = time.process_time()
        deadline = None if self.budget.seconds is None else start + self.budget.seconds
        limit = self.budget.iterations
        # Every iteration draws from its own generator, seeded in order from the
        # bot's: the same seed and iteration count give the same choice.
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if self.cancel.is_set():
                raise Cancelled()
            rng = random.Random(self.rng.getrandbits(64))
            self._iterate(root, view, seat, rng, policy)
            done += 1
        elapsed = time.perf_counter() - start
        visits = {repr(k): c.visits for k, c in root.children.items()}
        self.means = {repr(k): round(_mean(c, seat), 3) for k, c in root.children.items()}
        self.last = SearchReport(done, elapsed, time.process_time() - cpu_start, visits)
        self.root = root
        return by_key[self._decide(root, by_key, seat)]

    def _decide(self, root: Node, by_key: dict[Any, Any], seat: int) -> Any:
        """The move with the best mean reward, unless the game's own move is not clearly worse.

        Leaving the greedy move needs evidence: the better mean must beat it by
        ``hooks.deviation`` standard errors, so a thin search plays like the
        policy and a deep one plays its own mind.
        """
        tried = [k for k, c in root.children.items() if k in by_key and c.visits]
        if not tried:
            return root.policy_key if root.policy_key in by_key else next(iter(by_key))
        floor = max(2, max(root.children[k].visits for k in tried) // 4)
        solid = [k for k in tried if root.children[k].visits >= floor] or tried
        best = max(solid, key=lambda k: (_mean(root.children[k], seat), root.children[k].visits))
        p = root.policy_key
        if best == p or p not in root.children or root.children[p].visits < 2:
            return best
        b, q = root.children[best], root.children[p]
        diff = _mean(b, seat) - _mean(q, seat)
        spread = math.sqrt(_var(b, seat) / b.visits + _var(q, seat) / q.visits)
        return best if diff > self.hooks.deviation * spread else p

    def _iterate(self, root: Node, view: Any, seat: int, rng: random.Random, root_policy: Any) -> None:
        hooks = self.hooks
        rules = hooks.rules
        state = hooks.determinize(view, seat, rng)
        log = EventLog(getattr(state, "log", []), 0)
        node = root
        path: list[Node] = []
        expanded = False
        while not expanded:
            prompt = rules.prompt(state)
            if prompt is None:
                break
            moves = hooks.candidates(state, prompt)
            if node is root:
                # The seat's own move is legal in every determinization (it sees its own lot).
                moves = _with(moves, root_policy)
            elif not node.opened:
                node.opened = True
                policy = hooks.policy_bot(prompt.seat, rng).choose(rules, state, prompt)
                node.policy_key = action_key(policy)
                moves = _with(moves, policy)
            elif node.policy_key is not None and all(action_key(a) != node.policy_key for a in moves):
                known = node.children.get(node.policy_key)
                if known is not None and known.action is not None and rules_allow(rules, state, known.action):
                    moves = [*moves, known.action]
            keyed = [(action_key(a), a) for a in moves]
            untried = [(k, a) for k, a in keyed if k not in node.children]
            if untried:
                # The game's own move is tried first, the rest in random order.
                pick = next((ka for ka in untried if ka[0] == node.policy_key), None)
                if pick is None:
                    pick = untried[rng.randrange(len(untried))]
                key, action = pick
                for k, _ in keyed:
                    child = node.children.get(k)
                    if child is not None:
                        child.available += 1
                child = Node(available=1, action=action)
                node.children[key] = child
                expanded = True
            else:
                key, action = self._select(node, keyed, prompt.seat)
                child = node.children[key]
            rules.execute(state, action, log)
            path.append(child)
            node = child
        scores, winners = self._playout(state, rng)
        rewards = hooks.rewards(scores, winners)
        margins = _margins(scores)
        for n in path:
            n.visits += 1
            if n.totals is None or n.squares is None or n.margins is None:
                n.totals = [0.0] * len(rewards)
                n.squares = [0.0] * len(rewards)
                n.margins = [0.0] * len(rewards)
            for i, r in enumerate(rewards):
                n.totals[i] += r
                n.squares[i] += r * r
                n.margins[i] += margins[i]
        if hasattr(state, "log"):
            state.log.clear()

    def _select(self, node: Node, keyed: list[tuple[Any, Any]], seat: int) -> tuple[Any, Any]:
        hooks = self.hooks
        best: tuple[Any, Any] | None = None
        best_value = -math.inf
        for key, _action in keyed:
            child = node.children[key]
            child.available += 1
        for key, action in keyed:
            child = node.children[key]
            n = child.visits
            mean = _mean(child, seat)
            value = mean + hooks.exploration * math.sqrt(math.log(max(child.available, 1)) / (n + 1))
            if key == node.policy_key:
                value += hooks.policy_bias / (n + 1)
            if value > best_value:
                best, best_value = (key, action), value
        assert best is not None
        return best

    def _playout(self, state: Any, rng: random.Random) -> tuple[list[float], list[int] | None]:
        hooks = self.hooks
        rules = hooks.rules
        log = EventLog(getattr(state, "log", []), 0)
        mark = self._mark
        for _ in range(hooks.playout_depth):
            if mark is not None and hooks.past_horizon(state, mark):
                break
            prompt = hooks.playout_prompt(state)
            if prompt is None:
                break
            rules.execute(state, hooks.policy(state, prompt, rng), log)
            if hasattr(state, "log") and len(state.log) > 200:
                state.log.clear()
        if rules.to_move(state) is None:
            scores = hooks.final_scores(state)
            best = max(scores)
            return scores, [i for i, s in enumerate(scores) if s == best]
        return hooks.evaluate(state), None

    def compare(self, view: Any, seat: int, actions: Sequence[Any], samples: int,
                seed: int = 0) -> list[list[float]]:
        """The seat's margin after each of ``actions`` (its final score minus the best
        other's, in the game's points) in each of ``samples`` determinizations and
        playouts, every move played in the same ones as the others: ``out[i][k]`` is
        move ``i`` in sample ``k``.

        What the tree keeps for a move depends on how often it tried it; this gives
        moves it tried seldom or never (a review's move actually made) estimates that
        compare fairly, the same draws for each. A sample in which some move cannot be
        played (a determinization the view allows but the move does not) is left out
        for all of them, so the lists may be shorter than ``samples``.
        """
        hooks = self.hooks
        rules = hooks.rules
        self._mark = hooks.horizon(view)
        draw = random.Random(seed)
        out: list[list[float]] = [[] for _ in actions]
        for _ in range(samples):
            dealt, played = draw.getrandbits(64), draw.getrandbits(64)
            base = hooks.determinize(view, seat, random.Random(dealt))
            margins: list[float] = []
            for action in actions:
                state = hooks.copy(base)
                try:
                    rules.execute(state, action, EventLog(getattr(state, "log", []), 0))
                except Exception:  # noqa: BLE001 - not playable in this determinization
                    break
                # The playout's bots are made anew from its own seed, so each move
                # meets the same play after it, whatever the moves before drew.
                hooks._policies.clear()
                scores, _ = self._playout(state, random.Random(played))
                margins.append(_margins(scores)[seat])
            if len(margins) == len(actions):
                for kept, margin in zip(out, margins, strict=True):
                    kept.append(margin)
        hooks._policies.clear()  # the tree's own bots are made anew too, from its seed
        return out


def _with(moves: list[Any], policy: Any) -> list[Any]:
    """``moves`` with the policy's move added if the candidates left it out."""
    key = action_key(policy)
    if any(action_key(a) == key for a in moves):
        return moves
    return [*moves, policy]


def rules_allow(rules: Ruleset[Any], state: Any, action: Any) -> bool:
    """Whether ``action`` is legal in ``state`` (for a move seen in another determinization)."""
    try:
        rules.validate(state, action)
    except Exception:  # noqa: BLE001 - any refusal means no
        return False
    return True


def _margins(scores: Sequence[float]) -> list[float]:
    """Each seat's score minus the best of the others'."""
    top = sorted(scores, reverse=True)
    first, second = top[0], top[1] if len(top) > 1 else top[0]
    return [s - (second if s == first else first) for s in scores]


def mean_margin(node: Node, seat: int) -> float:
    """The seat's mean margin over the best other seat in the playouts through ``node``."""
    if not node.visits or node.margins is None:
        return 0.0
    return node.margins[seat] / node.visits


def _var(node: Node, seat: int) -> float:
    n = node.visits
    if n < 2 or node.totals is None or node.squares is None:
        return 0.25
    mean = node.totals[seat] / n
    return max(1e-4, node.squares[seat] / n - mean * mean)


def _mean(node: Node, seat: int) -> float:
    n = node.visits
    if not n or node.totals is None:
        return 0.0
    return node.totals[seat] / n


class SearchBot:
    """A player that searches: ``kind`` is ``search``, ``search:easy`` or ``search:hard``."""

    def __init__(self, hooks_for: Callable[[int], SearchHooks], seed: int = 0, *,
                 strength: str = "normal", budget: Budget | None = None) -> None:
        self.kind = "search" if strength == "normal" else f"search:{strength}"
        self.budget = budget or Budget(seconds=STRENGTHS[strength])
        self.seed = seed
        self.search = MCTS(hooks_for(seed), self.budget, seed)

    @property
    def last(self) -> SearchReport | None:
        return self.search.last

    def stop(self) -> None:
        """Abandon a search under way (from another thread): its ``choose`` raises Cancelled."""
        self.search.cancel.set()

    def resume(self) -> None:
        """Let the next search run (after a ``stop``); called before a think is handed out."""
        self.search.cancel.clear()

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        return self.search.choose(view, prompt)
