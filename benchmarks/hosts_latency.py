"""How long a move takes to reach the other players' screens: at the same host, and at
another host sharing the same PostgreSQL database, measured in the same run.

Two ``railgames host --store postgresql://...`` processes and one database (a real
PostgreSQL server, started here as the tests start theirs: tests/pgserver.py) on this
machine. ``--tables`` tables of three seats are played at once, each seat's player
connected to one host or the other over its table socket, as an app process is: at table
``i`` the first player is at host a, the second at host b, the third at a or b by turns,
so every table has players at both hosts and every move is seen at the mover's own host
and at the other. A move is timed from the moment its player sends it to the moment each
other player's app process receives the change (the message its screen is drawn from;
what is drawn from it is the same work at either host). The moves of one table follow
each other as fast as the last one has reached everyone, so the figures are of the hosts
under the load of all the tables at once.

Printed: mean, p95 and max in milliseconds for a player at the mover's host and for one
at the other host, and the ratio of the p95s (target: at most 1.5).

    .venv/bin/python benchmarks/hosts_latency.py [--tables 20] [--moves 40] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from host_terminal import HostProcess  # noqa: E402
from pgserver import PgServer  # noqa: E402

from railgames.core.engine import Game  # noqa: E402
from railgames.games import load_ruleset  # noqa: E402
from railgames.net.sqlstore import PostgresTableStore  # noqa: E402

TARGET = 1.5
PASSWORD = "table-pw"


class Player:
    """One player's app process at one host: answers by id, and when changes arrive."""

    def __init__(self, name: str, host: str) -> None:
        self.name, self.host = name, host
        self.ids = 0
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.pushed = asyncio.Event()
        self.pushed_at = 0.0

    async def connect(self, host: HostProcess) -> None:
        path = (host.data_dir / "host" / "socket-path").read_text().strip()
        self.reader, self.writer = await asyncio.open_unix_connection(path, limit=1 << 22)
        self.task = asyncio.create_task(self._read())
        answer = await self.ask(op="login", name=self.name, password=PASSWORD, peer="127.0.0.1")
        assert answer.get("ok"), answer
        assert (await self.ask(op="claim", passphrase=f"{self.name} passphrase"))["ok"]

    async def _read(self) -> None:
        while line := await self.reader.readline():
            message = json.loads(line)
            future = self.answers.pop(message.get("id", -1), None)
            if future is not None:
                future.set_result(message)
            elif message.get("ev") == "table":
                self.pushed_at = time.perf_counter()
                self.pushed.set()

    async def ask(self, **message: Any) -> dict[str, Any]:
        self.ids += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[self.ids] = future
        self.writer.write(json.dumps({**message, "id": self.ids}).encode() + b"\n")
        return await asyncio.wait_for(future, 60)


async def one_table(i: int, hosts: dict[str, HostProcess], url: str, moves: int,
                    same: list[float], other: list[float]) -> None:
    where = ["a", "b", "a" if i % 2 else "b"]
    players = [Player(f"p{i}s{s}", where[s]) for s in range(3)]
    for player in players:
        await player.connect(hosts[player.host])
    made = await players[0].ask(op="create", game="steel-driver", seats=3, humans=3, seed=i)
    assert made["ok"], made
    code = made["code"]
    for player in players[1:]:
        for _ in range(400):
            joined = await player.ask(op="join", code=code)
            if joined.get("ok"):
                break
            await asyncio.sleep(0.05)
        assert joined.get("ok"), joined
    reader = PostgresTableStore(url)
    try:
        for _ in range(400):
            kept = await asyncio.to_thread(reader.load, code)
            if kept.record is not None:
                break
            await asyncio.sleep(0.05)
    finally:
        reader.close()
    assert kept.record is not None
    game = Game.replay(load_ruleset(kept.record.game, kept.record.map), kept.record)
    by_name = {p.name: p for p in players}
    rng = random.Random(i)
    await asyncio.sleep(1.0)  # every player has had the start
    for _ in range(moves):
        if game.is_over():
            break
        seat = game.ruleset.to_move(game.state)
        mover = by_name[game.players[seat].name]
        others = [p for p in players if p is not mover]
        action = rng.choice(game.legal_actions())
        for p in others:
            p.pushed.clear()
        start = time.perf_counter()
        answer = await mover.ask(op="act", action=action.model_dump(mode="json"))
        assert answer.get("ok"), answer
        game.apply(action)
        for p in others:
            await asyncio.wait_for(p.pushed.wait(), 60)
            (same if p.host == mover.host else other).append((p.pushed_at - start) * 1000)
    for player in players:
        player.writer.close()


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"n": len(ordered), "mean": statistics.fmean(ordered),
            "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], "max": ordered[-1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import tempfile

    server = PgServer()
    folder = Path(tempfile.mkdtemp(prefix="railgames-hosts-"))
    hosts: dict[str, HostProcess] = {}
    try:
        url = server.new_database()
        for name in ("a", "b"):
            hosts[name] = HostProcess(folder / name, "--store", url, "--per-ip", "200",
                                      password=PASSWORD).start()
        same: list[float] = []
        other: list[float] = []

        async def run() -> None:
            await asyncio.gather(*(one_table(i, hosts, url, args.moves, same, other)
                                   for i in range(args.tables)))

        asyncio.run(run())
    finally:
        for host in hosts.values():
            host.kill()
        server.stop()
    figures = {"same_host": summary(same), "other_host": summary(other)}
    ratio = figures["other_host"]["p95"] / figures["same_host"]["p95"]
    figures["p95_ratio"] = {"value": ratio, "target": TARGET}  # type: ignore[dict-item]
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{args.tables} tables of 3 seats at two hosts, one PostgreSQL database; "
              "ms from a move sent to the change received by another player")
        for key, label in (("same_host", "at the mover's host"), ("other_host", "at the other host")):
            f = figures[key]
            print(f"  {label:22} n={f['n']:5}  mean {f['mean']:7.2f}  p95 {f['p95']:7.2f}"
                  f"  max {f['max']:8.2f}")
        print(f"  p95 at the other host / at the same host: {ratio:.2f} (target <= {TARGET})")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
