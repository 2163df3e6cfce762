"""What the host sends each member: only what changed, and it adds up to the whole view."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_host_tables import Inbox, member

from railgames.core.engine import Prompt
from railgames.games import load_ruleset, playable_games
from railgames.net.service import TableService
from railgames.net.tables import Member
from railgames.net.wire import decode, encode


def people_at(service: TableService, game_id: str, names: tuple[str, ...] = ("ann", "bob", "cat"),
              seed: int | None = None) -> tuple[Any, list[tuple[Member, Inbox]]]:
    """A table of ``game_id`` where every seat is a person; the table and its people."""
    people = [member(n) for n in names]
    table = service.create(people[0][0], game_id, seats=len(names), humans=len(names), seed=seed)
    for m, _ in people[1:]:
        service.join(m, table.code)
    assert table.game is not None
    return table, people


def play_at_random(service: TableService, table: Any, people: list[tuple[Member, Inbox]],
                   moves: int, seed: int) -> None:
    """``moves`` random legal moves, each by the person whose turn it is."""
    game = table.game
    pick = random.Random(seed)
    for _ in range(moves):
        prompt = game.prompt()
        if prompt is None:
            return
        service.act(people[prompt.seat][0], pick.choice(game.legal_actions()).model_dump(mode="json"))


GAMES = ["new-england", "paris-connection", "steel-driver", "railways-of-the-world",
         "american-rails"]


def as_sent(obj: Any) -> str:
    return json.dumps(encode(obj), sort_keys=True)


def check_views(service: TableService, code: str, people: list[tuple[Member, Inbox]]) -> None:
    """Each member's messages so far, put together, give what that seat may see now."""
    table = service.tables[code]
    game = table.game
    assert game is not None
    prompt = game.prompt()
    for m, inbox in people:
        seen = inbox.view()
        seat = m.seat
        expected = game.view(seat)
        assert as_sent(seen["state"]) == as_sent(expected)
        assert as_sent([e for e in seen["events"] if e.visible(seat)]) == \
            as_sent(game.events_for(seat))
        if prompt is not None and prompt.seat != seat:
            prompt_seen = Prompt(seat=prompt.seat, step=prompt.step, text=prompt.text,
                                 help=prompt.help)
        else:
            prompt_seen = prompt
        assert as_sent(seen["prompt"]) == as_sent(prompt_seen)
        assert as_sent(seen["result"]) == as_sent(game.result())
        assert inbox.last["version"] == len(game.record.actions)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_changes_sent_add_up_to_each_seats_view(tmp_path: Path, game_id: str) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    table, people = people_at(service, game_id)
    watcher = member("zed")
    service.join(watcher[0], table.code, watch=True)
    game = table.game
    assert game is not None
    pick = random.Random(11)
    for step in range(250):
        prompt = game.prompt()
        if prompt is None:
            break
        mover = people[prompt.seat][0]
        if step % 37 == 36 and game.undo_refusal(prompt.seat) is None:
            service.undo(mover)  # the next message is the whole view again
        else:
            service.act(mover, pick.choice(game.legal_actions()).model_dump(mode="json"))
        if step % 25 == 0 or game.is_over():
            check_views(service, table.code, [*people, watcher])
    check_views(service, table.code, [*people, watcher])


def test_another_seats_secrets_are_never_sent(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    table, people = people_at(service, "paris-connection")
    game = table.game
    play_at_random(service, table, people, 40, seed=5)
    for seat, (_, inbox) in enumerate(people):
        text = json.dumps(inbox.messages)
        for other, p in enumerate(game.state.players):
            if other != seat:
                assert f'"{p.name} is dealt' not in text
        for message in inbox.messages:
            parts = message.get("view", {}).get("parts", {})
            if "players" in parts:
                shown = decode(parts["players"])
                assert all(p.shares is None for i, p in enumerate(shown) if i != seat)
            sent_prompt = message.get("view", {}).get("prompt")
            if sent_prompt is not None and decode(sent_prompt).seat != seat:
                assert decode(sent_prompt).choices == []
        assert '"#r"' not in text or '"seed"' not in text  # no random source is sent seeded


def test_what_a_member_is_sent_per_action_does_not_grow_with_the_game(tmp_path: Path) -> None:
    """Six people play Railways of the World at random for 1,000 actions: the bytes each
    is sent per action late in the game stay those of its start, not of its log."""
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    table, people = people_at(service, "railways-of-the-world",
                              ("ann", "bob", "cat", "dan", "eve", "fay"), seed=4)
    game = table.game
    assert game is not None
    watched = people[0][1]
    sizes: list[int] = []
    pick = random.Random(2)
    while len(game.record.actions) < 1000 and game.prompt() is not None:
        prompt = game.prompt()
        assert prompt is not None
        before = len(watched.messages)
        service.act(people[prompt.seat][0],
                    pick.choice(game.legal_actions()).model_dump(mode="json"))
        sizes.append(sum(len(json.dumps(m)) for m in watched.messages[before:]))
    assert len(sizes) >= 1000, "the game ended early: pick another seed"
    early = sorted(sizes[10:110])
    late = sorted(sizes[900:1000])
    # Medians and 90th percentiles: late in the game within 1.5 times the start.
    assert late[50] <= 1.5 * early[50] and late[90] <= 1.5 * early[90]
    assert max(sizes[1:]) < 64 * 1024  # never the whole log again


def test_nobody_at_the_table_and_the_bots_wait(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    ann, _ = member("ann")
    table = service.create(ann, "steel-driver", seats=3, humans=1)
    game = table.game
    assert game is not None

    async def scenario() -> None:
        await service.run_bots(table)  # the bots play up to Ann's turn
        while (prompt := game.prompt()) is not None and prompt.seat == 0:
            service.act(ann, game.legal_actions()[0].model_dump(mode="json"))
        assert prompt is not None and table.seats[prompt.seat].kind != "human"
        service.leave(ann)  # Ann goes as soon as it is a bot's turn
        count = len(game.record.actions)
        await service.run_bots(table)
        assert len(game.record.actions) == count  # nobody there: the bots wait
        service.join(ann, table.code)
        await service.run_bots(table)
        assert len(game.record.actions) > count
        await service.settled(table)

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_bots_may_play_to_an_empty_table_when_the_host_says_so(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0, unattended=True)
    ann, _ = member("ann")
    table = service.create(ann, "steel-driver", seats=3, humans=1)
    game = table.game
    assert game is not None
    while (prompt := game.prompt()) is not None and prompt.seat == 0:
        service.act(ann, game.legal_actions()[0].model_dump(mode="json"))
    service.leave(ann)  # as soon as a bot is to move
    asyncio.run(asyncio.wait_for(service.run_bots(table), 60))
    assert any(a["seat"] != 0 for a in game.record.actions)


def test_an_empty_seat_goes_to_a_bot_only_while_someone_plays_on(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_takeover=60, bot_workers=0)
    ann, _ = member("ann")
    bob, _ = member("bob")
    table = service.create(ann, "paris-connection", seats=3, humans=2)
    service.join(bob, table.code)
    service.leave(ann)
    service.leave(bob)
    for seat in table.seats[:2]:
        seat.empty_since = 0.0
    service.tick(10_000.0)  # both long gone, nobody there: nothing is taken over
    assert not any(s.bot_taken for s in table.seats)
    service.join(bob, table.code)
    service.tick(10_000.0)
    assert table.seats[0].bot_taken and not table.seats[1].bot_taken


def test_a_seat_whose_player_left_is_sent_as_not_connected(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    ann, ann_in = member("ann")
    bob, _ = member("bob")
    table = service.create(ann, "paris-connection", seats=3, humans=2)
    service.join(bob, table.code)
    assert ann_in.last["seats"][1]["connected"]
    count = len(ann_in.messages)
    service.leave(bob)
    assert len(ann_in.messages) == count + 1 and not ann_in.last["seats"][1]["connected"]
    assert "file" not in ann_in.last and str(tmp_path) not in json.dumps(ann_in.messages)


@pytest.mark.parametrize("cls", playable_games(), ids=lambda c: c.id)
def test_every_games_objects_travel_as_json_and_come_back_the_same(cls: Any) -> None:
    from railgames.core.engine import Game
    from railgames.core.record import PlayerSpec

    rules = load_ruleset(cls.id, None)
    game = Game.new(rules, [PlayerSpec(name=f"P{i}") for i in range(rules.max_players)], 4)
    pick = random.Random(4)
    for _ in range(150):
        prompt = game.prompt()
        if prompt is None:
            break
        for value in (game.view(None), game.view(prompt.seat), prompt, game.events_for(0),
                      game.result(), game.players):
            text = json.dumps(encode(value))
            assert json.dumps(encode(decode(json.loads(text)))) == text
        game.apply(pick.choice(game.legal_actions()))


def test_a_seat_opened_after_several_messages_starts_from_all_of_them(tmp_path: Path) -> None:
    """The app opens the game screen from the latest message it has, which may hold only
    what changed: the link keeps every message merged, so nothing is missed."""
    import socket
    import threading
    import time

    from railgames.net.protocol import encode as to_line
    from railgames.net.remote import RemoteLink
    from railgames.tables.remote import RemoteSeat

    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    table, people = people_at(service, "steel-driver")
    game = table.game
    play_at_random(service, table, people, 30, seed=8)
    ann_in = people[0][1]
    sent = [{k: v for k, v in m.items() if k != "seq"} for m in ann_in.messages]
    assert sum("view" in m and not m["view"]["reset"] for m in sent) > 20

    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)

    def host() -> None:
        conn, _ = server.accept()
        with conn:
            for message in sent:
                conn.sendall(to_line(message))
            time.sleep(5)

    threading.Thread(target=host, daemon=True).start()
    link = RemoteLink(str(path), None)
    try:
        deadline = time.monotonic() + 30
        while (link.last_table is None or link.last_table["seq"] < len(sent)) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        seat = RemoteSeat(link, link.last_table)  # type: ignore[arg-type]
        assert as_sent(seat.view(0)) == as_sent(game.view(0))
        assert [e.text for e in seat.events_for(0)] == [e.text for e in game.events_for(0)]
        # Messages the screen's listener hands over late are not taken twice.
        for message in ann_in.messages:
            assert not seat.update(message)
        assert [e.text for e in seat.events_for(0)] == [e.text for e in game.events_for(0)]
    finally:
        link.close()
        server.close()
