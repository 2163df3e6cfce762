"""What the launcher shows of each game: title, players, play time, pitch, board preview.

Working these out means importing every game's rules and loading its map, which
takes longer than starting Textual itself. So the cards are kept in a small cache
file, next to a fingerprint of the sources they come from (every file of the
``railgames`` package and of the maps folders: path, size, modification time).
Any change to those files, or another Python, makes the cache stale and the
cards are worked out again, exactly as they would be without it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.style import Style
from rich.text import Span, Text

from railgames.core.sources import cache_dir, scan_sources

CACHE_FORMAT = 1
CACHE_NAME = "launcher-cards.json"


@dataclass(frozen=True)
class GameCard:
    id: str
    title: str
    details: Text  # the launcher's right-hand panel: facts, pitch and preview


def fingerprint() -> str:
    """The stamp of every source file (see core/sources.py), worked out now."""
    return f"{CACHE_FORMAT} {scan_sources()}"


def launcher_ids() -> list[str]:
    from railgames.games import launcher_ids as ids

    return ids()


def details_text(cls: Any) -> Text:
    """The details panel of one game (its ruleset class), preview included."""
    from railgames.app.boards import game_ui
    from railgames.games import load_ruleset

    text = Text()
    text.append(cls.title + "\n", style="bold")
    text.append(f"{cls.min_players}–{cls.max_players} players · {cls.play_time}\n", style="dim")
    text.append(cls.pitch + "\n\n")
    try:
        text.append_text(game_ui(load_ruleset(cls.id)).preview())
    except Exception as exc:  # a broken map must not stop the launcher
        text.append(f"(no preview: {exc})", style="dim")
    return text


def work_out_cards() -> list[GameCard]:
    from railgames.games import playable_games

    return [GameCard(cls.id, cls.title, details_text(cls)) for cls in playable_games()]


def _style_out(style: str | Style) -> str:
    return str(style)


def _text_out(text: Text) -> dict[str, Any]:
    return {"plain": text.plain, "style": _style_out(text.style),
            "spans": [[s.start, s.end, _style_out(s.style)] for s in text.spans]}


def _text_in(data: dict[str, Any]) -> Text:
    spans = [Span(int(start), int(end), str(style)) for start, end, style in data["spans"]]
    return Text(str(data["plain"]), style=str(data["style"]), spans=spans)


def _read_cache(path: Path, key: str, ids: list[str]) -> list[GameCard] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("fingerprint") != key or [c["id"] for c in data["cards"]] != ids:
            return None
        return [GameCard(str(c["id"]), str(c["title"]), _text_in(c["details"]))
                for c in data["cards"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):  # missing or damaged
        return None


def _write_cache(path: Path, key: str, cards: list[GameCard]) -> None:
    data = {"fingerprint": key,
            "cards": [{"id": c.id, "title": c.title, "details": _text_out(c.details)} for c in cards]}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)  # whole or not at all, even with two apps starting at once
    except OSError:  # no cache this time; the cards were worked out all the same
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


WORKING_OUT = "Reading the game's box…"


def cached_cards() -> list[GameCard] | None:
    """The launcher's cards from the cache, or None when it is missing or stale."""
    return _read_cache(cache_dir() / CACHE_NAME, fingerprint(), launcher_ids())


def placeholder_cards() -> list[GameCard]:
    """Titles only (each game's descriptor has its title), shown while the cards are worked out."""
    from railgames.games import descriptor

    return [GameCard(g, descriptor(g).title, Text(WORKING_OUT, style="dim")) for g in launcher_ids()]


def launcher_cards() -> list[GameCard]:
    """The launcher's games, in the registry's order, from the cache when it is fresh."""
    path = cache_dir() / CACHE_NAME
    key = fingerprint()
    ids = launcher_ids()
    cards = _read_cache(path, key, ids)
    if cards is None:
        cards = work_out_cards()
        _write_cache(path, key, cards)
    return cards
