"""The rules engine: one place that decides legality, for every game.

A game plugs in a ``Ruleset``; ``Game`` wraps a record and the state its
actions produce. Every action goes through ``Game.apply``: it is parsed (or
refused as malformed), checked against the rules (or refused as illegal, with a
reason), and only then carried out and appended to the record. A refused action
leaves state and record exactly as they were.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, TypeVar

from annotated_types import Ge
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from railgames.compat import custom_serializers, model_without_validation, plain_model
from railgames.core.action_schema import ActionAdapter
from railgames.core.errors import IllegalAction, MalformedAction, RecordError, ReplayError
from railgames.core.events import SETUP, Event, EventLog
from railgames.core.maps import BaseMap, map_digest
from railgames.core.record import (
    GameRecord,
    PlayerSpec,
    action_problem,
    describe_validation_error,
)
from railgames.core.rng import Chance

_REQUIRED = object()
_TRUSTED_FIELDS: dict[type, tuple[tuple[str, ...], tuple[Any, ...]] | None] = {}


class Action(BaseModel):
    """Base of every action: small, frozen, naming the acting seat, ids only."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    type: str
    seat: int = Field(ge=0)

    @classmethod
    def trusted(cls, **values: Any) -> Any:
        """The action made from values the rules have just found legal, unchecked.

        The same object ``model_construct`` gives (fields in declared order, the
        given ones counted as set) at a fraction of its cost: prompts list every
        legal choice on every step, for players, bots and searches alike.
        Anything from outside the rules goes through ``parse_action`` instead.
        """
        fields = (_TRUSTED_FIELDS[cls] if cls in _TRUSTED_FIELDS else _trusted_fields(cls))
        if fields is None:  # aliases or default factories: let pydantic work it out
            return cls.model_construct(**values)
        names, defaults = fields
        if tuple(values) == names:  # every field, in declared order: the usual call
            data = values
            given: set[str] = set(values)
        else:
            data = {}
            for name, default in zip(names, defaults, strict=True):
                value = values.get(name, _REQUIRED)
                if value is not _REQUIRED:
                    data[name] = value
                elif default is not _REQUIRED:
                    data[name] = default
            given = {k for k in values if k in data}
        return model_without_validation(cls, data, given)


def _trusted_fields(cls: type[Action]) -> tuple[tuple[str, ...], tuple[Any, ...]] | None:
    """The names of the fields of ``cls`` and their defaults (or _REQUIRED), or None
    where the quick construction of ``Action.trusted`` would not match ``model_construct``."""
    names: list[str] = []
    defaults: list[Any] = []
    plain = plain_model(cls)
    for name, info in cls.model_fields.items():
        if info.alias is not None or info.validation_alias is not None \
                or info.default_factory is not None:
            plain = False
        names.append(name)
        defaults.append(_REQUIRED if info.is_required() else info.default)
    fields = (tuple(names), tuple(defaults)) if plain else None
    _TRUSTED_FIELDS[cls] = fields
    return fields


class Interned:
    """The trusted actions of one class, kept by their fields: the same legal move
    listed again (on the next step, in another copy of the state) is the same
    object, found in a dictionary instead of made again.

    ``make(seat, *rest)`` takes the fields after ``type`` in declared order; they
    must be hashable. Actions are frozen, so prompts and states may share them.
    At most ``limit`` are kept; past that the store starts afresh.
    """

    __slots__ = ("_cls", "_names", "_type", "_made", "_limit")

    def __init__(self, cls: type[Action], limit: int = 20_000) -> None:
        names = tuple(cls.model_fields)
        assert names[0] == "type", f"{cls.__name__}: 'type' must come first"
        self._cls = cls
        self._names = names
        self._type = cls.model_fields["type"].default
        self._made: dict[tuple[Any, ...], Any] = {}
        self._limit = limit

    def make(self, *fields: Any) -> Any:
        action = self._made.get(fields)
        if action is None:
            if len(self._made) >= self._limit:
                self._made.clear()
            values = dict(zip(self._names, (self._type, *fields), strict=True))
            action = self._made[fields] = self._cls.trusted(**values)
        return action

    def made(self, action: Any) -> bool:
        """Whether ``action`` is this very store's (so made from values the rules chose:
        well-formed without checking it again)."""
        try:
            return self._made.get(tuple(action.__dict__.values())[1:]) is action
        except TypeError:  # a field that cannot be a key: none of ours
            return False


class Choices(Sequence[Any]):
    """A prompt's legal choices, worked out only as far as they are asked for.

    Reads as the list it stands for (the same actions, in the same order): its
    length and any one item are found without making the others, which a bot
    picking one of hundreds of tiles needs, and the whole list is made once,
    when it is first walked through. ``holds`` answers whether an action is one
    of the choices, the object itself, also without listing them. Never
    changes once made; pickled, it is the plain list.

    A game subclasses it with ``__len__``, ``_item`` (one choice by its index,
    0 <= index < len) and ``_listed`` (the whole list, in order), and may give
    a quicker ``holds``.
    """

    __slots__ = ("_all",)
    _all: list[Any]

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def _item(self, index: int) -> Any: ...

    @abstractmethod
    def _listed(self) -> list[Any]: ...

    def as_list(self) -> list[Any]:
        """Every choice, in order (made once and kept: a caller must not change it)."""
        try:
            return self._all
        except AttributeError:
            every = self._all = self._listed()
            return every

    def __getitem__(self, index: Any) -> Any:
        if type(index) is int:
            n = len(self)
            if index < 0:
                index += n
            if not 0 <= index < n:
                raise IndexError("choice index out of range")
            return self._item(index)
        return self.as_list()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.as_list())

    def __contains__(self, action: object) -> bool:
        return action in self.as_list()

    def holds(self, action: Any) -> bool:
        """Whether ``action`` is one of the choices: that very object, not an equal one."""
        return any(choice is action for choice in self.as_list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Choices):
            return self.as_list() == other.as_list()
        if isinstance(other, list):
            return self.as_list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.as_list())

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (self.as_list(),))


class _Made(dict[tuple[Any, ...], Any]):
    """The actions ``Ruleset.made`` keeps: worked out again at need, so pickled rules
    leave them behind."""

    def __reduce__(self) -> tuple[type[_Made], tuple[()]]:
        return (_Made, ())


A = TypeVar("A", bound=Action)
# The most actions ``Ruleset.made`` keeps (past that it starts afresh).
MADE_KEPT = 10_000

# The most values of an amount ``Ruleset.legal_actions`` lists.
LEGAL_AMOUNTS = 1000


# Prompts, amounts and results are made by the rules on every step and never come
# from outside, so they are plain data: a pydantic model would check them again.
@dataclass(frozen=True, kw_only=True)
class AmountInput:
    """An expected number, rather than a list: a bid, a loan.

    The legal values are ``min`` to ``max`` in steps of ``step``, and the rules
    refuse any other. Every amount has an upper end, so that every action a game
    takes is one its saved game can hold (see ``OpenAmount`` where the rulebook
    sets none). A range may still be far too long to list, say a bid up to a
    fortune: nothing walks ``values`` whole, and ``sample`` lists a few.
    """

    action_type: str
    label: str
    min: int
    max: int
    step: int = 1
    default: int | None = None
    # What is counted: "$" for money (shown before the number), else a plural word
    # shown after it, such as "cubes".
    unit: str = "$"

    def values(self) -> range:
        """The values offered to choose from (the random bot's pick, the search's
        candidates): here every legal one. A range is made at once however long it
        is, and indexed and sliced as quickly; never list it whole."""
        return range(self.min, self.max + 1, self.step)

    @property
    def count(self) -> int:
        """How many values ``values`` offers (0 when none is legal). ``len`` of a range
        fails past 2**63 values; this does not."""
        offered = self.values()
        return max(0, (offered.stop - offered.start + offered.step - 1) // offered.step)

    def sample(self, limit: int) -> list[int]:
        """At most ``limit`` (2 or more) of the values offered, for a list a person or a
        test reads: all of them when there are no more, else the first ``limit - 1``
        and the last."""
        offered = self.values()
        if self.count <= limit:
            return list(offered)
        return [*offered[:limit - 1], offered[-1]]


@dataclass(frozen=True, kw_only=True)
class OpenAmount(AmountInput):
    """An amount the rulebook sets no upper end to, such as New England's Bank Loans.

    ``max`` is the far bound a ruling gives it (see the game's rulings), beyond any
    game played to win, and only the low end is offered to choose from: the first
    ``OPEN_LISTED`` values. Any other up to ``max`` is just as legal when typed (the
    game screen shows the amount as open: "≥$0").
    """

    OPEN_LISTED: ClassVar[int] = 11

    def values(self) -> range:
        top = min(self.max, self.min + (self.OPEN_LISTED - 1) * self.step)
        return range(self.min, top + 1, self.step)


_NO_CHOICES: Any = object()


@dataclass(frozen=True, kw_only=True, init=False)
class Prompt:
    """What the rules ask of the seat to move, and every legal answer.

    ``choices`` lists concrete legal actions; ``amount`` describes a range of
    legal numbers for one action type (all of which are legal). Either may be
    empty, not both. A list of choices, or a ``Choices`` (a list made only as
    far as it is read), is kept as given (the rules make a new one for each
    prompt; its actions may be shared, being frozen); any other sequence is
    copied into a list.
    """

    seat: int
    step: str
    text: str
    choices: list[Any] | Choices = field(default_factory=list)
    amount: AmountInput | None = None
    help: str = ""

    # The dataclass's own ``__init__`` sets each field through ``object.__setattr__``
    # (it is frozen); this one fills them in at once: the rules make a prompt on every step.
    def __init__(self, *, seat: int, step: str, text: str, choices: Any = _NO_CHOICES,
                 amount: AmountInput | None = None, help: str = "") -> None:
        if choices is _NO_CHOICES:
            choices = []
        elif type(choices) is not list and not isinstance(choices, Choices):
            choices = list(choices)
        self.__dict__.update(seat=seat, step=step, text=text, choices=choices, amount=amount,
                             help=help)


_PROMPT_FIELDS = ("seat", "step", "text", "choices", "amount", "help")
assert tuple(f.name for f in fields(Prompt)) == _PROMPT_FIELDS, "Prompt.__init__ sets every field"


@dataclass(frozen=True, kw_only=True)
class Result:
    scores: dict[str, int]
    winners: list[str]
    # Per player, the parts that add up to the score, for the game-over screen.
    breakdown: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def from_breakdown(cls, breakdown: dict[str, dict[str, int]]) -> Result:
        """Scores are each player's ``total``; the highest wins and ties share the win."""
        scores = {name: parts["total"] for name, parts in breakdown.items()}
        best = max(scores.values())
        return cls(scores=scores, winners=[n for n, v in scores.items() if v == best],
                   breakdown=breakdown)

    def summary(self, unit: str = "") -> str:
        """'Game over. Ann $40, Bob $35. Winner: Ann.' for the event log."""
        scores = ", ".join(f"{name} {unit}{score}" for name, score in self.scores.items())
        return f"Game over. {scores}. Winner: {' and '.join(self.winners)}."


S = TypeVar("S")


class Ruleset(ABC, Generic[S]):
    """A game's rules. Implementations never import Textual."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_map: ClassVar[str]
    pitch: ClassVar[str] = ""
    play_time: ClassVar[str] = ""
    # True when players keep secrets from each other (cards, shares behind a screen):
    # the app then shows only ``view(state, seat)`` of the seat at the keyboard, and a
    # hand-off screen between human seats that cannot be turned off.
    hidden_information: ClassVar[bool] = False
    # Set-up options the game offers (record.options keys, all true/false), with a label
    # for the setup screen.
    option_labels: ClassVar[dict[str, str]] = {}
    # The edition of these rules: raised by one whenever a rule changes what a record
    # replays to. A record names the edition it was played under (``rules_edition``)
    # and the rules keep each earlier edition's behaviour for it, so an old save
    # replays as it was played. Each change is written in docs/rulings/<game>.md.
    edition: ClassVar[int] = 1
    # The actions by which a seat passes, as the rulebook lets a player pass (its "seat"
    # is added): at a turn-based table whose timeouts skip, the first of them the rules
    # allow at that moment is played for a seat whose time ran out. Empty: no pass.
    passes: ClassVar[tuple[Mapping[str, Any], ...]] = ()
    map_model: ClassVar[type[BaseMap]]
    # The game's union of actions (core/action_schema.py, or a pydantic TypeAdapter).
    action_adapter: ClassVar[ActionAdapter | TypeAdapter[Any]]

    def __init__(self, game_map: BaseMap) -> None:
        self.map = game_map
        self._made = _Made()

    def made(self, cls: type[A], **fields: Any) -> A:
        """``cls(**fields)``, made once for each class and values: the few actions a
        prompt lists again on every step (pass, end, one per company), checked as they
        are made and then shared (actions are frozen). One class is always given its
        fields in the same order. At most ``MADE_KEPT`` are kept."""
        key = (cls, *fields.values())
        made = self._made
        action = made.get(key)
        if action is None:
            if len(made) >= MADE_KEPT:
                made.clear()
            action = made[key] = cls(**fields)
        return action

    def edition_of(self, record: GameRecord) -> int:
        """The edition of these rules ``record`` is played under (the current one if it names none)."""
        return self.edition if record.rules_edition is None else record.rules_edition

    def edition_problem(self, record: GameRecord) -> str | None:
        """Why these rules cannot replay ``record`` (an edition they do not know yet), or None."""
        edition = self.edition_of(record)
        if edition > self.edition:
            return (f"this game was played under edition {edition} of the {self.title} rules, "
                    f"from a newer railgames; this version knows editions 1 to {self.edition}")
        return None

    # --- set-up and flow
    @abstractmethod
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> S: ...

    @abstractmethod
    def prompt(self, state: S) -> Prompt | None:
        """What the seat to move must decide; None once the game is over."""

    @abstractmethod
    def validate(self, state: S, action: Any) -> None:
        """Raise IllegalAction with a player-facing reason; never mutate."""

    @abstractmethod
    def execute(self, state: S, action: Any, log: EventLog) -> None:
        """Carry out a validated action, then run automatic steps up to the next decision."""

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    def check_references(self, action: Any) -> None:
        """Raise MalformedAction if the action names ids this game does not have.

        Called before any rule is consulted, so an unknown link or city is
        malformed input whatever the moment, never "not your turn".
        """

    def to_move(self, state: S) -> int | None:
        """The seat that must act now (None once the game is over).

        Games override this with a cheap lookup; the default asks for the prompt.
        """
        prompt = self.prompt(state)
        return None if prompt is None else prompt.seat

    def pass_action(self, state: S, seat: int) -> Any | None:
        """The pass ``seat`` may make now: the first of ``passes`` among the prompt's legal
        answers (None: it is not ``seat``'s move, or no pass is legal at this moment)."""
        prompt = self.prompt(state) if self.passes else None
        if prompt is None or prompt.seat != seat:
            return None
        for form in self.passes:
            try:
                action = self.parse_action({**form, "seat": seat})
            except MalformedAction:
                continue
            if action in prompt.choices:
                return action
        return None

    def bot_makers(self) -> Mapping[str, Callable[[int], Any]]:
        """The bots this game offers besides the kernel's random one: kind -> maker(seed).

        Each game names its own bots here, so the kernel never imports a game.
        """
        return {}

    def view(self, state: S, seat: int | None) -> S:
        """What a seat may see. Fully public games return the state itself."""
        return state

    def log_of(self, state: S) -> list[Event]:
        return state.log  # type: ignore[attr-defined,no-any-return]

    def turn_of(self, state: S) -> int:
        return int(getattr(state, "turn", 0))

    # --- shared by every game
    def legal_actions(self, state: S) -> list[Any]:
        """The prompt's choices, then its amount's values: every one where there are at
        most ``LEGAL_AMOUNTS``, else that many of them (``AmountInput.sample``)."""
        prompt = self.prompt(state)
        if prompt is None:
            return []
        actions = list(prompt.choices)
        if prompt.amount is not None:
            kind, seat = prompt.amount.action_type, prompt.seat
            actions.extend(amount_action(self, kind, seat, v)
                           for v in prompt.amount.sample(LEGAL_AMOUNTS))
        return actions

    def parse_action(self, raw: Mapping[str, Any] | Action, *, recorded: bool = False) -> Any:
        """An action built in Python is taken as it is; a mapping (from a file, a
        message, a person) is read strictly, with JSON's types as written: ``true``
        is no seat and ``"5"`` or ``5.0`` no amount.

        ``recorded``: the mapping is a record's, which must also hold each field
        exactly as the action reads it, so what is stored is what was played.
        """
        if isinstance(raw, Action):
            try:
                return self.action_adapter.validate_python(raw.model_dump())
            except ValidationError as exc:
                raise MalformedAction(f"not a {self.title} action: {describe_validation_error(exc)}") from None
        # Held to a saved game's limits first: no number, text or nesting it could not
        # read back gets as far as being played (or as far as json, which recurses).
        problem = action_problem(raw)
        if problem is not None:
            raise MalformedAction(f"not a {self.title} action a saved game can hold: {problem}")
        try:
            text = json.dumps(raw, allow_nan=False)
        except (TypeError, ValueError):
            raise MalformedAction(f"not a {self.title} action: it holds values JSON cannot carry") from None
        try:
            action = self.action_adapter.validate_json(text, strict=True)
        except ValidationError as exc:
            raise MalformedAction(f"not a {self.title} action: {describe_validation_error(exc)}") from None
        if recorded:
            stored = _json_form(action)
            for key, value in raw.items():
                if _same_json(stored.get(key), value):
                    continue
                if json.dumps(stored.get(key), sort_keys=True) != json.dumps(value, sort_keys=True):
                    raise MalformedAction(f"not a {self.title} action as stored: field '{key}' "
                                          f"reads as {json.dumps(stored.get(key))}, "
                                          f"not {json.dumps(value)[:40]}")
        return action


def _same_json(a: Any, b: Any) -> bool:
    """True only when ``a`` and ``b`` are written alike as JSON (a quick test: False
    may still be alike, and the caller then compares the JSON text itself).

    Replay checks every field of every stored action this way, so it must be cheap.
    """
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is str or kind is int or kind is bool or a is None:
        return bool(a == b)
    if kind is list:
        return len(a) == len(b) and all(map(_same_json, a, b))
    if kind is dict:
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return False


R = TypeVar("R", bound=Ruleset[Any])

# The longest list of choices ``Game.apply`` looks through for the very action it is
# given (a longer one is kept by the prompt only at a cost; its choices are checked).
LISTED_LOOKUP = 64

# The record's form (``model_dump(mode="json")``) of listed actions applied before, by
# id, each kept with its action (so the id still names it): the rules list the same
# action objects again and again (see ``Interned``): passing, choosing, ending a turn.
# Only flat forms are kept (no lists in them: those of the many tiles and routes are
# made afresh), few enough not to burden the garbage collector; started afresh past
# the limit.
_RECORD_FORMS: dict[int, tuple[Any, dict[str, Any]]] = {}
_RECORD_FORMS_LIMIT = 2_000

# Action class -> its field names, when its JSON form is its fields as they are
# (see ``_plain_form``); None when pydantic must work it out.
_PLAIN_FIELDS: dict[type, tuple[str, ...] | None] = {}
_SCALARS = (str, int, bool, type(None))


def _plain_fields(cls: type[Action]) -> tuple[str, ...] | None:
    plain = not (custom_serializers(cls) or cls.model_config.get("extra") == "allow")
    for info in cls.model_fields.values():
        if info.alias is not None or info.serialization_alias is not None or info.exclude:
            plain = False
    names = tuple(cls.model_fields) if plain else None
    _PLAIN_FIELDS[cls] = names
    return names


def _plain_form(action: Any) -> dict[str, Any] | None:
    """``action.model_dump(mode="json")`` made from its fields without pydantic, where
    each is a str, int, bool or None, or a tuple or list of those (a new list in
    JSON), and its class serializes them no other way; else None."""
    cls = type(action)
    names = _PLAIN_FIELDS[cls] if cls in _PLAIN_FIELDS else _plain_fields(cls)
    values = action.__dict__
    if names is None or tuple(values) != names:
        return None
    form: dict[str, Any] = {}
    for name, value in values.items():
        kind = type(value)
        if kind is tuple or kind is list:
            for item in value:
                if type(item) not in _SCALARS:
                    return None
            value = list(value)
        elif kind not in _SCALARS:
            return None
        form[name] = value
    return form


def _json_form(action: Any) -> dict[str, Any]:
    """``action.model_dump(mode="json")``, from its fields where they are flat (which
    also spares a replay pydantic's serializer of each kind of action)."""
    form = _plain_form(action)
    return action.model_dump(mode="json") if form is None else form  # type: ignore[no-any-return]


def _record_form(action: Any) -> dict[str, Any]:
    """``action.model_dump(mode="json")`` of a listed action, a new dict each time as
    ``model_dump`` gives, worked out once for a flat one."""
    known = _RECORD_FORMS.get(id(action))
    if known is not None and known[0] is action:
        return known[1].copy()
    plain = _plain_form(action)
    form: dict[str, Any] = action.model_dump(mode="json") if plain is None else plain
    for value in form.values():
        if type(value) is list or type(value) is dict:
            return form
    if len(_RECORD_FORMS) >= _RECORD_FORMS_LIMIT:
        _RECORD_FORMS.clear()
    _RECORD_FORMS[id(action)] = (action, form)
    return form.copy()


_AMOUNT_FIELDS = ("type", "seat", "amount")
# (the rules' action adapter, an amount's action type) -> the adapter, and the action
# class the type reads as, the least amount it allows and the store of those made by
# ``amount_action``, where that class has just the fields of an amount (type, seat,
# amount), written as they are, and no other limit on them; else None.
_AMOUNT_CLASSES: dict[tuple[int, str], tuple[Any, tuple[type, int, Interned] | None]] = {}


def _amount_class(ruleset: Ruleset[Any], action_type: str) -> tuple[type, int, Interned] | None:
    adapter = ruleset.action_adapter
    known = _AMOUNT_CLASSES.get((id(adapter), action_type))
    if known is not None and known[0] is adapter:
        return known[1]
    found: tuple[type, int, Interned] | None = None
    try:
        cls = type(adapter.validate_python({"type": action_type, "seat": 0, "amount": 1}))
    except ValidationError:
        cls = None
    if cls is not None and tuple(cls.model_fields) == _AMOUNT_FIELDS \
            and _plain_fields(cls) == _AMOUNT_FIELDS:
        limits = cls.model_fields["amount"].metadata
        if len(limits) == 1 and type(limits[0]) is Ge and type(limits[0].ge) is int:
            found = (cls, limits[0].ge, Interned(cls))
    _AMOUNT_CLASSES[(id(adapter), action_type)] = (adapter, found)
    return found


def amount_action(ruleset: Ruleset[Any], action_type: str, seat: int, value: int) -> Any:
    """The action of an amount (``{"type": action_type, "seat": seat, "amount": value}``
    as ``ruleset.action_adapter.validate_python`` reads it), made without checking it
    again where its class has just those fields and ``value`` is an int within its limit:
    bots and searches make one at every bid."""
    known = _amount_class(ruleset, action_type)
    if known is not None and type(value) is int and type(seat) is int and seat >= 0 \
            and value >= known[1]:
        return known[2].make(seat, value)
    return ruleset.action_adapter.validate_python(
        {"type": action_type, "seat": seat, "amount": value})


class Game:
    """A game in progress: its record, its state, and its rules."""

    def __init__(self, ruleset: Ruleset[Any], record: GameRecord, state: Any) -> None:
        self.ruleset = ruleset
        self.record = record
        self.state = state
        # The last prompt given out: (the state, the record's length, the seat, its choices).
        # While neither has moved on, one of those choices (the very object the rules
        # made) is legal as it stands, so applying it skips checking it again.
        self._prompted: tuple[Any, int, int, tuple[Any, ...] | Choices] | None = None
        # The last prompt's amount, likewise: (the state, the record's length, the seat,
        # the amount). Any value in its range is legal as it stands (see ``AmountInput``).
        self._amount: tuple[Any, int, int, AmountInput] | None = None

    # --- creation
    @classmethod
    def new(
        cls,
        ruleset: Ruleset[Any],
        players: Sequence[PlayerSpec],
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> Game:
        problem = cls.players_problem(ruleset, players)
        if problem:
            raise IllegalAction(problem)
        record = GameRecord(
            game=ruleset.id,
            map=ruleset.map.id,
            map_digest=map_digest(ruleset.map),
            rules_edition=ruleset.edition,
            options=dict(options or {}),
            players=list(players),
            seed=seed,
        )
        return cls(ruleset, record, cls._initial_state(ruleset, record))

    @staticmethod
    def players_problem(ruleset: Ruleset[Any], players: Sequence[PlayerSpec]) -> str | None:
        """Why these seats cannot play this game, or None."""
        n = len(players)
        if not ruleset.min_players <= n <= ruleset.max_players:
            return f"{ruleset.title} is for {ruleset.min_players} to {ruleset.max_players} players, not {n}"
        names = [p.name for p in players]
        if len(set(names)) != len(names):
            return "each player needs a different name"
        return None

    @staticmethod
    def _initial_state(ruleset: Ruleset[Any], record: GameRecord) -> Any:
        chance = Chance(record.seed)
        log: list[Event] = []
        state = ruleset.setup(record, chance, EventLog(log, SETUP))
        # The state owns its log from here on; set-up events come first in it.
        ruleset.log_of(state)[:0] = log
        return state

    @classmethod
    def replay(cls, ruleset: Ruleset[Any], record: GameRecord, upto: int | None = None) -> Game:
        """Rebuild a game from its record, checking every action on the way."""
        problem = cls.players_problem(ruleset, record.players)
        if problem:
            raise RecordError(f"the record's players do not fit: {problem}")
        if record.map != ruleset.map.id:
            raise RecordError(f"the record is for the map '{record.map}', not '{ruleset.map.id}'")
        if record.map_digest is not None and record.map_digest != map_digest(ruleset.map):
            raise RecordError(f"the record was played on version {record.map_digest} of the map "
                              f"'{record.map}', not on version {map_digest(ruleset.map)}")
        problem = ruleset.edition_problem(record)
        if problem:
            raise RecordError(problem)
        actions = record.actions if upto is None else record.actions[:upto]
        # A record naming no edition is played under the current one, and says so from now on.
        header = record.model_copy(update={"actions": [],
                                           "rules_edition": ruleset.edition_of(record)})
        game = cls(ruleset, header, cls._initial_state(ruleset, header))
        for index, raw in enumerate(actions):
            kind = str(raw.get("type", "?")) if isinstance(raw, dict) else "?"
            seat = raw.get("seat") if isinstance(raw, dict) else None
            player = (
                record.players[seat].name
                if type(seat) is int and 0 <= seat < len(record.players)
                else f"seat {seat}"
            )
            try:
                game.apply(raw, recorded=True)
            except (IllegalAction, MalformedAction) as exc:
                raise ReplayError(index, kind, player, exc.reason) from None
        game.record.created = record.created
        game.record.updated = record.updated
        return game

    # --- queries
    @property
    def players(self) -> list[PlayerSpec]:
        return self.record.players

    def prompt(self) -> Prompt | None:
        prompt = self.ruleset.prompt(self.state)
        if prompt is None:
            self._prompted = self._amount = None
            return None
        self._amount = None if prompt.amount is None else (
            self.state, len(self.record.actions), prompt.seat, prompt.amount)
        choices = prompt.choices
        if type(choices) is not list and isinstance(choices, Choices):  # never changes: kept
            self._prompted = (self.state, len(self.record.actions), prompt.seat, choices)
        else:
            self._prompted = None if len(choices) > LISTED_LOOKUP else (
                self.state, len(self.record.actions), prompt.seat, tuple(choices))
        return prompt

    def _listed(self, raw: Any) -> bool:
        """Whether ``raw`` is one of the choices of the prompt last given for this very
        state, the object itself: anything else (a dict, a copy, an action made
        elsewhere, a state changed since) is parsed and checked in full."""
        prompted = self._prompted
        if prompted is None or prompted[0] is not self.state \
                or prompted[1] != len(self.record.actions):
            return False
        choices = prompted[3]
        if type(choices) is tuple:
            for choice in choices:
                if choice is raw:
                    return bool(raw.seat == prompted[2])
            return False
        return choices.holds(raw) and bool(raw.seat == prompted[2])  # type: ignore[union-attr]

    def _in_amount(self, raw: Any) -> dict[str, Any] | None:
        """The record's form of ``raw`` when it is the action of the amount of the prompt
        last given for this very state, made by ``amount_action`` (the object itself, as
        a listed choice is), for the seat to move, with a value in its range (so legal as
        it stands: see ``AmountInput``); else None, and it is parsed and checked in full."""
        asked = self._amount
        if asked is None or asked[0] is not self.state or asked[1] != len(self.record.actions):
            return None
        amount = asked[3]
        known = _amount_class(self.ruleset, amount.action_type)
        if known is None or type(raw) is not known[0] or not known[2].made(raw):
            return None
        fields = raw.__dict__
        if tuple(fields) != _AMOUNT_FIELDS or fields["type"] != amount.action_type:
            return None
        seat, value = fields["seat"], fields["amount"]
        if type(seat) is not int or seat != asked[2] or type(value) is not int \
                or not max(amount.min, known[1]) <= value <= amount.max \
                or (value - amount.min) % amount.step:
            return None
        return {"type": amount.action_type, "seat": seat, "amount": value}

    def legal_actions(self) -> list[Any]:
        return self.ruleset.legal_actions(self.state)

    def is_over(self) -> bool:
        return self.ruleset.to_move(self.state) is None

    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    def view(self, seat: int | None) -> Any:
        return self.ruleset.view(self.state, seat)

    @property
    def log(self) -> list[Event]:
        return self.ruleset.log_of(self.state)

    def events_for(self, seat: int | None) -> list[Event]:
        return [e for e in self.log if e.visible(seat)]

    def check(self, raw: Mapping[str, Any] | Action, *, recorded: bool = False) -> Any:
        """Parse and validate without applying; returns the parsed action."""
        return self._checked(raw, recorded)[0]

    def _checked(self, raw: Mapping[str, Any] | Action, recorded: bool) -> tuple[Any, dict[str, Any]]:
        """The parsed and validated action, and the form the record keeps of it: one a
        saved game can hold, or the action is refused as malformed. Data is held to
        those limits as it comes (``parse_action``), and what it reads as is held to
        them here: a record's action reads as it is written, so it is not again."""
        action = self.ruleset.parse_action(raw, recorded=recorded)
        form = _json_form(action)
        problem = None if recorded and not isinstance(raw, Action) else action_problem(form)
        if problem is not None:
            raise MalformedAction(f"not a {self.ruleset.title} action a saved game can hold: "
                                  f"{problem}")
        self.ruleset.check_references(action)
        seat = self.ruleset.to_move(self.state)
        if seat is None:
            raise IllegalAction("the game is over")
        if action.seat >= len(self.players):
            raise MalformedAction(f"there is no seat {action.seat} in this game")
        if action.seat != seat:
            raise IllegalAction(
                f"it is {self.players[seat].name}'s turn, not {self.players[action.seat].name}'s"
            )
        self.ruleset.validate(self.state, action)
        return action, form

    # --- the one way state changes
    def apply(self, raw: Mapping[str, Any] | Action, *, recorded: bool = False) -> list[Event]:
        listed = self._listed(raw)
        if listed:
            action: Any = raw
        else:
            amount_form = self._in_amount(raw)
            if amount_form is not None:
                action, form = raw, amount_form
            else:
                action, form = self._checked(raw, recorded)
        self._prompted = self._amount = None
        log = self.ruleset.log_of(self.state)
        start = len(log)
        self.ruleset.execute(self.state, action, EventLog(log, len(self.record.actions)))
        self.record.actions.append(_record_form(action) if listed else form)
        return log[start:]

    # --- undo: replay without the taken-back actions, within the rules of taking back
    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last decision now, or None if it may (no replay)."""
        return self._take_back(seat)[0]

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last decision and every bot's move that followed it."""
        reason, mine = self._take_back(seat)
        if reason is not None or mine is None:
            raise IllegalAction(f"cannot undo: {reason}")
        self.rewind(mine)

    def rewind(self, actions: int) -> None:
        """Go back to the game as it was after its first ``actions`` actions (replayed)."""
        previous = Game.replay(self.ruleset, self.record, actions)
        previous.record.created = self.record.created
        self.record = previous.record
        self.state = previous.state

    def _take_back(self, seat: int) -> tuple[str | None, int | None]:
        """The refusal, or None and the index of ``seat``'s last decision in the record.

        Only bots may have moved since that decision: nobody takes back another
        person's move, and a bot simply answers again. Nothing is taken back past
        a dice roll, a draw or a revealed secret (events marked ``chance``).
        """
        if self.is_over():
            return "the game is over", None
        actions = self.record.actions
        if not actions:
            return "there is nothing to take back", None
        players = self.players
        mine = next((i for i in range(len(actions) - 1, -1, -1) if actions[i].get("seat") == seat),
                    None)
        if mine is None:
            return "the last action was not yours, and you have made no move yet", None
        for later in actions[mine + 1:]:
            other = later.get("seat")
            if isinstance(other, int) and 0 <= other < len(players) and not players[other].is_bot:
                return (f"the last action was not yours: {players[other].name} has moved since, "
                        "and nobody takes back another player's move"), None
        for event in reversed(self.log):
            if event.action < mine:
                break
            if event.chance:
                return "a dice roll or a draw has happened since, which cannot be taken back", None
        return None, mine

    def snapshot(self) -> Any:
        return copy.deepcopy(self.state)
