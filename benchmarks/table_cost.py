"""The host's processor time per action, early and late in a long game at a table.

Six people play Railways of the World (Eastern US) at one table, each choosing a
random legal move when it is theirs: the longest games there are (over a
thousand actions). The host side is the real thing, in this process: the
table service, its store (the host's default, in a temporary folder) and the table socket.
The six players are another process, each with its own link to the socket, as
the app processes of an SSH host are; what they spend is theirs, not the
host's.

The host's processor time (all its threads, ``time.process_time``) is read at
every action; the figure per action is the time from one action's arrival to
the next's, which holds the action's checking, applying, keeping and sending
to six members. Reported for actions 10-109, 100-199 and 1,000-1,099, over
``--games`` games (3 by default; a game that ends before action 1,100 is left
out and another seed is dealt): mean, p95 and max, and the late window's mean
and p95 as a ratio of the first's (target: the 1,000 figure at most 1.3 times
the 10 figure).

    .venv/bin/python benchmarks/table_cost.py [--games N] [--seed S] [--json]

It runs on earlier versions of the host too (the table service's module moved),
so the same script measures a version before and after a change.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

WINDOWS = ((10, 110), (100, 200), (1000, 1100))
TARGET = 1.3
PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay")


def service_class() -> Any:
    try:
        from railgames.net.service import TableService
    except ImportError:  # the host before its table service was split
        from railgames.net.tables import TableService  # type: ignore[attr-defined,no-redef]
    return TableService


def host_store(data: Path) -> Any:
    """The store a host keeps its tables in by default (SQLite in its data directory); None
    on versions before it, whose table service keeps files of its own."""
    try:
        from railgames.net.sqlstore import open_store
    except ImportError:
        return None
    return open_store(None, data)


def players(socket_path: str, tokens: list[str], code_box: Any, seed: int, stop_at: int) -> None:
    """The six people, in a process of their own: each plays its seat's turns at random."""
    from railgames.core.errors import RailgamesError
    from railgames.net.remote import RemoteLink
    from railgames.tables.remote import RemoteSeat

    links = [RemoteLink(socket_path, token, timeout=60) for token in tokens]
    pick = random.Random(seed)
    first = links[0].request({"op": "create", "game": "railways-of-the-world", "seats": 6,
                              "humans": 6, "bots": "random"})
    code = str(first["code"])
    code_box.put(code)
    for link in links[1:]:
        link.request({"op": "join", "code": code})
    seats: list[Any] = [None] * len(links)
    lock = threading.Lock()
    changed = threading.Condition(lock)

    def listen(i: int) -> Any:
        def heard(message: dict[str, Any]) -> None:
            with lock:
                if message.get("code") == code and "view" in message:
                    if seats[i] is None:
                        seats[i] = RemoteSeat(links[i], message)
                    else:
                        seats[i].update(message)
                changed.notify_all()
        return heard

    for i, link in enumerate(links):
        link.listener = listen(i)
        if link.last_table is not None:
            link.listener(link.last_table)
    done = 0
    while done < stop_at:
        with lock:
            movers = [(i, s) for i, s in enumerate(seats) if s is not None and s.prompt() is not None
                      and s.prompt().seat == s.seat]
            if not movers:
                over = any(s is not None and s.prompt() is None for s in seats)
                if over:
                    break
                changed.wait(5)
                continue
            i, seat = movers[0]
            prompt = seat.prompt()
            choices = list(prompt.choices)
            amounts: list[int] = []
            if prompt.amount is not None:  # a few of its values, however long its range
                offered = prompt.amount.values()
                amounts = list(offered[:20]) if len(offered) > 20 else list(offered)
            version = int(seat.table.get("version", 0))
        if choices and (not amounts or pick.random() < 0.5):
            action = pick.choice(choices).model_dump(mode="json")
        else:
            action = {"type": prompt.amount.action_type, "seat": prompt.seat,
                      "amount": pick.choice(amounts)}
        try:
            links[i].request({"op": "act", "action": action})
            done += 1
        except RailgamesError:
            # The view had not caught up yet: wait for the next message and choose again.
            with lock:
                if int(seat.table.get("version", 0)) == version:
                    changed.wait(1)
    for link in links:
        link.close()


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"mean": statistics.fmean(ordered) * 1000,
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000,
            "max": ordered[-1] * 1000, "n": len(ordered)}


async def host(data: Path, seed: int, stop_at: int) -> dict[int, float]:
    """Run the table service and socket until the players stop; processor time at each action."""
    from railgames.net.tables import Login
    from railgames.net.tableserver import TableServer

    random.seed(seed)
    TableService = service_class()
    store = host_store(data)
    service = TableService(data / "tables", bot_delay=0, bot_workers=0,
                           **({"store": store} if store is not None else {}))
    server = TableServer(service, data / "t.sock")
    await server.start()
    tokens = [server.issue_token(Login(name=name, peer="bench")) for name in PLAYERS]
    stamps: dict[int, float] = {}
    import logging

    class Stamp(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            fields = getattr(record, "fields", None) or {}
            if fields.get("event") == "action":
                stamps[int(fields["index"])] = time.process_time()

    logger = logging.getLogger("railgames.host")
    logger.addHandler(Stamp())
    logger.setLevel(logging.INFO)
    logger.propagate = False
    context = multiprocessing.get_context("spawn")
    code_box = context.Queue()
    proc = context.Process(target=players, args=(str(server.socket_path), tokens, code_box,
                                                 seed, stop_at), daemon=True)
    proc.start()
    loop = asyncio.get_running_loop()
    while proc.is_alive():
        await asyncio.sleep(0.2)
    await loop.run_in_executor(None, proc.join, 10)
    await server.close()
    flush = getattr(service, "flush", None)
    if flush is not None:
        flush()
    if store is not None:
        store.close()
    return stamps


def measure(games: int, seed: int) -> tuple[dict[str, dict[str, float]], list[int]]:
    """Per-action costs in each window, pooled over ``games`` games long enough."""
    stop_at = WINDOWS[-1][1] + 1
    pooled: dict[str, list[float]] = {f"{a}-{b - 1}": [] for a, b in WINDOWS}
    seeds: list[int] = []
    tries = 0
    while len(seeds) < games and tries < games * 4:
        tries += 1
        with tempfile.TemporaryDirectory(prefix="railgames-cost-") as tmp:
            stamps = asyncio.run(host(Path(tmp), seed, stop_at))
        if max(stamps, default=0) + 1 < stop_at:
            seed += 1
            continue
        seeds.append(seed)
        seed += 1
        for (start, end), name in zip(WINDOWS, pooled, strict=True):
            pooled[name] += [stamps[i + 1] - stamps[i] for i in range(start, end)
                             if i in stamps and i + 1 in stamps]
    return {name: summary(costs) for name, costs in pooled.items() if costs}, seeds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows, seeds = measure(args.games, args.seed)
    if args.json:
        print(json.dumps({"windows": rows, "seeds": seeds}))
        return 0
    print(f"host processor time per action, Railways of the World, 6 people, "
          f"{len(seeds)} games (seeds {', '.join(map(str, seeds))}) (ms)")
    print(f"{'actions':>12} {'mean':>8} {'p95':>8} {'max':>8} {'n':>5}")
    for name, row in rows.items():
        print(f"{name:>12} {row['mean']:8.2f} {row['p95']:8.2f} {row['max']:8.2f} {row['n']:5.0f}")
    names = list(rows)
    if len(names) == len(WINDOWS):
        first, last = rows[names[0]], rows[names[-1]]
        ratio_mean, ratio_p95 = last["mean"] / first["mean"], last["p95"] / first["p95"]
        verdict = "met" if ratio_mean <= TARGET else "NOT met"
        print(f"actions {names[-1]} / {names[0]}: mean {ratio_mean:.2f}x, p95 {ratio_p95:.2f}x "
              f"(target mean <= {TARGET}x: {verdict})")
    else:
        print("no game reached the last window: try another --seed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
