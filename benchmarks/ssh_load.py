"""Load on ``railgames host``: N SSH sessions at once, each moving a cursor and playing.

Sessions sit three to a Paris Connection table (``--per-table 1``: each alone
with two bots, which move every second). Each moves the board cursor about once
a second and takes its turn when it comes (the first build offered, one hex,
end). The key-to-echo latency is the time from sending an arrow key until the
emulated screen names the cursor's new place; a key that gets no such echo in
3 s (it went to the list of choices during the session's turn) is counted as
``no_echo``, not timed.

At each N (1, 5, 10, 20, 30, 40, 50 by default) it reports the sessions held,
the memory (RSS of the host, of every app process per session, of the bot
worker, and the total), the latency p50/p95/max, the actions played, and the
machine's load average; it says where it degrades (p95 over 100 ms, or a
session lost). Loopback only, bounded in time (--time-limit).

    .venv/bin/python benchmarks/ssh_load.py            # up to 50 sessions
    .venv/bin/python benchmarks/ssh_load.py --steps 1,5,10 --seconds 10

With ``--hostile`` it measures something else: 20 players (``--players``) play as
above while a hostile client comes and goes beside them: after a first round not
counted (the start-up settling), rounds without and with it in turn. The hostile
client is a flooder: one SSH session (asyncssh's client, in a process of its
own) that sends random bytes as fast as the host takes them, Ctrl-C and all, and
logs in again whenever its app ends (random keys soon quit it). It reports the
players' key-to-echo mean, p95 and max with and without it, over all rounds and
round by round, with the processor time of the host and of its app processes in
each round; the target is p95 with it at most 1.5 times p95 without.

    .venv/bin/python benchmarks/ssh_load.py --hostile --rounds 5 --seconds 15

With ``--table-cost`` it reports what a table costs the host per action, early and
late in a long game: the host's processor time per action at actions 10, 100 and
1,000 of a Railways of the World table of six people (``table_cost.py``, which
holds the measurement; the 1,000 figure is to be at most 1.3 times the 10 one).

    .venv/bin/python benchmarks/ssh_load.py --table-cost
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from host_terminal import HostProcess, Terminal  # noqa: E402

from railgames.core.engine import Game  # noqa: E402
from railgames.core.errors import RailgamesError  # noqa: E402
from railgames.games import load_ruleset  # noqa: E402

TARGET_P95 = 0.100  # seconds, at 20 sessions
MIN_KEYS = 20  # timed keys a step needs before its p95 counts
SHIFT_TAB = "\x1b[Z"
CTRL_S = "\x13"
# The board's cursor line names the hex under it ("Cursor the Eiffel Tower: ...").
CURSOR = re.compile(r"Cursor (\S[^│\n]*?)\s*│")


def rss_of_tree(pid: int) -> tuple[int, int, int]:
    """RSS in bytes, from /proc: the host, its app processes, its bot workers."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    worker: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        pid_here = int(entry.name)
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(pid_here)
        if b"multiprocessing" in cmdline:
            worker.add(pid_here)
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss[pid_here] = int(line.split()[1]) * 1024
    apps = workers = 0
    todo = list(children.get(pid, []))
    while todo:
        p = todo.pop()
        if p in worker:
            workers += rss.get(p, 0)
        else:
            apps += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return rss.get(pid, 0), apps, workers


class TableRows:
    """Each table's game as the host's store keeps it, brought up to date by applying only
    the actions kept since it was last read: the measuring side must not spend the time it
    measures replaying games (a whole replay per question blocked its loop, and every echo
    waited behind it)."""

    def __init__(self) -> None:
        self.stores: dict[Path, Any] = {}
        self.known: dict[tuple[Path, str], tuple[int, list[str], Game | None]] = {}

    def store(self, data_dir: Path) -> Any:
        if data_dir not in self.stores:
            from railgames.net.sqlstore import open_store

            self.stores[data_dir] = open_store(None, data_dir)  # the host's tables.sqlite3
        return self.stores[data_dir]

    def codes(self, data_dir: Path) -> list[str]:
        try:
            return list(self.store(data_dir).list())
        except RailgamesError:
            return []

    def get(self, data_dir: Path, code: str) -> tuple[list[str], Game | None]:
        store = self.store(data_dir)
        seen = self.known.get((data_dir, code))
        try:
            if seen is not None:
                version, seats, game = seen
                entries = store.since(code, version)
                if entries is not None and all(e.keys() - {"at"} <= {"act", "chat", "timeout"}
                                               for e in entries):
                    if game is not None or not any("act" in e for e in entries):
                        for entry in entries:
                            if "act" in entry and game is not None:
                                game.apply(entry["act"])
                        self.known[(data_dir, code)] = (version + len(entries), seats, game)
                        return seats, game
            stored = store.load(code)
        except RailgamesError:
            return (seen[1], seen[2]) if seen else ([], None)
        seats = [seat.name for seat in stored.settings.seats]
        record = stored.record
        game = Game.replay(load_ruleset(record.game, record.map), record) if record else None
        self.known[(data_dir, code)] = (stored.version, seats, game)
        return seats, game


TABLES = TableRows()


class Player:
    def __init__(self, index: int, port: int, password: str, data_dir: Path) -> None:
        self.name = f"p{index:02d}"
        self.data_dir = data_dir
        self.port = port
        self.password = password
        self.term = Terminal(120, 40)
        self.latencies: list[float] = []
        self.missed = 0  # keys with no echo within 3 s
        self.lost = False
        self.place = ""
        self.keys: list[Any] | None = None  # log in with these keys (a host with --authorized-keys)

    def anew(self) -> Player:
        """The same player in a new session."""
        again = Player(int(self.name[1:]), self.port, self.password, self.data_dir)
        again.keys = self.keys
        return again

    async def sit_down(self, humans: int = 1, code: str | None = None) -> str:
        """Host a table (``code`` None) for ``humans`` people, or join table ``code``."""
        t = self.term
        if self.keys is not None:
            await t.open(self.port, self.name, None, client_keys=self.keys)
        else:
            await t.open(self.port, self.name, self.password)
        await t.wait_for("Host a table", 120)
        if code is None:
            t.press("g")  # from the player's tables to the games' list
            await t.wait_for("Watch a demo", 30)
            t.press("down")  # Paris Connection
            await t.wait_for("Paris Connection\\s+│", 30)
            t.press("h")
            await t.wait_for("Open the table", 30)
            await t.wait_for("Game\\s+Paris Connection", 30)
            # The Players list, a key at a time: on a loaded machine keys sent together
            # may reach the app in one read, and a list then takes only the first.
            for key in (SHIFT_TAB, SHIFT_TAB, "enter",
                        *(["up"] if humans == 1 else ["down"] * (humans - 2)), "enter"):
                t.press(key)
                await asyncio.sleep(0.5)
            await t.wait_for(f"Players\\s+{humans} ", 30)
            t.press(CTRL_S)
            if humans > 1:
                code = (await t.wait_for(r"Table ([A-Z]{4})", 60)).group(1)
        else:
            t.press("j")
            await t.wait_for("Code", 30)
            t.press(code, "enter")
        return code or ""

    async def ready(self) -> None:
        t = self.term
        await t.wait_for("Paris Connection · turn", 120)
        found = await t.wait_for(CURSOR.pattern, 60)
        self.place = found.group(1)
        # The screen stays emulated: the app writes only the cells that change, so a
        # cursor move may send a few letters where the line now names another hex.

    def my_turn(self) -> bool:
        """Is this session's seat to move? (Read from the host's saved tables.)"""
        for code in TABLES.codes(self.data_dir):
            seats, game = TABLES.get(self.data_dir, code)
            if game is None or self.name not in seats:
                continue
            prompt = game.prompt()
            return prompt is not None and prompt.seat == seats.index(self.name)
        return False

    def cursor_line(self) -> str:
        """The screen's line that names the cursor's place: only that line is read at each
        change (reading the whole screen each time was most of what the measuring side
        spent with many sessions)."""
        screen = self.term.screen

        def line(y: int) -> str:
            row = screen.buffer[y]
            return "".join(row[x].data for x in range(screen.columns))

        row = getattr(self, "_cursor_row", None)
        if row is not None:
            text = line(row)
            if "Cursor " in text:
                return text
        for y in range(screen.lines):
            text = line(y)
            if "Cursor " in text:
                self._cursor_row = y
                return text
        return ""

    async def key_to_echo(self, key: str) -> float | None:
        """Seconds from the key to output naming the cursor's new place (None: none in 3 s)."""
        t = self.term
        t.mark()
        sent = time.perf_counter()
        t.press(key)
        while time.perf_counter() - sent < 3.0:
            found = CURSOR.search(self.cursor_line())
            if found and found.group(1) != self.place:
                self.place = found.group(1)
                return time.perf_counter() - sent
            t.changed.clear()
            try:
                await asyncio.wait_for(t.changed.wait(), 0.2)
            except TimeoutError:
                pass
        return None

    async def play(self, until: float) -> None:
        step = 0
        while time.monotonic() < until:
            key = "right" if step % 2 == 0 else "left"
            try:
                latency = await self.key_to_echo(key)
            except Exception:
                self.lost = True
                return
            if latency is not None:
                self.latencies.append(latency)
            else:
                self.missed += 1
            step += 1
            if step % 3 == 0 and self.my_turn():  # the first build offered, one hex, done
                for key in ("enter", "enter", "e"):
                    self.term.press(key)
                    await asyncio.sleep(0.4)

            await asyncio.sleep(1.0)
        if self.term.conn is None or self.term.proc is None or self.term.proc.exit_status is not None:
            self.lost = True


def host_echoes(path: Path, since: float) -> list[float]:
    """Milliseconds from key to the app's first output, as the host timed them since ``since``."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        stamp, _, ms = line.partition(" ")
        try:
            if float(stamp) >= since:
                out.append(float(ms))
        except ValueError:
            continue
    return sorted(out)


def moves_played(data_dir: Path) -> int:
    total = 0
    for code in TABLES.codes(data_dir):
        _seats, game = TABLES.get(data_dir, code)
        total += len(game.record.actions) if game is not None else 0
    return total


async def seat_players(new: list[Player], per_table: int, retries: int = 0
                       ) -> tuple[list[Player], list[BaseException]]:
    """Seat ``new`` at tables of ``per_table``; a table that could not open is tried again
    with new sessions (``retries`` times), then its players are left out."""
    async def seat_group(group: list[Player]) -> list[Player]:
        code = await group[0].sit_down(len(group))
        await asyncio.gather(*(p.sit_down(code=code) for p in group[1:]))
        await asyncio.gather(*(p.ready() for p in group))
        return group

    groups = [new[i:i + per_table] for i in range(0, len(new), per_table)]
    seated: list[Player] = []
    failed: list[BaseException] = []
    for _ in range(retries + 1):
        results = await asyncio.gather(*(seat_group(g) for g in groups), return_exceptions=True)
        again = []
        for group, result in zip(groups, results, strict=True):
            if isinstance(result, BaseException):
                failed.append(result)
                for p in group:
                    p.term.abort()
                again.append([p.anew() for p in group])
            else:
                seated.extend(group)
        groups = again
        if not groups:
            break
    return seated, failed


async def run(steps: list[int], seconds: float, deadline: float, data_dir: Path,
              per_table: int) -> list[dict]:
    echo_log = data_dir / "echo.log"  # the host's side of each key (see Host.note_echo)
    os.environ["RAILGAMES_ECHO_LOG"] = str(echo_log)
    host = HostProcess(data_dir, "--max-sessions", str(max(steps) + 5), "--per-ip",
                       str(max(steps) + 5), "--bot-delay", "1.0").start()
    # (--bot-delay is given twice: the last one, 1 s, paces the bots like people.)
    rows: list[dict] = []
    players: list[Player] = []
    try:
        for n in steps:
            if time.monotonic() > deadline:
                print(f"time limit reached before N={n}", flush=True)
                break
            new = [Player(i, host.port, host.password, data_dir) for i in range(len(players), n)]
            started = time.perf_counter()
            seated, failed = await seat_players(new, per_table)
            players.extend(seated)
            open_time = time.perf_counter() - started
            for p in players:
                p.latencies.clear()
                p.missed = 0
            before = moves_played(data_dir)
            step_from = time.time()
            until = time.monotonic() + seconds
            await asyncio.gather(*(p.play(until) for p in players))
            host_rss, apps_rss, bots_rss = rss_of_tree(host.proc.pid)  # type: ignore[union-attr]
            held = sum(1 for p in players if not p.lost)
            lat = sorted(x for p in players for x in p.latencies)
            at_host = host_echoes(echo_log, step_from)
            row = {
                "n": n, "held": held, "failed_to_open": len(failed),
                "open_s": round(open_time, 1),
                "rss_total_mb": round((host_rss + apps_rss + bots_rss) / 2**20, 1),
                "rss_host_mb": round(host_rss / 2**20, 1),
                "rss_bot_workers_mb": round(bots_rss / 2**20, 1),
                "rss_per_session_mb": round(apps_rss / 2**20 / max(held, 1), 1),
                "keys": len(lat), "no_echo": sum(p.missed for p in players),
                "p50_ms": round(statistics.median(lat) * 1000, 1) if lat else None,
                "p95_ms": round(lat[int(0.95 * (len(lat) - 1))] * 1000, 1) if lat else None,
                "max_ms": round(lat[-1] * 1000, 1) if lat else None,
                # The same keys seen from the host: from the key reaching it to the app's first
                # output after it (the app's work and its wait for a core, no SSH or client).
                "host_p50_ms": round(statistics.median(at_host), 1) if at_host else None,
                "host_p95_ms": round(at_host[int(0.95 * (len(at_host) - 1))], 1) if at_host else None,
                "actions": moves_played(data_dir) - before,
                # The machine's load (other work on it included), as the step ended.
                "loadavg_1m": round(os.getloadavg()[0], 1),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
            if failed:
                print(f"  could not open {len(failed)} session(s): {failed[0]!r}", flush=True)
    finally:
        for p in players:
            p.term.abort()
        host.kill()
    return rows


# ---------------------------------------------------------------- a hostile client beside them
async def flood(port: int, password: str) -> None:
    """The hostile client: random bytes into one session, as fast as the host takes them;
    logs in again whenever its session ends (random keys soon quit the app)."""
    import asyncssh

    sent = sessions = 0

    async def report() -> None:  # each second: the last line is what was done
        while True:
            await asyncio.sleep(1.0)
            print(json.dumps({"flood_sent_mb": round(sent / 2**20, 1), "sessions": sessions}),
                  flush=True)

    reporter = asyncio.ensure_future(report())
    while not reporter.done():
        try:
            async with asyncssh.connect("127.0.0.1", port, username="eve", password=password,
                                        known_hosts=None, client_keys=None,
                                        agent_path=None) as conn:
                proc = await conn.create_process(term_type="xterm-256color",
                                                 term_size=(120, 40), encoding=None)
                sessions += 1
                reader = asyncio.ensure_future(proc.stdout.read())  # whatever it shows, unread
                while not reader.done():
                    proc.stdin.write(os.urandom(65536))
                    await proc.stdin.drain()
                    sent += 65536
        except (OSError, asyncssh.Error):
            await asyncio.sleep(1.0)


def cpu_seconds(pid: int) -> tuple[float, float]:
    """Processor time (user + system) used so far, from /proc: by the process itself, and
    by its app processes (those still running and those it has reaped)."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p: int) -> list[str]:
        return Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()

    own = stat(pid)
    apps = int(own[13]) + int(own[14])  # the children it has waited for
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = stat(int(entry.name))
            except OSError:
                continue
            if int(fields[1]) == pid:
                apps += int(fields[11]) + int(fields[12])
    return (int(own[11]) + int(own[12])) / tick, apps / tick


def summary(latencies: list[float]) -> dict:
    lat = sorted(latencies)
    if not lat:
        return {"keys": 0, "mean_ms": None, "p95_ms": None, "max_ms": None}
    return {"keys": len(lat), "mean_ms": round(statistics.fmean(lat) * 1000, 1),
            "p95_ms": round(lat[int(0.95 * (len(lat) - 1))] * 1000, 1),
            "max_ms": round(lat[-1] * 1000, 1)}


async def run_hostile(players_n: int, rounds: int, seconds: float, data_dir: Path,
                      per_table: int) -> dict:
    """The players' echo in alternating rounds without and with the flooder beside them."""
    host = HostProcess(data_dir, "--max-sessions", str(players_n + 5), "--per-ip",
                       str(players_n + 5), "--bot-delay", "1.0").start()
    flooder: subprocess.Popen[bytes] | None = None
    by_kind: dict[str, list[float]] = {"without": [], "with": []}
    misses = {"without": 0, "with": 0}
    pairs: dict[int, dict[str, float | None]] = {}  # each round's p95 without and with
    rows = []
    players: list[Player] = []
    try:
        new = [Player(i, host.port, host.password, data_dir) for i in range(players_n)]
        players, failed = await seat_players(new, per_table, retries=2)
        print(f"{len(players)} players seated" + (
            f"; a table failed to open {len(failed)} time(s), e.g. {str(failed[0])[:60]!r}"
            if failed else ""), flush=True)
        # A first round to let the start-up settle (the players' apps, the tables' first
        # bot moves), then rounds without and with the flooder in turn.
        for number in range(-1, 2 * rounds):
            kind = "warm-up" if number < 0 else "without" if number % 2 == 0 else "with"
            if kind == "with":
                flooder = subprocess.Popen(
                    [sys.executable, __file__, "--flood", str(host.port), host.password],
                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            await asyncio.sleep(3.0)  # the flooder's session under way (or the same pause)
            for p in players:
                p.latencies.clear()
                p.missed = 0
            assert host.proc is not None
            host_before, apps_before = cpu_seconds(host.proc.pid)
            await asyncio.gather(*(p.play(time.monotonic() + seconds) for p in players))
            host_after, apps_after = cpu_seconds(host.proc.pid)
            lat = [x for p in players for x in p.latencies]
            if kind == "warm-up":
                print(json.dumps({"round": 0, "warm-up (not counted)": summary(lat)}), flush=True)
                continue
            by_kind[kind] += lat
            misses[kind] += sum(p.missed for p in players)
            pairs.setdefault(number // 2, {})[kind] = summary(lat)["p95_ms"]
            row = {"round": number // 2 + 1, "hostile": kind, **summary(lat),
                   "no_echo": sum(p.missed for p in players),
                   "held": sum(1 for p in players if not p.lost),
                   # Processor time in the round: the host's own, and its app processes'
                   # (the flooder's among them, with its new logins).
                   "host_cpu_s": round(host_after - host_before, 1),
                   "apps_cpu_s": round(apps_after - apps_before, 1),
                   "loadavg_1m": round(os.getloadavg()[0], 1)}
            if flooder is not None:
                row["flooder_client_cpu_s"] = round(sum(cpu_seconds(flooder.pid)), 1)
                flooder.terminate()
                out, _ = flooder.communicate(timeout=30)
                last = out.decode().strip().splitlines()
                if last:
                    row.update(json.loads(last[-1]))
                flooder = None
            rows.append(row)
            print(json.dumps(row), flush=True)
        log = host.log_lines()
    finally:
        if flooder is not None:
            flooder.kill()
        for p in players:
            p.term.abort()
        host.kill()
    ratios = [pair["with"] / pair["without"] for pair in pairs.values()
              if pair.get("with") and pair.get("without")]
    return {"rows": rows, "without": summary(by_kind["without"]), "with": summary(by_kind["with"]),
            "misses": misses, "dropped_lines": log.count('"event": "input_dropped"'),
            "round_ratios": [round(r, 2) for r in ratios]}


def hostile_main(args: argparse.Namespace) -> int:
    print(f"cores {os.cpu_count()}; load average before (1, 5, 15 min): "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()), flush=True)
    with tempfile.TemporaryDirectory(prefix="railgames-hostile-") as tmp:
        result = asyncio.run(asyncio.wait_for(
            run_hostile(args.players, args.rounds, args.seconds, Path(tmp), args.per_table),
            args.time_limit + 300))
    print()
    print(f"{'hostile client':>15} {'keys':>5} {'mean':>9} {'p95':>9} {'max':>9}")
    for kind in ("without", "with"):
        r = result[kind]
        print(f"{kind:>15} {r['keys']:>5} {r['mean_ms']!s:>6} ms {r['p95_ms']!s:>6} ms "
              f"{r['max_ms']!s:>6} ms")
    before, after = result["without"]["p95_ms"], result["with"]["p95_ms"]
    if before and after:
        ratio = after / before
        print(f"p95 with / without, all rounds: {ratio:.2f} (target at most 1.5: "
              f"{'met' if ratio <= 1.5 else 'NOT met'}); round by round: "
              f"{result['round_ratios']}")
    print(f"keys with no echo in 3 s: {result['misses']}; "
          f"input_dropped lines in the host's log: {result['dropped_lines']}")
    return 0


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--flood":  # the flooder's own process
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(flood(int(sys.argv[2]), sys.argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="1,5,10,20,30,40,50",
                        help="session counts to measure at (at most 50)")
    parser.add_argument("--seconds", type=float, default=20, help="play time at each step")
    parser.add_argument("--per-table", type=int, default=3, choices=[1, 2, 3],
                        help="sessions per table (3: people only; 1: each session with two bots)")
    parser.add_argument("--time-limit", type=float, default=900, help="stop starting steps after this")
    parser.add_argument("--hostile", action="store_true",
                        help="players' echo with and without a flooding client beside them")
    parser.add_argument("--players", type=int, default=20, help="with --hostile: players")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --hostile: rounds of each kind (without, with, ...)")
    parser.add_argument("--table-cost", action="store_true",
                        help="the host's processor time per action at actions 10, 100 and 1,000 "
                             "of a table (see table_cost.py)")
    args = parser.parse_args()
    if args.hostile:
        return hostile_main(args)
    if args.table_cost:
        sys.argv = [sys.argv[0]]
        import table_cost

        return table_cost.main()
    steps = sorted({min(50, max(1, int(s))) for s in args.steps.split(",")})
    deadline = time.monotonic() + args.time_limit
    # The machine's load before this starts: on a shared machine the figures depend on it.
    print(f"cores {os.cpu_count()}; load average before (1, 5, 15 min): "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()), flush=True)
    with tempfile.TemporaryDirectory(prefix="railgames-load-") as tmp:
        rows = asyncio.run(asyncio.wait_for(run(steps, args.seconds, deadline, Path(tmp),
                                                args.per_table),
                                            args.time_limit + 300))
    print()
    print(f"{'N':>3} {'held':>4} {'RSS total':>10} {'per session':>12} {'p50':>8} {'p95':>8} "
          f"{'max':>8} {'host p50':>9} {'host p95':>9} {'keys':>5} {'acts':>5} {'load':>5}")
    for r in rows:
        print(f"{r['n']:>3} {r['held']:>4} {r['rss_total_mb']:>8} MB {r['rss_per_session_mb']:>9} MB "
              f"{r['p50_ms']!s:>5} ms {r['p95_ms']!s:>5} ms {r['max_ms']!s:>5} ms "
              f"{r['host_p50_ms']!s:>6} ms {r['host_p95_ms']!s:>6} ms "
              f"{r['keys']:>5} {r['actions']:>5} {r['loadavg_1m']:>5}")
    # A step with a handful of timed keys says nothing of its p95 (with one session, it is
    # that session's turn most of the time, and its keys go to the list of choices).
    degraded = next((r for r in rows if r["held"] < r["n"] or (
        r["keys"] >= MIN_KEYS and r["p95_ms"] > TARGET_P95 * 1000)), None)
    print()
    print("degrades at N=" + (str(degraded["n"]) if degraded else "never (up to "
                              + str(rows[-1]["n"] if rows else 0) + ")")
          + f" (p95 over {TARGET_P95 * 1000:.0f} ms or a session lost)")
    at20 = next((r for r in rows if r["n"] == 20), None)
    if at20 is not None:
        ok = at20["p95_ms"] is not None and at20["p95_ms"] < TARGET_P95 * 1000
        print(f"target p95 < 100 ms at 20 sessions: {'met' if ok else 'NOT met'} "
              f"({at20['p95_ms']} ms)")
    top = rows[-1] if rows else None
    if top is not None:
        print(f"target 50 sessions held: {'met' if top['n'] == 50 and top['held'] == 50 else 'NOT met'}"
              f" ({top['held']} of {top['n']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
