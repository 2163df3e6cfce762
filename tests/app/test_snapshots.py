"""How the screens look, at 80x24 and 120x40 (pytest-textual-snapshot)."""

from __future__ import annotations

from pathlib import Path

import pytest

from railgames.app.scenes import scenes

SIZES = [(80, 24), (120, 40)]
NAMES = ["launcher", "setup", "board", "shipping", "handoff", "help", "game_over",
         "pc_board", "pc_game_over", "sd_board", "sd_claim", "sd_game_over", "demo"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", NAMES)
def test_screen_looks_the_same(snap_compare, tmp_path: Path, name: str, size: tuple[int, int]) -> None:
    app, keys = scenes(tmp_path / "records")[name]()
    assert snap_compare(app, press=[*keys, "_"], terminal_size=size)
