"""Each shipped game's descriptor agrees with its parts, and the registry refuses what is not a game."""

from __future__ import annotations

import pytest

from railgames.games import (
    GAMES,
    SHIPPED,
    UnknownGame,
    descriptor,
    help_text,
    register,
    ruleset_class,
)
from railgames.games.descriptor import GameDescriptor


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_descriptor_agrees_with_its_rules(game_id: str) -> None:
    game = descriptor(game_id)
    cls = ruleset_class(game_id)
    assert (cls.id, cls.title, cls.min_players, cls.max_players) == (
        game.id, game.title, *game.players)
    assert cls.__module__.startswith(game.package + ".")
    assert game.load(game.board).__name__ and (game.ui is None or game.load(game.ui))
    assert help_text(game_id)


def test_every_shipped_folder_is_a_game_in_the_launchers_order() -> None:
    assert [descriptor(g).package.rsplit(".", 1)[1] for g in GAMES] == list(SHIPPED)


def test_an_unknown_game_is_named_with_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match="no game called 'chess' \\(known games: american-rails"):
        ruleset_class("chess")


def test_a_game_cannot_be_registered_twice() -> None:
    twin = GameDescriptor(id="new-england", title="Twin", players=(2, 2), package="x",
                          rules="rules:X", board="board:X")
    with pytest.raises(Exception, match="registered already"):
        register(twin)
    assert descriptor("new-england").title == "New England Railways"
