"""Two real ``railgames host`` processes on one PostgreSQL database: three players split
across them play a game to the end, and when one host is killed mid-game its players log
in at the other, sit down again and go on.

Players talk to each host over its table socket as a browser player's app does (a name,
the table password at a first login, then the name's own passphrase at any host: the
register of players is in the database too). The test keeps its own copy of the game to
choose legal moves; the database keeps the one that counts.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
from pathlib import Path
from typing import Any

from host_terminal import HostProcess

from railgames.core.engine import Game
from railgames.games import load_ruleset
from railgames.net.sqlstore import PostgresTableStore

PASSWORD = "table-pw"


class Player:
    def __init__(self, name: str) -> None:
        self.name = name
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.ids = 0
        self.pushes = 0

    async def connect(self, host: HostProcess, first: bool) -> None:
        path = (host.data_dir / "host" / "socket-path").read_text().strip()
        self.reader, self.writer = await asyncio.open_unix_connection(path)
        secret = PASSWORD if first else f"{self.name} own passphrase"
        answer = await self.ask(op="login", name=self.name, password=secret, peer="127.0.0.1")
        assert answer.get("ok"), answer
        if first:
            assert answer.get("choose")
            assert (await self.ask(op="claim", passphrase=f"{self.name} own passphrase"))["ok"]

    async def ask(self, **message: Any) -> dict[str, Any]:
        assert self.reader is not None and self.writer is not None
        self.ids += 1
        self.writer.write(json.dumps({**message, "id": self.ids}).encode() + b"\n")
        while True:
            line = await asyncio.wait_for(self.reader.readline(), 30)
            if not line:
                return {"ok": False, "reason": "closed"}
            answer = json.loads(line)
            if answer.get("id") == self.ids:
                return dict(answer)
            self.pushes += 1


async def move(players: dict[str, Player], game: Game, rng: random.Random) -> None:
    """The player to move makes a legal move at their own host; a host that has not yet
    heard of the move before it refuses, so the player tries again a moment later, as a
    person would once their screen shows their turn."""
    seat = game.ruleset.to_move(game.state)
    assert seat is not None
    player = players[game.players[seat].name]
    action = rng.choice(game.legal_actions())
    for _ in range(200):
        answer = await player.ask(op="act", action=action.model_dump(mode="json"))
        if answer.get("ok"):
            game.apply(action)
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{player.name}'s move was refused: {answer}")


def test_a_host_killed_mid_game_its_players_go_on_at_the_other(pg_url: str,
                                                               tmp_path: Path) -> None:
    store = ["--store", pg_url]
    a = HostProcess(tmp_path / "a", *store, password=PASSWORD).start()
    b = HostProcess(tmp_path / "b", *store, password=PASSWORD).start()

    async def test() -> None:
        ann, bo, cy = Player("Ann"), Player("Bo"), Player("Cy")
        await ann.connect(a, first=True)
        made = await ann.ask(op="create", game="steel-driver", seats=3, humans=3, seed=11)
        assert made["ok"], made
        code = made["code"]
        await bo.connect(b, first=True)
        for _ in range(200):  # the table reaches host b as soon as it is told of it
            joined = await bo.ask(op="join", code=code)
            if joined.get("ok"):
                break
            await asyncio.sleep(0.05)
        assert joined.get("ok"), joined
        await cy.connect(a, first=True)
        assert (await cy.ask(op="join", code=code))["ok"]
        players = {"Ann": ann, "Bo": bo, "Cy": cy}
        reader = PostgresTableStore(pg_url)
        try:
            for _ in range(100):
                kept = reader.load(code)
                if kept.record is not None:
                    break
                await asyncio.sleep(0.05)
            assert kept.record is not None
            game = Game.replay(load_ruleset(kept.record.game, kept.record.map), kept.record)
            rng = random.Random(2)
            for _ in range(30):
                await move(players, game, rng)
            # Host a dies at once; Ann and Cy log in at host b with their own passphrases.
            a.kill(signal.SIGKILL)
            for name in ("Ann", "Cy"):
                players[name] = Player(name)
                await players[name].connect(b, first=False)
                assert (await players[name].ask(op="join", code=code))["ok"]
            while not game.is_over():
                await move(players, game, rng)
            kept = reader.load(code)
            assert kept.record is not None and kept.record.actions == game.record.actions
            assert len(kept.record.actions) > 60
        finally:
            reader.close()
        assert bo.pushes > 30  # Bo, at host b from the start, was shown the moves made at a

    try:
        asyncio.run(asyncio.wait_for(test(), 240))
    finally:
        a.kill()
        b.kill()
