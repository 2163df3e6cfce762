"""Who may play under which name: the host's register of players, and its limit on failed logins.

A name belongs to the first login that claims it. With ``--authorized-keys`` that
is the first SSH key that logs in under it; with the table password it is the
first login under it, which then chooses a passphrase of its own (a screen in
the app, before anything else). From then on only that key, or that passphrase,
logs in under the name, over SSH and in a browser alike. Seats are taken by
name, so a seat, its history and its hidden information reach only the player
who owns the name.

The register is one JSON file in the host's folder, ``players.json``. It is
written whole to a temporary file that is then renamed over the old one (never
half-written), under a lock file, so the host and ``railgames host admin`` never
lose each other's change; it is read as strictly as a saved game (a regular
file, of bounded size, every field checked). Passphrases are kept only as
salted scrypt hashes (hashlib, that is OpenSSL's scrypt), slow on purpose: the
host checks them in a thread, never on its loop.

Hosts that share a PostgreSQL database (``--store postgresql://...``) share one
register instead: one document in that database (``docstore``), changed with its
row locked and read through the same strict reader, so a name claimed, banned or
renamed on one host is so on every host.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from railgames.core.errors import RailgamesError, RecordError
from railgames.core.record import read_versioned

# A ``docstore.SharedDocs`` (not imported: docstore reads this module's patterns).
SharedDocs = Any

REGISTER_FORMAT = 1
MAX_REGISTER_BYTES = 4 * 1024 * 1024  # some ten thousand players
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,23}$"  # as tables.name_problem
KEY_PATTERN = r"^SHA256:[A-Za-z0-9+/]{43}$"  # an SSH key's fingerprint, as ssh-keygen -l shows it

# scrypt at N=2^15, r=8, p=3: 32 MiB and about half a second a hash on a small machine
# (one of the settings of the same strength OWASP lists beside N=2^17, p=1).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 3
SCRYPT_MAXMEM = 128 * 1024 * 1024
# The project's own tests log in some hundreds of times, each paying a hash; they set
# RAILGAMES_CHEAP_PASSPHRASES=tests-only, and new passphrases are then hashed at N=2^10,
# p=1 (checked exactly as any other: the cost is read from the stored text). Any other
# value, or none, keeps the real cost; a host started so says it at start-up.
CHEAP_PASSPHRASES = "RAILGAMES_CHEAP_PASSPHRASES"
MIN_PASSPHRASE, MAX_PASSPHRASE = 8, 200

Name = Annotated[str, Field(pattern=NAME_PATTERN)]
KeyPrint = Annotated[str, Field(pattern=KEY_PATTERN)]


class Player(BaseModel):
    """One claimed (or banned) name."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Name  # as it was first written
    key: KeyPrint | None = None  # the SSH key it belongs to
    passphrase: Annotated[str, Field(max_length=300)] | None = None  # scrypt$N$r$p$salt$hash
    since: Annotated[str, Field(max_length=40)] = ""
    banned: bool = False
    former: list[Name] = Field(default_factory=list, max_length=16)  # names before a rename

    @property
    def claimed(self) -> bool:
        return self.key is not None or self.passphrase is not None

    def how(self) -> str:
        if self.key is not None:
            return self.key
        return "passphrase" if self.passphrase is not None else "-"


class Register(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal[1] = 1
    players: dict[Annotated[str, Field(pattern=NAME_PATTERN)], Player] = Field(
        default_factory=dict, max_length=20_000)
    banned_keys: list[KeyPrint] = Field(default_factory=list, max_length=10_000)

    def find(self, name: str) -> tuple[Player | None, Player | None]:
        """The player who owns ``name``, and the one who had it before a rename."""
        low = name.lower()
        owner = self.players.get(low)
        if owner is not None:
            return owner, None
        for player in self.players.values():
            if low in (n.lower() for n in player.former):
                return None, player
        return None, None


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ------------------------------------------------------------------ passphrases
def cheap_passphrases() -> bool:
    """Whether new passphrases are hashed at the tests' low cost (see CHEAP_PASSPHRASES)."""
    return os.environ.get(CHEAP_PASSPHRASES) == "tests-only"


def hash_passphrase(passphrase: str) -> str:
    salt = secrets.token_bytes(16)
    n, r, p = (2**10, SCRYPT_R, 1) if cheap_passphrases() else (SCRYPT_N, SCRYPT_R, SCRYPT_P)
    digest = hashlib.scrypt(passphrase.encode(), salt=salt, n=n, r=r, p=p,
                            maxmem=SCRYPT_MAXMEM, dklen=32)
    return "$".join(["scrypt", str(n), str(r), str(p),
                     base64.b64encode(salt).decode(), base64.b64encode(digest).decode()])


def passphrase_matches(stored: str, passphrase: str) -> bool:
    """Whether ``passphrase`` is the one ``stored`` was made from (False for anything unreadable).

    The cost settings come from the stored text; beyond sane bounds it is refused rather
    than computed (an edited register must not make the host spend minutes on one login).
    """
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        n_, r_, p_ = int(n), int(r), int(p)
        if kind != "scrypt" or not (2 <= n_ <= 2**18 and 1 <= r_ <= 16 and 1 <= p_ <= 16):
            return False
        expected = base64.b64decode(digest, validate=True)
        if len(expected) != 32:  # a cut digest would match on its first bytes alone
            return False
        got = hashlib.scrypt(passphrase.encode(), salt=base64.b64decode(salt, validate=True),
                             n=n_, r=r_, p=p_, maxmem=SCRYPT_MAXMEM, dklen=32)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


def passphrase_problem(passphrase: str, table_password: str | None) -> str | None:
    if len(passphrase) < MIN_PASSPHRASE:
        return f"a passphrase has at least {MIN_PASSPHRASE} characters"
    if len(passphrase) > MAX_PASSPHRASE:
        return f"a passphrase has at most {MAX_PASSPHRASE} characters"
    if any(ord(c) < 32 or ord(c) == 127 for c in passphrase):
        return "a passphrase holds no control characters"
    if table_password is not None and passphrase == table_password:
        return "your passphrase must not be the table password: everyone here knows that one"
    return None


# ------------------------------------------------------------------ the file
def _read_register(path: Path) -> Register:
    """The register as the file holds it (empty when there is none yet), or RecordError."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except FileNotFoundError:
        return Register()
    except OSError as exc:
        raise RecordError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{path}: not a regular file, so not a register of players")
        if info.st_size > MAX_REGISTER_BYTES:
            raise RecordError(f"{path}: too large for a register of players ({info.st_size:,} "
                              f"bytes; at most {MAX_REGISTER_BYTES:,})")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_REGISTER_BYTES + 1)
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a register of players (not UTF-8 text)") from None
    return _parse_register(text, str(path))


def _parse_register(text: str, source: str) -> Register:
    """A register's text read strictly, from a file or from the database alike."""
    register = read_versioned(text, source, "register of players", MAX_REGISTER_BYTES,
                              REGISTER_FORMAT, Register)
    for low, player in register.players.items():
        if player.name.lower() != low:
            raise RecordError(f"{source}: the entry '{low}' holds the player '{player.name}'")
    return register


def _register_text(register: Register) -> str:
    return json.dumps(register.model_dump(mode="json"), indent=1)


def _write_register(path: Path, register: Register) -> None:
    text = _register_text(register)
    fd, tmp = tempfile.mkstemp(prefix=".players-", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    from railgames.core.record import fsync_folder

    fsync_folder(path.parent)


T = TypeVar("T")
SHARED_REGISTER = ("players", "register")  # the register's document in a shared database


class Players:
    """The register of one host's players (``folder/players.json``), or of every host
    sharing a database (``docs``, a ``docstore.SharedDocs``: one document there).

    Reads are cached until the file (or the document's version) changes. Changes go
    through ``update`` (the file's lock, or the document's row lock, held; read again,
    changed, written whole). A claim made during a login is first *reserved* here, at
    once, so two logins racing for one name on this host cannot both win; it is then
    written by ``write_claim``, which refuses it if another host's claim got there first.
    """

    def __init__(self, folder: Path, docs: SharedDocs | None = None) -> None:
        self.folder = folder
        self.path = folder / "players.json"
        self.docs = docs
        self._cache: tuple[tuple[int, int, int], Register] | None = None
        self.reserved: dict[str, Player] = {}

    def read(self) -> Register:
        """The register as it is now; RecordError when the file cannot be used."""
        if self.docs is not None:
            return self._read_shared(self.docs)
        try:
            info = os.stat(self.path, follow_symlinks=False)
            stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
        except FileNotFoundError:
            stamp = (0, 0, 0)
        if self._cache is not None and self._cache[0] == stamp:
            return self._cache[1]
        register = _read_register(self.path)
        self._cache = (stamp, register)
        return register

    def _read_shared(self, docs: SharedDocs) -> Register:
        known = self._cache[0][0] if self._cache is not None else None
        version, text = docs.read(*SHARED_REGISTER, MAX_REGISTER_BYTES, unless=known)
        if self._cache is not None and version == known:
            return self._cache[1]
        register = Register() if text is None else _parse_register(
            text, docs.where(*SHARED_REGISTER))
        self._cache = ((version, 0, 0), register)
        return register

    def import_file(self) -> bool:
        """With a shared database that has no register yet, the host's file becomes it (a
        host moving to PostgreSQL keeps its players); True when it did. RecordError when
        the file is needed and cannot be read, as at any start."""
        if self.docs is None or not self.path.exists():
            return False
        if SHARED_REGISTER[1] in self.docs.list(SHARED_REGISTER[0]):
            return False  # the database has one already: it is the register now
        register = _read_register(self.path)
        self._cache = None
        return self.docs.create(*SHARED_REGISTER, _register_text(register))

    def find(self, name: str) -> tuple[Player | None, Player | None]:
        """Who owns ``name`` (a claim in progress included), and who had it before a rename."""
        reserved = self.reserved.get(name.lower())
        owner, former = self.read().find(name)
        if owner is None and former is None and reserved is not None:
            return reserved, None
        return owner, former

    def key_banned(self, key: str) -> bool:
        return key in self.read().banned_keys

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / "players.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # lets the lock go

    def update(self, change: Callable[[Register], T]) -> T:
        """Change the register: ``change`` edits it in place (or raises to change nothing)."""
        if self.docs is not None:
            docs = self.docs
            results: list[T] = []

            def edit(text: str | None) -> str:
                register = Register() if text is None else _parse_register(
                    text, docs.where(*SHARED_REGISTER))
                results.append(change(register))
                return _register_text(register)

            docs.update(*SHARED_REGISTER, MAX_REGISTER_BYTES, edit)
            self._cache = None
            return results[0]
        with self._locked():
            register = _read_register(self.path)
            result = change(register)
            _write_register(self.path, register)
            self._cache = None
            return result

    # --- claims made by logging in
    def reserve(self, player: Player) -> str | None:
        """Hold ``player.name`` for this claim at once; the reason when it is taken already."""
        owner, former = self.find(player.name)
        if former is not None:
            return f"the name '{player.name}' is kept for {former.name}"
        if owner is not None and owner.claimed and not _same_claim(owner, player):
            return f"the name '{player.name}' has just been claimed by another login"
        if owner is not None and owner.banned:
            return f"the name '{player.name}' is banned on this host"
        self.reserved[player.name.lower()] = player
        return None

    def write_claim(self, player: Player) -> None:
        """Write a reserved claim to the file (in a thread: it waits for the disk).

        Once written the file holds it; if the file says the name went to someone else
        meanwhile (or was banned), the claim is dropped and RailgamesError says so. If the
        disk fails, the reservation stays: the claim holds as long as this host runs.
        """
        def claim(register: Register) -> None:
            owner, former = register.find(player.name)
            if former is not None or (owner is not None and owner.claimed
                                      and not _same_claim(owner, player)):
                raise RailgamesError(f"the name '{player.name}' was claimed meanwhile")
            if owner is not None and owner.banned:
                raise RailgamesError(f"the name '{player.name}' was banned meanwhile")
            register.players[player.name.lower()] = player

        try:
            self.update(claim)
        except RailgamesError:
            self.release(player)
            raise
        self.release(player)

    def release(self, player: Player) -> None:
        """Drop a reservation (the file has the claim now, or it did not go through)."""
        if self.reserved.get(player.name.lower()) is player:
            del self.reserved[player.name.lower()]


def _same_claim(a: Player, b: Player) -> bool:
    return a.key is not None and a.key == b.key


# ------------------------------------------------------------------ the checks at login
@dataclass
class Verdict:
    """What the register says about one login attempt."""

    ok: bool
    reason: str = ""  # for the player: one line
    end: bool = False  # another try cannot help (a ban, a renamed name): hang up
    name: str = ""  # the name as its owner wrote it
    unclaimed: bool = False  # nobody owns the name yet: this login claims it
    former: tuple[str, ...] = ()


def _standing(players: Players, name: str) -> tuple[Player | None, Verdict | None]:
    try:
        owner, former = players.find(name)
    except RecordError as exc:
        from railgames.net.tables import event

        event("players_unreadable", reason=exc.reason[:500])
        return None, Verdict(False, "the host cannot read its register of players; "
                                    "tell the host's operator", end=True)
    if former is not None:
        return None, Verdict(False, f"the name '{name}' is now '{former.name}': log in as "
                                    f"{former.name}", end=True)
    if owner is not None and owner.banned:
        return None, Verdict(False, f"the name '{name}' is banned on this host", end=True)
    return owner, None


def check_password(players: Players, table_password: str | None, name: str,
                   password: str) -> Verdict:
    """A login with a password: the name's own passphrase, or the table password for a new
    name. Slow when the name has a passphrase (that is the point): call it in a thread."""
    owner, refusal = _standing(players, name)
    if refusal is not None:
        return refusal
    if owner is not None and owner.passphrase is not None:
        if passphrase_matches(owner.passphrase, password):
            return Verdict(True, name=owner.name, former=tuple(owner.former))
        return Verdict(False, f"wrong passphrase for {owner.name} (a name that has its own "
                              "passphrase is not opened by the table password)")
    if owner is not None and owner.key is not None:
        return Verdict(False, f"the name '{owner.name}' belongs to a player who logs in with "
                              "an SSH key", end=True)
    if table_password is None:
        return Verdict(False, "this host admits players by SSH key only", end=True)
    if hmac.compare_digest(password.encode(), table_password.encode()):
        return Verdict(True, name=name, unclaimed=True)
    return Verdict(False, "wrong table password")


def check_key(players: Players, name: str, key: str) -> Verdict:
    """A login with an SSH key the host admits: is the name free, or this key's?"""
    try:
        banned = players.key_banned(key)
    except RecordError:
        banned = False  # _standing says it, once
    if banned:
        return Verdict(False, "this key is banned on this host", end=True)
    owner, refusal = _standing(players, name)
    if refusal is not None:
        return refusal
    if owner is not None and owner.key is not None and owner.key != key:
        return Verdict(False, f"the name '{owner.name}' belongs to another player's key; "
                              "log in under a name of your own")
    if owner is not None and owner.passphrase is not None and owner.key is None:
        return Verdict(False, f"the name '{owner.name}' belongs to a player with a passphrase",
                       end=True)
    return Verdict(True, name=owner.name if owner else name,
                   unclaimed=owner is None or owner.key is None,
                   former=tuple(owner.former) if owner else ())


# ------------------------------------------------------------------ failed logins
class LoginLimiter:
    """Failed logins per address, as a token bucket (like wish's rate limiter).

    Each address may fail ``per_minute`` times at once; the bucket fills again at
    that many a minute. An address whose bucket is empty is refused before its
    password (or key) is even looked at, until a token is back.
    """

    def __init__(self, per_minute: int = 10, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(max(1, per_minute))
        self.rate = self.capacity / 60.0
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def _tokens(self, address: str, now: float) -> float:
        tokens, when = self.buckets.get(address, (self.capacity, now))
        return min(self.capacity, tokens + (now - when) * self.rate)

    def allowed(self, address: str) -> bool:
        return self._tokens(address, self.clock()) >= 1.0

    def failed(self, address: str) -> bool:
        """Count a failure; True when the address has now used up its tries."""
        now = self.clock()
        tokens = max(0.0, self._tokens(address, now) - 1.0)
        self.buckets[address] = (tokens, now)
        if len(self.buckets) > 10_000:  # forget the addresses whose buckets are full again
            self.buckets = {a: (t, w) for a, (t, w) in self.buckets.items()
                            if self._tokens(a, now) < self.capacity}
        return tokens < 1.0

    def refusal(self, address: str) -> str:
        return (f"too many failed logins from {address}; try again in a minute "
                f"({int(self.capacity)} a minute at most)")


def address_of(peer: str) -> str:
    """The address part of ``host:port`` (IPv6 too), for counting per address."""
    host, _, port = peer.rpartition(":")
    return host if host and port.isdigit() else peer


# ------------------------------------------------------------------ the operator's commands
ADMIN_COMMANDS = ("list", "rename", "kick", "ban", "unban", "ban-key", "forget")


@dataclass
class Kick:
    """Sessions to end: those of these names, or logged in with these keys."""

    names: set[str] = field(default_factory=set)  # lower case
    keys: set[str] = field(default_factory=set)
    reason: str = ""

    def matches(self, name: str, former: tuple[str, ...], key: str | None) -> bool:
        return (name.lower() in self.names or any(n.lower() in self.names for n in former)
                or (key is not None and key in self.keys))


@dataclass
class Outcome:
    text: str  # for the operator
    changed: dict[str, Any] | None = None  # the 'admin' log line's fields; None: no change
    kick: Kick | None = None


def _name_arg(value: str) -> str:
    from railgames.net.tables import name_problem

    problem = name_problem(value)
    if problem:
        raise RailgamesError(f"'{value}' is not a player's name: {problem}")
    return value


def _key_arg(value: str) -> str:
    import re

    if not re.match(KEY_PATTERN, value):
        raise RailgamesError(f"'{value}' is not a key fingerprint (SHA256:... as the host's "
                             "log and 'admin list' show it)")
    return value


def apply_admin(players: Players, command: str, args: list[str]) -> Outcome:
    """Carry out one of the operator's commands on the register (kicks are the host's)."""
    arity = {"list": 0, "rename": 2}.get(command, 1)
    if command not in ADMIN_COMMANDS:
        raise RailgamesError(f"no admin command '{command}' ({', '.join(ADMIN_COMMANDS)})")
    if len(args) != arity:
        raise RailgamesError(f"'{command}' takes {arity} argument{'s' if arity != 1 else ''}")
    if command == "list":
        return Outcome(listing(players.read()))
    if command == "kick":
        name = _name_arg(args[0])
        return Outcome(f"{name}: sessions ended", {"command": "kick", "name": name},
                       Kick(names={name.lower()}, reason="the host's operator ended your session"))
    if command == "ban-key":
        key = _key_arg(args[0])

        def ban_key(register: Register) -> None:
            if key not in register.banned_keys:
                register.banned_keys.append(key)

        players.update(ban_key)
        return Outcome(f"{key}: banned", {"command": "ban-key", "key": key},
                       Kick(keys={key}, reason="your key is banned on this host"))
    if command == "unban" and ":" in args[0]:
        key = _key_arg(args[0])

        def unban_key(register: Register) -> None:
            if key not in register.banned_keys:
                raise RailgamesError(f"{key} is not banned")
            register.banned_keys.remove(key)

        players.update(unban_key)
        return Outcome(f"{key}: no longer banned", {"command": "unban", "key": key})
    name = _name_arg(args[0])
    low = name.lower()
    if command == "ban":
        def ban(register: Register) -> None:
            owner, former = register.find(name)
            if former is not None:
                raise RailgamesError(f"'{name}' is a former name of {former.name}: ban "
                                     f"{former.name}")
            if owner is None:
                register.players[low] = Player(name=name, since=now_text(), banned=True)
            else:
                owner.banned = True

        players.update(ban)
        return Outcome(f"{name}: banned", {"command": "ban", "name": name},
                       Kick(names={low}, reason=f"the name '{name}' is banned on this host"))
    if command == "unban":
        def unban(register: Register) -> None:
            owner = register.players.get(low)
            if owner is None or not owner.banned:
                raise RailgamesError(f"{name} is not banned")
            owner.banned = False
            if not owner.claimed and not owner.former:
                del register.players[low]

        players.update(unban)
        return Outcome(f"{name}: no longer banned", {"command": "unban", "name": name})
    if command == "forget":
        def forget(register: Register) -> str:
            if low in register.players:
                del register.players[low]
                return f"{name}: forgotten (anyone may claim the name again)"
            for player in register.players.values():
                if low in (n.lower() for n in player.former):
                    player.former = [n for n in player.former if n.lower() != low]
                    return (f"{name}: no longer kept for {player.name} (anyone may claim "
                            "it again, and with it the seats taken under it)")
            raise RailgamesError(f"there is no player called {name}")

        text = players.update(forget)
        return Outcome(text, {"command": "forget", "name": name})
    # rename: the name's key or passphrase now opens NEW. A game under way cannot change
    # the names its record was played under, so the seats taken as OLD stay this player's
    # (tables.py matches a login's former names too) and OLD stays reserved for them.
    new = _name_arg(args[1])

    def rename(register: Register) -> Player:
        owner = register.players.get(low)
        if owner is None:
            raise RailgamesError(f"there is no player called {name}")
        taken, former = register.find(new)
        if taken is not None and taken is not owner:
            raise RailgamesError(f"the name {new} belongs to another player")
        if former is not None and former is not owner:
            raise RailgamesError(f"the name {new} is kept for {former.name}")
        del register.players[low]
        kept = [n for n in [owner.name, *owner.former] if n.lower() != new.lower()]
        owner.former = list(dict.fromkeys(kept))[:16]
        owner.name = new
        register.players[new.lower()] = owner
        return owner

    players.update(rename)
    return Outcome(f"{name} is now {new} (seats taken as {name} stay theirs)",
                   {"command": "rename", "name": name, "to": new},
                   Kick(names={low}, reason=f"the host's operator renamed you to {new}: "
                                            f"log in as {new}"))


def listing(register: Register, online: set[str] | None = None) -> str:
    rows = []
    for player in sorted(register.players.values(), key=lambda p: p.name.lower()):
        marks = []
        if player.banned:
            marks.append("banned")
        if online is not None and player.name.lower() in online:
            marks.append("online")
        if player.former:
            marks.append("was " + ", ".join(player.former))
        rows.append(f"{player.name:<24}  {player.how():<51}  {player.since[:10]:<10}  "
                    + "; ".join(marks))
    lines = [f"{'name':<24}  {'claimed with':<51}  {'since':<10}  notes", *rows]
    if not rows:
        lines.append("(no names claimed yet)")
    if online:
        unlisted = sorted(online - set(register.players))
        if unlisted:
            lines.append("online, not claimed yet: " + ", ".join(unlisted))
    for key in register.banned_keys:
        lines.append(f"banned key: {key}")
    return "\n".join(lines)


def player_dir(data_dir: Path, name: str) -> Path:
    """A host's player's own folder (their hot-seat saves, their exports)."""
    return data_dir / "players" / name.lower()
