"""A tutorial you play: a seeded game against bots where every rule comes up once.

The learner plays one seat; at each of their decisions the tutorial has an
*expected move*, worked out from the position by a policy that seeks the rules
not yet taught: among the legal moves (at most ``TRIED`` of them), one whose
events bring a rule nobody has seen yet, else the greedy bot's choice. That is
how a learner in Railways of the World gets to pass, or to urbanize. The bots
may follow the same policy (``seeking``), so rare rules come up at all.

A rule is *taught* once an event naming it has happened, whoever moved. Which
game (players, the learner's seat, seed, options) is data, ``tutorials.json``,
found by ``benchmarks/tutorial_search.py`` so that on the expected path every
rule of the game is taught and the learner has few moves to make.

A few rules come only after several moves made for them (a hand grown past its
limit over many trades): no single move shows them. For those a tutorial has
*leads*, a rule id and the fields of the moves that work towards it; while the
rule is untaught and no move shows anything new, the seeking seats make such
moves.

Every choice is a function of the position alone (a bot is made afresh for
each decision, seeded by the game's seed and the number of actions played), so
a tutorial resumed from its save goes on exactly as it would have, and after the
learner plays another move the expected moves are simply worked out from there.
Nothing here imports Textual.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from railgames.core.bots import Bot, make_bot
from railgames.core.engine import Game, Prompt, Ruleset
from railgames.core.events import Event, EventLog
from railgames.core.record import PlayerSpec
from railgames.core.rulebook import RuleBook, rulebook
from railgames.core.search import SearchHooks, action_key
from railgames.core.simulate import MAX_ACTIONS, RunawayGame

TUTORIALS_FILE = "tutorials.json"
TRIED = 16  # the most legal moves tried at one decision for a rule not yet taught
AMOUNTS_TRIED = 4  # of them, the values of an amount (lowest, highest and between)
LEARNER_NAME = "Lee"  # the learner's seat: a name, so the log reads as at any table
BOT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


@dataclass(frozen=True)
class TutorialSpec:
    """The seeded game of a tutorial: ``players`` seats, the learner at ``seat``."""

    game: str
    players: int
    seat: int = 0
    seed: int = 1
    kind: str = "greedy"
    seeking: bool = False  # the bots seek untaught rules too
    options: dict[str, Any] = field(default_factory=dict)
    leads: dict[str, dict[str, Any]] = field(default_factory=dict)  # rule -> a move's fields

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "seat": self.seat, "seed": self.seed,
                               "kind": self.kind, "seeking": self.seeking}
        if self.options:
            out["options"] = dict(self.options)
        if self.leads:
            out["leads"] = {k: dict(v) for k, v in self.leads.items()}
        return out

    @classmethod
    def from_spec(cls, game: str, spec: dict[str, Any]) -> TutorialSpec:
        return cls(game, int(spec["players"]), int(spec.get("seat", 0)), int(spec["seed"]),
                   str(spec.get("kind", "greedy")), bool(spec.get("seeking", False)),
                   dict(spec.get("options", {})), dict(spec.get("leads", {})))

    def player_specs(self) -> list[PlayerSpec]:
        names = iter(BOT_NAMES)
        return [PlayerSpec(name=LEARNER_NAME, kind="human") if i == self.seat
                else PlayerSpec(name=next(names), kind=self.kind)  # type: ignore[arg-type]
                for i in range(self.players)]

    def new_game(self, ruleset: Ruleset[Any]) -> Game:
        return Game.new(ruleset, self.player_specs(), self.seed, self.options)

    def matches(self, game: Game) -> bool:
        """Whether ``game`` is this tutorial's game (a saved one may be an older tutorial's)."""
        record = game.record
        return (record.game == self.game and record.seed == self.seed
                and dict(record.options) == dict(self.options)
                and [p.model_dump() for p in record.players]
                == [p.model_dump() for p in self.player_specs()])


def chosen_spec(game_id: str) -> TutorialSpec:
    """The tutorial's game for ``game_id``, as ``benchmarks/tutorial_search.py`` chose it."""
    text = resources.files("railgames.core").joinpath(TUTORIALS_FILE).read_text()
    return TutorialSpec.from_spec(game_id, json.loads(text)[game_id]["spec"])


def has_tutorial(game_id: str) -> bool:
    text = resources.files("railgames.core").joinpath(TUTORIALS_FILE).read_text()
    return game_id in json.loads(text)


# ------------------------------------------------------------------ the policy
def rules_of(events: Iterable[Event]) -> list[str]:
    """The rule ids the events name, each once, in order."""
    return list(dict.fromkeys(r for e in events for r in e.rules))


def taught_in(game: Game) -> set[str]:
    return set(rules_of(game.log))


def probe(ruleset: Ruleset[Any], state: Any, action: Any, deeper: int = 1) -> list[Any]:
    """The rules ``action`` brings into play from ``state`` (played on a copy).

    A move that only opens a choice of the same seat's (urbanize, then which city)
    shows nothing itself: what the choices it opens would show is counted for it,
    ``deeper`` levels down.
    """
    copy = SearchHooks.copy(state)
    events: list[Event] = []
    try:
        ruleset.execute(copy, action, EventLog(events, 0))
    except Exception:  # noqa: BLE001 - not playable as listed: it teaches nothing here
        return []
    if events or deeper <= 0:
        return rules_of(events)
    prompt = ruleset.prompt(copy)
    if prompt is None or prompt.seat != getattr(action, "seat", None):
        return []
    found: list[str] = []
    for then in candidates(ruleset, prompt):  # as many as the choice itself will try
        found.extend(r for r in probe(ruleset, copy, then, deeper - 1) if r not in found)
    return found


def candidates(ruleset: Ruleset[Any], prompt: Prompt, limit: int = TRIED) -> list[Any]:
    """Up to ``limit`` legal moves: the first of each kind (a rare kind, such as
    urbanizing, is tried however long the list), more spread over the list, and a few
    amounts (lowest, highest and between)."""
    out: list[Any] = []
    amount = prompt.amount
    if amount is not None and amount.count > 0:
        values = amount.values()
        picks = sorted({values[0], values[-1], *amount.sample(AMOUNTS_TRIED)})[:AMOUNTS_TRIED]
        out.extend(ruleset.action_adapter.validate_python(
            {"type": amount.action_type, "seat": prompt.seat, "amount": v}) for v in picks)
    choices = prompt.choices
    n = len(choices)
    if n + len(out) <= limit:
        return [*choices, *out]
    kinds: dict[str, Any] = {}
    for action in choices:
        kinds.setdefault(getattr(action, "type", ""), action)
    firsts = list(kinds.values())[:limit]
    room = max(0, limit - len(out) - len(firsts))
    spread = [choices[(i * n) // room] for i in range(room)] if room else []
    keys = {action_key(a) for a in firsts}
    return [*firsts, *(a for a in spread if action_key(a) not in keys), *out]


def bot_for(game: Game, seat: int, kind: str = "greedy") -> Bot:
    """A bot for ``seat`` made for this one decision (its choice depends on the position only)."""
    seed = game.record.seed * 7919 + seat + 104_729 * len(game.record.actions)
    return make_bot(kind, game.ruleset, seed)


@dataclass(frozen=True)
class Expected:
    """The move a tutorial expects, and the rules it brings that nobody has seen yet."""

    action: Any
    new: tuple[str, ...]
    lead: str | None = None  # the rule it works towards (a lead), if that is why it is chosen


def leads_to(action: Any, fields: dict[str, Any]) -> bool:
    values = action if isinstance(action, dict) else action.__dict__
    return all(values.get(k) == v for k, v in fields.items())


def expected_move(game: Game, taught: set[str], wanted: set[str], kind: str = "greedy",
                  leads: dict[str, dict[str, Any]] | None = None) -> Expected:
    """The coverage-seeking choice of the seat to move (see the module's docstring)."""
    prompt = game.prompt()
    assert prompt is not None, "the game is over"
    ruleset, state = game.ruleset, game.state
    greedy = bot_for(game, prompt.seat, kind).choose(ruleset, game.view(prompt.seat), prompt)
    missing = wanted - taught
    if not missing:
        return Expected(greedy, ())
    # What a move shows itself comes first; what the choice a move opens would show (see
    # ``probe``) only where no move shows anything: a move that goes back to an earlier
    # choice (cancel) is never preferred to what that choice itself offers.
    tried = [greedy, *(a for a in candidates(ruleset, prompt)
                       if action_key(a) != action_key(greedy))]
    for deeper in (0, 1):
        best: Expected | None = None
        for action in tried:
            new = tuple(r for r in probe(ruleset, state, action, deeper) if r in missing)
            if new and (best is None or len(new) > len(best.new)):
                best = Expected(action, new)
            if best is not None and action is greedy:
                return best  # the bot's own choice, where it shows something new
        if best is not None:
            return best
    actions = game.record.actions
    last = next((a for a in reversed(actions) if a.get("seat") == prompt.seat), None)
    for rule, fields in (leads or {}).items():
        # A lead is followed one move at a time: bid once, then the game goes on (drop out).
        if rule in missing and not (last is not None and leads_to(last, fields)):
            lead = next((a for a in [*prompt.choices, *candidates(ruleset, prompt)]
                         if leads_to(a, fields)), None)
            if lead is not None:
                return Expected(lead, (), rule)
    return Expected(greedy, ())


# ------------------------------------------------------------------ the expected path
@dataclass
class Path:
    """The tutorial played along its expected path."""

    spec: TutorialSpec
    game: Game
    learner_moves: int
    taught: list[str]  # in the order they came up
    missing: list[str]

    @property
    def actions(self) -> int:
        return len(self.game.record.actions)


def step(game: Game, spec: TutorialSpec, taught: set[str], wanted: set[str]) -> tuple[bool, list[Event]]:
    """Play the next decision along the expected path; whether it was the learner's, and
    its events."""
    prompt = game.prompt()
    assert prompt is not None
    if prompt.seat == spec.seat or spec.seeking:
        action = expected_move(game, taught, wanted, spec.kind, spec.leads).action
    else:
        action = bot_for(game, prompt.seat, spec.kind).choose(
            game.ruleset, game.view(prompt.seat), prompt)
    return prompt.seat == spec.seat, game.apply(action)


def play_path(ruleset: Ruleset[Any], spec: TutorialSpec, max_learner_moves: int | None = None) -> Path:
    """Play the tutorial to its end along the expected path (or stop once the learner has
    made more than ``max_learner_moves``)."""
    wanted = {r.id for r in rulebook(ruleset)}
    game = spec.new_game(ruleset)
    order = rules_of(game.log)
    taught = set(order)
    moves = 0
    while not game.is_over():
        if len(game.record.actions) >= MAX_ACTIONS:
            raise RunawayGame(f"seed {spec.seed}: no end after {MAX_ACTIONS} actions")
        if max_learner_moves is not None and moves > max_learner_moves:
            break
        learner, events = step(game, spec, taught, wanted)
        moves += learner
        for rule in rules_of(events):
            if rule not in taught:
                taught.add(rule)
                order.append(rule)
    return Path(spec, game, moves, order, sorted(wanted - taught))


# ------------------------------------------------------------------ the words
def rule_line(book: RuleBook, rule_id: str) -> str:
    """'Title: what it says' in a line."""
    rule = book.get(rule_id)
    if rule is None:
        return rule_id
    return f"{rule.title}: {rule.short}"


IRREGULAR = {"is": "are", "has": "have", "does": "do", "goes": "go"}


def imperative(line: str, name: str = LEARNER_NAME) -> str:
    """A log line of the learner's move as what to do: 'You puts a share up' -> 'put a
    share up'. Any other line is left as it is."""
    head, _, rest = line.partition(" ")
    if head != name or not rest:
        return line
    verb, _, tail = rest.partition(" ")
    if " and " in tail:  # 'returns a red one and takes two': both verbs
        before, _, after = tail.partition(" and ")
        second, _, end = after.partition(" ")
        if second.endswith("s"):
            tail = f"{before} and {base_form(second)} {end}".strip()
    return f"{base_form(verb)} {tail}".strip()


def base_form(verb: str) -> str:
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def lead_refusal(book: RuleBook, rule: str) -> str:
    """Why another move is taken back where the expected one works towards ``rule``."""
    title = book[rule].title if rule in book else rule
    return (f"not this one yet: the highlighted move works towards {title}, a rule still to "
            "come (Enter takes it)")


def refusal(book: RuleBook, new: Sequence[str]) -> str:
    """Why another move is taken back: the expected one teaches ``new`` now."""
    titles = ", ".join(book[r].title if r in book else r for r in new[:2])
    return (f"not this one yet: the highlighted move shows {titles} now (Enter takes it); "
            "you are free to choose once it has come up")
