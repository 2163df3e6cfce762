"""What the host remembers of each player beyond their name: where to reach them, and what
they have seen.

One small JSON file per player in the host's folder (``profiles/<name>.json``, the
name in lower case): where they want to be told it is their move (an e-mail
address, a chat handle: whatever the host's notify command understands), the
tables they muted (no notifications from them) or silenced (no terminal bell for
them), and how many actions of each table they have seen (what is new since).

Each file is written whole to a temporary file renamed over the old one, and read
as strictly as a saved game: one that cannot be read is left aside with a log line
and the player starts again from nothing, never stopping the host. A host with no
folder (tests, tools) keeps profiles in memory only.

Hosts sharing a PostgreSQL database keep each profile there instead (``docstore``,
kind "profile", the name in lower case), read through the same strict reader; what a
host read is kept until the document's version changes, and a change is made with the
row locked, so two hosts changing one player's settings never lose either change.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from railgames.core.errors import RecordError
from railgames.core.record import read_capped_text, read_versioned

if TYPE_CHECKING:
    from railgames.net.docstore import SharedDocs

PROFILE_FORMAT = 1
MAX_PROFILE_BYTES = 256 * 1024
MAX_ADDRESS = 200
MAX_TABLES = 2000  # tables a profile remembers (the oldest are forgotten first)

Code = Annotated[str, Field(pattern=r"^[A-Z]{4}$")]


class Profile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal[1] = 1
    # Where the notify command reaches this player ("" or None: nowhere).
    notify_to: Annotated[str, Field(max_length=MAX_ADDRESS)] | None = None
    muted: list[Code] = Field(default_factory=list, max_length=MAX_TABLES)  # no notifications
    quiet: list[Code] = Field(default_factory=list, max_length=MAX_TABLES)  # no terminal bell
    seen: dict[Code, Annotated[int, Field(ge=0)]] = Field(default_factory=dict,
                                                          max_length=MAX_TABLES)


def address_problem(address: str) -> str | None:
    """Why ``address`` cannot be where a player is told of their move (None: it can)."""
    if len(address) > MAX_ADDRESS:
        return f"an address is at most {MAX_ADDRESS} characters"
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in address):
        return "an address has no control characters"
    return None


class Profiles:
    def __init__(self, folder: Path | None, docs: SharedDocs | None = None) -> None:
        self.folder = folder
        self.docs = docs
        self._cache: dict[str, Profile] = {}
        self._versions: dict[str, int] = {}  # with docs: the version each cached one was
        self._lock = threading.Lock()

    def _path(self, name: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{name.lower()}.json"

    def get(self, name: str) -> Profile:
        """``name``'s profile (a fresh one if they have none yet); a copy, to read."""
        with self._lock:
            return self._load(name).model_copy(deep=True)

    def _load(self, name: str) -> Profile:
        low = name.lower()
        if self.docs is not None:
            return self._load_shared(self.docs, name)
        cached = self._cache.get(low)
        if cached is not None:
            return cached
        profile = Profile()
        if self.folder is not None:
            path = self._path(low)
            if path.exists():
                try:
                    text = read_capped_text(path, MAX_PROFILE_BYTES, "a player's profile")
                    profile = read_versioned(text, str(path), "profile", MAX_PROFILE_BYTES,
                                             PROFILE_FORMAT, Profile)
                except RecordError as exc:
                    from railgames.net.tables import event

                    event("profile_unreadable", player=name, reason=exc.reason[:300])
                    try:
                        os.replace(path, path.with_name(path.name + ".unreadable"))
                    except OSError:
                        pass
        self._cache[low] = profile
        return profile

    def _load_shared(self, docs: SharedDocs, name: str) -> Profile:
        low = name.lower()
        known = self._versions.get(low)
        try:
            version, text = docs.read(PROFILE_KIND, low, MAX_PROFILE_BYTES, unless=known)
        except RecordError as exc:  # too large (its version given), or the database lost
            version, text = getattr(exc, "version", -1), None
            reason = exc.reason
            if (version == known or version < 0) and low in self._cache:
                return self._cache[low]  # unchanged, or the database is out of reach
        else:
            if version == known and low in self._cache:
                return self._cache[low]
            reason = ""
        profile = Profile()
        if text is not None:
            try:
                profile = _parse(text, docs.where(PROFILE_KIND, low))
            except RecordError as exc:
                reason = exc.reason
        if reason:  # once per version: the next change writes a good one over it
            from railgames.net.tables import event

            event("profile_unreadable", player=name, reason=reason[:300])
        if version >= 0:
            self._cache[low], self._versions[low] = profile, version
        return profile

    def update(self, name: str, change: Callable[[Profile], None]) -> Profile:
        """Change ``name``'s profile and keep it; the profile as kept (a copy)."""
        if self.docs is not None:
            return self._update_shared(self.docs, name, change)
        with self._lock:
            profile = self._load(name).model_copy(deep=True)
            change(profile)
            profile = Profile.model_validate(profile.model_dump())  # still within its limits
            if self.folder is not None:
                _write(self._path(name), profile)
            self._cache[name.lower()] = profile
            return profile.model_copy(deep=True)


    def import_files(self) -> int:
        """With a shared database, each profile file in the folder that the database has no
        profile for becomes one (one that cannot be read: a log line); how many did."""
        if self.docs is None or self.folder is None or not self.folder.is_dir():
            return 0
        done = 0
        for path in sorted(self.folder.glob("*.json")):
            try:
                text = read_capped_text(path, MAX_PROFILE_BYTES, "a player's profile")
                profile = _parse(text, str(path))
                done += self.docs.create(PROFILE_KIND, path.stem.lower(), _text(profile))
            except RecordError as exc:
                from railgames.net.tables import event

                event("profile_unreadable", file=str(path), reason=exc.reason[:300])
        return done

    def _update_shared(self, docs: SharedDocs, name: str,
                       change: Callable[[Profile], None]) -> Profile:
        low = name.lower()
        kept: list[Profile] = []

        def edit(text: str | None) -> str:
            profile = Profile()
            if text is not None:
                try:
                    profile = _parse(text, docs.where(PROFILE_KIND, low))
                except RecordError:  # said when it was read: started again from nothing
                    profile = Profile()
            change(profile)
            profile = Profile.model_validate(profile.model_dump())  # still within its limits
            kept.append(profile)
            return _text(profile)

        with self._lock:
            version = docs.update(PROFILE_KIND, low, MAX_PROFILE_BYTES, edit)
            self._cache[low], self._versions[low] = kept[0], version
            return kept[0].model_copy(deep=True)


PROFILE_KIND = "profile"


def _parse(text: str, source: str) -> Profile:
    return read_versioned(text, source, "profile", MAX_PROFILE_BYTES, PROFILE_FORMAT, Profile)


def _text(profile: Profile) -> str:
    return json.dumps(profile.model_dump(mode="json"), separators=(",", ":"))


def _write(path: Path, profile: Profile) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".profile-", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(_text(profile))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
