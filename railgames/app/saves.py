"""Where games are saved, and the list the Continue screen shows.

Saves live in the user's data directory (``platformdirs``), or under
``$RAILGAMES_DATA_DIR`` when it is set, so tests and portable installs can
point it elsewhere.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from railgames.core.errors import RailgamesError

if TYPE_CHECKING:
    from railgames.core.record import GameRecord

DATA_DIR_ENV = "RAILGAMES_DATA_DIR"


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("railgames"))


def saves_dir() -> Path:
    return data_dir() / "saves"


def save_path_for(record: GameRecord) -> Path:
    """A new file per game, named after the game and the moment it was created.

    The seed is left out of the name: in a game with secrets, knowing it would
    let a player work out the deal.
    """
    stamp = re.sub(r"[^0-9A-Za-z]", "", record.created)[:15] or "game"
    path = saves_dir() / f"{record.game}-{stamp}.json"
    n = 2
    while path.exists():
        path = saves_dir() / f"{record.game}-{stamp}-{n}.json"
        n += 1
    return path


@dataclass
class SavedGame:
    path: Path
    record: GameRecord | None
    title: str
    players: str
    turn: int | None
    finished: bool
    last_played: str
    problem: str | None = None


def format_time(iso: str | None) -> str:
    """'2025-01-02T15:04:05+00:00' -> '2025-01-02 15:04' in local time."""
    if not iso:
        return "?"
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def describe_save(path: Path) -> SavedGame:
    from railgames.core.engine import Game
    from railgames.core.record import load_record
    from railgames.games import load_ruleset

    try:
        record = load_record(path)
        ruleset = load_ruleset(record.game, record.map)
        game = Game.replay(ruleset, record)
    except RailgamesError as exc:
        return SavedGame(path, None, path.name, "", None, False, "?", problem=exc.reason)
    except Exception as exc:  # a damaged save must not stop the list from showing  # noqa: BLE001
        return SavedGame(path, None, path.name, "", None, False, "?",
                         problem=f"cannot be replayed ({type(exc).__name__})")
    players = ", ".join(
        p.name + ("" if not p.is_bot or "bot" in p.name else f" ({p.kind} bot)") for p in record.players
    )
    return SavedGame(
        path=path,
        record=record,
        title=ruleset.title,
        players=players,
        turn=ruleset.turn_of(game.state),
        finished=game.is_over(),
        last_played=format_time(record.updated or record.created),
        problem=None,
    )


def list_saves() -> list[SavedGame]:
    folder = saves_dir()
    if not folder.is_dir():
        return []
    saves = [describe_save(p) for p in folder.glob("*.json")]
    saves.sort(key=lambda s: (s.record.updated or s.record.created) if s.record else "", reverse=True)
    return saves
