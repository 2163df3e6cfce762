"""The New England board widget: drawing, cursor, choosing, and what a change repaints."""

from __future__ import annotations

import asyncio
import copy

import pytest
from textual.app import App, ComposeResult

from railgames.core.engine import Game
from railgames.core.maps import parse_map
from railgames.core.record import PlayerSpec
from railgames.games.new_england.board import (
    BUILT_GLYPHS,
    UNFINISHED_GLYPHS,
    BoardLayout,
    NewEnglandBoard,
    NewEnglandSlots,
    cube_text,
)
from railgames.games.new_england.board_map import NewEnglandMap
from railgames.games.new_england.rules import NewEnglandRules
from railgames.games.new_england.state import NEState
from tests.app.driving import spy_refresh

# A small board with background marks (':' borders, '~' sea), a state name and a
# bent link, laid out so every arrow has one obvious nearest city.
BOARD_TOML = """
id = "board-test"
game = "new-england"
kind = "graph"
title = "Board test"
grid = '''
 :::::::::::::::::::::::::::::::::::::::::::::::
 :                                             :
 :  Northfield                  Eastport       :
 :                                             :
 :                   uplands                   :
 :                                             :
 :  Westham           Midtown          Seaview :
 :                                          ~  :
 :                                        ~    :
 :  Southby                 Harbour     ~      :
 :                                             :
 :::::::::::::::::::::::::::::::::::::::::::::::
'''
setup_cubes = ["NOR", "EAS", "WES", "MID", "SEA", "SOU", "HAR", "MID"]

[commodities]
purple = 12
blue = 12
red = 11
yellow = 11

[starting_links]
"3" = ["WES-MID", "MID-SEA"]
"4" = ["WES-MID", "MID-SEA", "NOR-WES"]
"5" = ["WES-MID", "MID-SEA", "NOR-WES", "SOU-HAR"]
"6" = ["WES-MID", "MID-SEA", "NOR-WES", "SOU-HAR", "HAR-SEA"]

[[cities]]
id = "NOR"
name = "Northfield"
demand = "red"
[[cities]]
id = "EAS"
name = "Eastport"
demand = "blue"
[[cities]]
id = "WES"
name = "Westham"
demand = "purple"
[[cities]]
id = "MID"
name = "Midtown"
demand = "yellow"
[[cities]]
id = "SEA"
name = "Seaview"
demand = "red"
[[cities]]
id = "SOU"
name = "Southby"
demand = "blue"
[[cities]]
id = "HAR"
name = "Harbour"
demand = "purple"

[[links]]
id = "NOR-EAS"
a = "NOR"
b = "EAS"
value = 6
[[links]]
id = "NOR-WES"
a = "NOR"
b = "WES"
value = 4
[[links]]
id = "WES-MID"
a = "WES"
b = "MID"
value = 5
[[links]]
id = "MID-SEA"
a = "MID"
b = "SEA"
value = 5
[[links]]
id = "EAS-SEA"
a = "EAS"
b = "SEA"
value = 7
[[links]]
id = "WES-SOU"
a = "WES"
b = "SOU"
value = 4
[[links]]
id = "SOU-HAR"
a = "SOU"
b = "HAR"
value = 6
[[links]]
id = "HAR-SEA"
a = "HAR"
b = "SEA"
value = 8
[[links]]
id = "MID-HAR"
a = "MID"
b = "HAR"
value = 5
via = [[26, 8]]

[[growth_deck]]
cities = ["NOR", "SEA"]
[[growth_deck]]
cities = ["MID"]
[[growth_deck]]
cities = ["WES", "HAR", "EAS"]
"""

ROW = {"NOR": 2, "EAS": 2, "WES": 6, "MID": 6, "SEA": 6, "SOU": 9, "HAR": 9}


@pytest.fixture(scope="module")
def rules() -> NewEnglandRules:
    return NewEnglandRules(parse_map(BOARD_TOML, "board-test", NewEnglandMap))


@pytest.fixture
def state(rules: NewEnglandRules) -> NEState:
    game = Game.new(rules, [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], seed=5)
    return copy.deepcopy(game.state)


class BoardApp(App[None]):
    def __init__(self, rules: NewEnglandRules, state: NEState | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.initial_state = state
        self.chosen: list[str] = []
        self.moved: list[str] = []

    def compose(self) -> ComposeResult:
        board = NewEnglandBoard(self.rules, id="board")
        if self.initial_state is not None:
            board.update_state(self.initial_state)
        yield board

    def on_mount(self) -> None:
        self.query_one(NewEnglandBoard).focus()

    def on_board_city_chosen(self, message: NewEnglandBoard.CityChosen) -> None:
        self.chosen.append(message.city)

    def on_board_cursor_moved(self, message: NewEnglandBoard.CursorMoved) -> None:
        self.moved.append(message.city)


def between(board: NewEnglandBoard, row: int, left: str, right: str) -> str:
    """The drawn text of ``row`` between the labels ``left`` and ``right``."""
    text = board.row_text(row)
    start = text.index(left) + len(left)
    return text[start:text.index(right)]


# ------------------------------------------------------------------ drawing (no app needed)


def test_layout_never_draws_a_link_over_a_label_or_a_background_mark(rules: NewEnglandRules) -> None:
    layout = BoardLayout(rules.map)
    for path in layout.links.values():
        assert path.cells, "every link of the test board has room to be drawn"
        for col, row in path.cells:
            assert (col, row) not in layout.label_owner
            assert layout.chars[row][col] == " "


def test_a_bent_link_passes_through_its_via_point(rules: NewEnglandRules) -> None:
    assert (26, 8) in BoardLayout(rules.map).links["MID-HAR"].cells


def test_unowned_links_are_dotted_and_offered_links_show_their_slot(
    rules: NewEnglandRules, state: NEState
) -> None:
    board = NewEnglandBoard(rules)
    board.update_state(state)
    assert state.current == ["WES-MID", "MID-SEA"]
    westham_midtown = between(board, ROW["WES"], "Westham·P", "Midtown")
    assert "1" in westham_midtown and "━" in westham_midtown
    assert "2" in between(board, ROW["MID"], "Midtown·Y", "Seaview")
    assert set(between(board, ROW["NOR"], "Northfield·R", "Eastport").strip()) == {"·"}


def test_owner_letters_appear_along_an_owned_link(rules: NewEnglandRules, state: NEState) -> None:
    state.owner["NOR-EAS"] = 1  # Bob
    state.built.add("NOR-EAS")
    state.owner["SOU-HAR"] = 0  # Ann, bought but not built yet
    state.unfinished.append("SOU-HAR")
    board = NewEnglandBoard(rules)
    board.update_state(state)
    built = between(board, ROW["NOR"], "Northfield·R", "Eastport")
    assert "B═B═B" in built
    unfinished = between(board, ROW["SOU"], "Southby·B", "Harbour")
    assert "A╌╌A" in unfinished and "═" not in unfinished


def test_cities_show_demand_letters_and_waiting_cubes(rules: NewEnglandRules, state: NEState) -> None:
    state.cubes["SEA"] = {"blue": 2, "purple": 1}
    board = NewEnglandBoard(rules)
    board.update_state(state)
    assert "Seaview·R" in board.row_text(ROW["SEA"])
    assert "[BBP]" in board.row_text(ROW["SEA"] + 1)
    text = board.board_text()
    assert "uplands" in text  # the grid's own words survive


def test_many_cubes_are_counted() -> None:
    assert cube_text({"blue": 2, "purple": 1}) == "[BBP]"
    assert cube_text({"blue": 5, "red": 3}) == "[B5 R3]"
    assert cube_text({"blue": 5, "red": 3}, room=6) == "[B5R3]"
    assert cube_text({"blue": 5, "red": 3}, room=4) == "[8]"
    assert cube_text({}) == ""


def test_highlighted_cities_and_path_are_marked(rules: NewEnglandRules, state: NEState) -> None:
    state.owner["MID-SEA"] = 2
    state.built.add("MID-SEA")
    board = NewEnglandBoard(rules)
    board.update_state(state)
    board.set_highlight(["SEA", "EAS"], path=["MID", "SEA"])
    assert "▸Seaview" in board.row_text(ROW["SEA"])
    assert "▸Eastport" in board.row_text(ROW["EAS"])
    assert "▸Westham" not in board.row_text(ROW["WES"])
    col = board.row_text(ROW["SEA"]).index("Seaview")
    _, style = board._rows[ROW["SEA"]][col]
    assert style.underline and style.bold
    marker = board.layout_.places["SEA"].marker
    path_cells = [cell for cell in board.layout_.links["MID-SEA"].cells if cell != marker]
    assert path_cells and all(board._rows[r][c][1].reverse for c, r in path_cells)
    board.set_highlight()
    assert "▸" not in board.board_text()


def test_slots_list_this_turns_and_next_turns_links(rules: NewEnglandRules, state: NEState) -> None:
    state.future = ["EAS-SEA"]
    state.owner["WES-MID"] = 0
    text = NewEnglandSlots(rules).describe(state).plain
    assert "Now:  1  Westham–Midtown (5) → A" in text
    assert "2  Midtown–Seaview (5)" in text
    assert "Next:  a  Eastport–Seaview (7)" in text


# ------------------------------------------------------------------ in an app
# Each test drives the app in asyncio.run, so no async pytest plugin is needed.


def test_arrows_and_hjkl_move_the_cursor_to_the_nearest_city(rules: NewEnglandRules) -> None:
    async def scenario() -> None:
        app = BoardApp(rules)
        async with app.run_test(size=(60, 16)) as pilot:
            board = app.query_one(NewEnglandBoard)
            assert board.cursor_city == "NOR"
            expected = [
                ("down", "WES"), ("right", "MID"), ("right", "SEA"), ("up", "EAS"),
                ("left", "NOR"), ("j", "WES"), ("l", "MID"), ("j", "HAR"), ("h", "SOU"),
                ("k", "WES"), ("left", "WES"),  # nothing further left: the cursor stays
            ]
            for key, city in expected:
                await pilot.press(key)
                assert board.cursor_city == city, f"after {key}"
            await pilot.pause()
            assert app.moved == ["WES", "MID", "SEA", "EAS", "NOR", "WES", "MID", "HAR", "SOU", "WES"]

    asyncio.run(scenario())


def test_enter_and_click_choose_a_city(rules: NewEnglandRules, state: NEState) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(60, 16)) as pilot:
            board = app.query_one(NewEnglandBoard)
            await pilot.press("down", "enter")
            await pilot.pause()
            assert app.chosen == ["WES"]
            place = board.layout_.places["SEA"]
            await pilot.click(NewEnglandBoard, offset=(place.col0 + 2, place.row))
            await pilot.pause()
            assert app.chosen == ["WES", "SEA"]
            assert board.cursor_city == "SEA"

    asyncio.run(scenario())


def test_the_cursor_is_drawn_in_reverse_video_on_screen(rules: NewEnglandRules) -> None:
    async def scenario() -> None:
        app = BoardApp(rules)
        async with app.run_test(size=(60, 16)) as pilot:
            board = app.query_one(NewEnglandBoard)
            await pilot.press("right")
            await pilot.pause()
            strip = board.render_line(ROW["EAS"])
            assert "Eastport" in strip.text
            reversed_text = "".join(seg.text for seg in strip if seg.style and seg.style.reverse)
            assert reversed_text == "Eastport"

    asyncio.run(scenario())


def test_a_cursor_move_repaints_only_the_two_labels(
    rules: NewEnglandRules, state: NEState, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(60, 16)) as pilot:
            board = app.query_one(NewEnglandBoard)
            await pilot.pause()
            calls = spy_refresh(board, monkeypatch)
            await pilot.press("right")
            await pilot.pause()
            assert board.cursor_city == "EAS"
            assert calls, "the move repainted something"
            assert all(regions for regions in calls), "no whole-widget refresh"
            regions = [r for regions in calls for r in regions]
            assert {r.y for r in regions} == {ROW["NOR"]}
            assert sum(r.area for r in regions) <= len("Northfield") + len("Eastport") + 24

    asyncio.run(scenario())


def test_a_state_change_repaints_only_the_rows_that_changed(
    rules: NewEnglandRules, state: NEState, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        app = BoardApp(rules, state)
        async with app.run_test(size=(60, 16)) as pilot:
            board = app.query_one(NewEnglandBoard)
            await pilot.pause()
            calls = spy_refresh(board, monkeypatch)
            changed = copy.deepcopy(state)
            changed.cubes["SOU"] = {"yellow": 5}
            board.update_state(changed)
            assert all(regions for regions in calls)
            assert {r.y for regions in calls for r in regions} == {ROW["SOU"] + 1}
            calls.clear()
            board.update_state(changed)
            assert calls == []

    asyncio.run(scenario())


@pytest.mark.parametrize("built", [True, False], ids=["built", "bought"])
def test_every_owned_link_shows_its_owner_and_whether_it_is_built_in_plain_text(built: bool) -> None:
    # The real map, where some links are one or two cells squeezed between labels
    # (Boston-Worcester is a single '╱'). In plain text (what NO_COLOR shows) each
    # owned link carries its owner's letter, and a built link's glyphs are never a
    # link still to be built's: slanted ones included.
    from railgames.games import load_ruleset

    rules = load_ruleset("new-england")
    assert isinstance(rules, NewEnglandRules)
    state = copy.deepcopy(Game.new(rules, [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                                   seed=5).state)
    for i, link in enumerate(rules.map.links):
        state.owner[link.id] = i % 3
        (state.built.add(link.id) if built else state.unfinished.append(link.id))
    board = NewEnglandBoard(rules)
    board.update_state(state)
    glyphs = set(BUILT_GLYPHS if built else UNFINISHED_GLYPHS)
    others = set(UNFINISHED_GLYPHS if built else BUILT_GLYPHS) - glyphs
    assert others, "built and unbuilt links share no glyph"
    for link, path in board.layout_.links.items():
        drawn = [board.row_text(row)[col] for col, row in path.cells]
        assert "ABC"[state.owner[link]] in drawn, (link, drawn)
        assert not others & set(drawn), (link, drawn)
    assert len(board.layout_.links["BOS-WOR"].cells) == 1
