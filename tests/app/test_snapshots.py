"""How the screens look, at 80x24 and 120x40 (pytest-textual-snapshot)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.scenes import scenes

SIZES = [(80, 24), (120, 40)]
NAMES = ["launcher", "setup", "board", "shipping", "handoff", "help", "game_over",
         "pc_board", "pc_game_over", "sd_board", "sd_claim", "sd_game_over", "demo", "ar_board",
         "ar_game_over", "rotw_board", "rotw_game_over"]
# Every other kind of decision of every game, and the screens around a game, at 80x24
# (the smallest size every screen is laid out for). The lists are walked to their end.
SMALL_ONLY = ["ne_loans", "ne_ship_board", "ne_finish", "pc_turn_end", "pc_trade", "pc_build_end",
              "sd_auction_end", "sd_opening", "sd_bidding", "sd_build_list", "log_view",
              "final_board", "final_log", "setup_help", "handoff_quit"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", NAMES)
def test_screen_looks_the_same(snap_compare, tmp_path: Path, name: str, size: tuple[int, int]) -> None:
    app, keys = scenes(tmp_path / "records")[name]()
    assert snap_compare(app, press=[*keys, "_"], terminal_size=size)


@pytest.mark.parametrize("name", SMALL_ONLY)
def test_every_kind_of_screen_at_80x24(snap_compare, tmp_path: Path, name: str) -> None:
    app, keys = scenes(tmp_path / "records")[name]()
    assert snap_compare(app, press=[*keys, "_"], terminal_size=(80, 24))


def test_too_small_a_terminal_gets_one_line(snap_compare, tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["pc_turn_end"]()
    assert snap_compare(app, press=[*keys, "_"], terminal_size=(60, 20))


def test_setup_focus_shows_without_colour(snap_compare, monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app, keys = scenes(tmp_path / "records")["setup"]()
    # Start (focused on opening), then the player count's dropdown.
    assert snap_compare(app, press=[*keys, "tab", "tab", "tab", "_"], terminal_size=(80, 24))
