"""The host's own documents in the tables' PostgreSQL database, for several hosts at once.

A host that keeps its tables in PostgreSQL (``railgames host --store postgresql://...``)
keeps there too what it would otherwise keep as files in its folder, so that every
host serving the same tables knows the same players:

* the register of players (``players.py``): one document, kind "players";
* each player's profile (``profiles.py``): kind "profile", keyed by the name in lower case;
* the notifications outbox (``notify.py``): one row per notice, its id the key.

``rg_docs`` holds a document's JSON text and a ``version`` that grows with each change,
so a host can keep what it read and ask again only whether it changed. A change is
read-modify-write in one transaction with the row locked (``SELECT ... FOR UPDATE``):
two hosts changing the same document take turns, and the second works on what the
first wrote (two claims of one name: the second sees the first's and is refused).

``rg_outbox`` holds each notice once: accepting one is ``INSERT ... ON CONFLICT DO
NOTHING``, so when two hosts hear the same turn only one accepts it, and that one
delivers it. A host holds what it accepted (``holder``, ``held_at``) until it is done;
one that stops lets go of what it did not deliver, and what a killed host held is
taken by the next host to start once it is older than ``STALE_SECONDS``.

A kick, ban or rename made on one host (or by ``railgames host admin --store``) is told
to the others on the database's ``railgames_kick`` channel (``NOTIFY``), and each ends
the sessions it concerns.

This module moves text only: what is read back goes through the same strict readers
as the files (nothing is trusted because a host wrote it), and a document larger than
the reader's limit is refused without being fetched.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

from railgames.core.errors import RecordError

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS rg_docs (
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        version BIGINT NOT NULL DEFAULT 1,
        doc TEXT NOT NULL,
        PRIMARY KEY (kind, key)
    )""",
    """CREATE TABLE IF NOT EXISTS rg_outbox (
        id TEXT PRIMARY KEY,
        notice TEXT,
        outcome TEXT,
        holder TEXT,
        held_at TIMESTAMPTZ,
        accepted_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
]
# A notice accepted by a host that never said it was done (the host was killed) is taken
# by a host that starts this long after: longer than every try of a delivery takes.
STALE_SECONDS = 15 * 60


class TooLarge(RecordError):
    """A document beyond its reader's limit (not fetched); ``version`` says which."""

    def __init__(self, reason: str, version: int) -> None:
        super().__init__(reason)
        self.version = version


class SharedDocs:
    """Documents kept in the database of a ``PostgresTableStore`` (its connection, its
    transactions: ``store._tx``). ``holder`` names this host in the outbox."""

    shared = True

    def __init__(self, store: Any) -> None:
        self.store = store
        self.holder: str = str(getattr(store, "origin", "") or "host")
        self.name = f"the database at {store.name}"
        with store._tx() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(712002)")  # two hosts starting at once
            for statement in SCHEMA:
                cur.execute(statement)

    # ------------------------------------------------------------ documents
    def read(self, kind: str, key: str, limit: int,
             unless: int | None = None) -> tuple[int, str | None]:
        """The document's version (0: there is none) and text; the text is None when the
        version is ``unless`` (what the caller read before). RecordError beyond ``limit``."""
        with self.store._tx() as cur:
            cur.execute("SELECT version, octet_length(doc), CASE WHEN version = %s OR "
                        "octet_length(doc) > %s THEN NULL ELSE doc END FROM rg_docs "
                        "WHERE kind = %s AND key = %s", (unless, limit, kind, key))
            row = cur.fetchone()
        if row is None:
            return 0, None
        version, size, text = int(row[0]), int(row[1]), row[2]
        if version != unless and size > limit:
            raise TooLarge(f"{self.where(kind, key)}: too large ({size:,} bytes; at most "
                           f"{limit:,})", version)
        return version, None if text is None else str(text)

    def update(self, kind: str, key: str, limit: int,
               change: Callable[[str | None], str]) -> int:
        """Change a document: ``change`` gets its text (None when there is none yet) and
        gives the new text, all in one transaction with the row locked (so no other host
        changes it between); an exception from ``change`` keeps nothing. The new version."""
        with self.store._tx() as cur:
            # The row exists (an empty one if new, not seen by others until this commits),
            # then is locked: a second host waits here until the first has committed.
            cur.execute("INSERT INTO rg_docs (kind, key, version, doc) VALUES (%s, %s, 0, '') "
                        "ON CONFLICT (kind, key) DO NOTHING", (kind, key))
            cur.execute("SELECT version, octet_length(doc), CASE WHEN octet_length(doc) > %s "
                        "THEN NULL ELSE doc END FROM rg_docs WHERE kind = %s AND key = %s "
                        "FOR UPDATE", (limit, kind, key))
            version, size, text = cur.fetchone()
            if size > limit:
                raise RecordError(f"{self.where(kind, key)}: too large ({size:,} bytes; at "
                                  f"most {limit:,})")
            new = change(None if int(version) == 0 else str(text))
            if len(new.encode()) > limit:
                raise RecordError(f"{self.where(kind, key)}: would grow beyond {limit:,} bytes")
            cur.execute("UPDATE rg_docs SET doc = %s, version = version + 1 "
                        "WHERE kind = %s AND key = %s RETURNING version", (new, kind, key))
            return int(cur.fetchone()[0])

    def create(self, kind: str, key: str, text: str) -> bool:
        """Keep a document that is not kept yet; False (nothing changed) when it is."""
        with self.store._tx() as cur:
            cur.execute("INSERT INTO rg_docs (kind, key, version, doc) VALUES (%s, %s, 1, %s) "
                        "ON CONFLICT (kind, key) DO NOTHING", (kind, key, text))
            return bool(cur.rowcount == 1)

    def list(self, kind: str) -> builtins.list[str]:
        with self.store._tx() as cur:
            cur.execute("SELECT key FROM rg_docs WHERE kind = %s AND version > 0 ORDER BY key",
                        (kind,))
            return [str(key) for (key,) in cur.fetchall()]

    def where(self, kind: str, key: str) -> str:
        return f"{self.name}: {kind} {key[:40]}"

    # ------------------------------------------------------------ the outbox
    def accept(self, notices: builtins.list[tuple[str, str]],
               holder: str | None) -> set[str]:
        """Keep each ``(id, text)`` not kept already, held by ``holder`` (None: by nobody,
        for the next host to start); the ids this call kept."""
        kept: set[str] = set()
        if not notices:
            return kept
        with self.store._tx() as cur:
            for nid, text in notices:
                cur.execute("INSERT INTO rg_outbox (id, notice, holder, held_at) VALUES "
                            "(%s, %s, %s, CASE WHEN %s::text IS NULL THEN NULL ELSE now() END) "
                            "ON CONFLICT (id) DO NOTHING", (nid, text, holder, holder))
                if cur.rowcount == 1:
                    kept.add(nid)
        return kept

    def done(self, outcomes: builtins.list[tuple[str, str]]) -> None:
        """Say each ``(id, outcome)`` is done: one this host holds, or one it need not send
        (the player saw it), kept so that no other host sends it either. A notice another
        host holds stays theirs."""
        if not outcomes:
            return
        with self.store._tx() as cur:
            for nid, outcome in outcomes:
                cur.execute("INSERT INTO rg_outbox (id, outcome) VALUES (%s, %s) "
                            "ON CONFLICT (id) DO UPDATE SET outcome = EXCLUDED.outcome, "
                            "holder = NULL WHERE rg_outbox.outcome IS NULL AND "
                            "(rg_outbox.holder = %s OR rg_outbox.holder IS NULL)",
                            (nid, outcome[:40], self.holder))

    def take_pending(self, limit: int) -> tuple[set[str], builtins.list[tuple[str, str]]]:
        """Every id kept, and the notices not done that nobody holds (or whose holder has
        been silent for ``STALE_SECONDS``), now held by this host: ``(id, text)``; a text
        over ``limit`` bytes is given as ""."""
        with self.store._tx() as cur:
            cur.execute("UPDATE rg_outbox SET holder = %s, held_at = now() "
                        "WHERE outcome IS NULL AND (holder IS NULL OR held_at IS NULL OR "
                        "held_at < now() - make_interval(secs => %s)) "
                        "RETURNING id, CASE WHEN octet_length(notice) > %s THEN '' "
                        "ELSE coalesce(notice, '') END",
                        (self.holder, STALE_SECONDS, limit))
            taken = [(str(i), str(t)) for i, t in cur.fetchall()]
            cur.execute("SELECT id FROM rg_outbox")
            known = {str(i) for (i,) in cur.fetchall()}
        return known, taken

    def let_go(self) -> None:
        """Hold nothing any more: what this host did not deliver is for the next to start."""
        with self.store._tx() as cur:
            cur.execute("UPDATE rg_outbox SET holder = NULL, held_at = NULL "
                        "WHERE holder = %s AND outcome IS NULL", (self.holder,))


def shared_docs(store: Any) -> SharedDocs | None:
    """The documents beside a table store that several hosts share (PostgreSQL); None for
    a store of one host, whose documents stay files in its folder."""
    if getattr(store, "shared", False) and hasattr(store, "_tx"):
        return SharedDocs(store)
    return None


# ------------------------------------------------------------------ kicks between hosts
KICKS = "railgames_kick"  # the channel hosts tell each other the sessions to end on


def tell_kick(store: Any, names: builtins.list[str], keys: builtins.list[str],
              reason: str) -> None:
    """Ask every other host using ``store`` to end the sessions of these names and keys
    (a ban, a rename or a kick made by one host, or by ``railgames host admin``)."""
    import json

    store.tell(KICKS, json.dumps({"from": str(getattr(store, "origin", "")),
                                  "names": names[:20], "keys": keys[:20],
                                  "reason": reason[:300]}))


def hear_kicks(store: Any, kick: Callable[[builtins.list[str], builtins.list[str], str], None]
               ) -> None:
    """Call ``kick(names, keys, reason)`` (from the store's listening thread) for what other
    hosts ask; what cannot be read is left alone."""
    import json

    from railgames.net.players import KEY_PATTERN, NAME_PATTERN

    def heard(payload: str) -> None:
        import re

        try:
            said = json.loads(payload[:8000])
        except ValueError:
            return
        if not isinstance(said, dict) or said.get("from") == getattr(store, "origin", None):
            return
        names, keys, reason = said.get("names"), said.get("keys"), said.get("reason")
        if not (isinstance(names, builtins.list) and isinstance(keys, builtins.list)
                and isinstance(reason, str)):
            return
        names = [n.lower() for n in names[:20]
                 if isinstance(n, str) and re.match(NAME_PATTERN, n)]
        keys = [k for k in keys[:20] if isinstance(k, str) and re.match(KEY_PATTERN, k)]
        if names or keys:
            kick(names, keys, " ".join(reason.split())[:300])

    store.hear(KICKS, heard)
    store.follow(lambda code, version: None)  # (listening starts with the first follower)
