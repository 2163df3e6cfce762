"""What an SSH session costs ``railgames host``: memory per session, and sessions held.

The load is ssh_load.py's: sessions sit two to a Paris Connection table of three
seats (the third a bot, moving a second after its turn comes); each session moves
the board cursor about once a second and takes its turn when it comes (the first
build offered, one hex, end). Key to echo is the time from sending an arrow
key until the emulated screen names the cursor's new place.

It seats ``--base`` sessions (10) and plays ``--seconds``, then seats more up to
``--sessions`` (200) and plays again, and reports at each step the sessions held
and key to echo (mean, p95, max), and the ratio of the two p95s (target: at most
2). At the top step it reads each session's app's unique memory (USS: its
Private_Clean + Private_Dirty in /proc/PID/smaps_rollup; target at most 16 MB)
with mean, p95 and max over the sessions, and, once, the RSS of the warm process
the apps are forked from (where there is one: the pages it shares with them).

The measuring side (200 emulated 120x40 screens) runs in ``--clients`` processes
of its own (4), each seating and playing its share of the sessions, so that no
key waits behind another session's screen; each reads only the cursor's line of
its screens. Their processor time is reported beside the host's.

    python benchmarks/session_cost.py             # 10, then 200 sessions
    python benchmarks/session_cost.py --quick     # 10, then 40

Against the starting commit (each app a fresh interpreter):

    cd /work/wt30-before && PYTHONPATH=$PWD python /path/to/benchmarks/session_cost.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import asyncssh  # noqa: E402
from host_terminal import HostProcess  # noqa: E402

USS_TARGET_MB = 16.0
RATIO_TARGET = 2.0
BATCH = 5  # tables opened at once while seating (logins have 30 s each)


def summary(values: list[float]) -> dict[str, float | int | None]:
    v = sorted(values)
    if not v:
        return {"n": 0, "mean": None, "p95": None, "max": None}
    return {"n": len(v), "mean": round(statistics.fmean(v), 1),
            "p95": round(v[int(0.95 * (len(v) - 1))], 1), "max": round(v[-1], 1)}


def uss_mb(pid: int) -> float | None:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    fields = {line.split(":")[0]: int(line.split()[1]) for line in text.splitlines()[1:]}
    return (fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)) / 1024


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def warm_pid(host_pid: int) -> int | None:
    """The warm process the host forks its apps from (none before it had one)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if (int(stat.rsplit(")", 1)[1].split()[1]) == host_pid
                    and b"railgames.net.warm" in cmdline):
                return int(entry.name)
    return None


def app_pids(host: HostProcess) -> list[int]:
    """The running apps of the sessions (as the host's log names them)."""
    pids = []
    for line in host.log_lines().splitlines():
        if '"session_started"' in line:
            pid = json.loads(line)["pid"]
            if Path(f"/proc/{pid}").exists():
                pids.append(pid)
    return pids


# ---------------------------------------------------------------- a client process
async def client(port: int, password: str, data_dir: Path) -> None:
    """Seats and plays the sessions it is told to, one command a line on standard input."""
    from ssh_load import Player, seat_players

    players: list[Any] = []
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def answer(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            command = json.loads(line)
            if "seat" in command:
                groups = command["seat"]
                failed = 0
                for at in range(0, len(groups), BATCH):
                    new = [Player(i, port, password, data_dir)
                           for group in groups[at:at + BATCH] for i in group]
                    for p in new:  # each player's own key (a key holds one name)
                        p.keys = [asyncssh.read_private_key(
                            str(data_dir / "client" / f"id_{p.name}"))]
                    seated, errors = await seat_players(new, command["per_table"], retries=1)
                    players += seated
                    failed += len(errors)
                    for error in errors[:1]:
                        print(f"a table did not open: {error!r}"[:2000], file=sys.stderr)
                answer({"seated": len(players), "failed": failed})
            elif "play" in command:
                for p in players:
                    p.latencies.clear()
                    p.missed = 0
                until = time.monotonic() + command["play"]
                await asyncio.gather(*(p.play(until) for p in players))
                answer({"latencies": [x for p in players for x in p.latencies],
                        "missed": sum(p.missed for p in players),
                        "held": sum(1 for p in players if not p.lost)})
    finally:
        for p in players:
            p.term.abort()


# ---------------------------------------------------------------- the measurement
class Clients:
    def __init__(self, count: int, host: HostProcess) -> None:
        self.count = count
        self.host = host
        self.procs: list[asyncio.subprocess.Process] = []

    async def start(self) -> None:
        for _ in range(self.count):
            self.procs.append(await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--client", str(self.host.port), self.host.password,
                str(self.host.data_dir), stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, limit=2**24))

    async def ask(self, proc: asyncio.subprocess.Process, command: dict[str, Any],
                  timeout: float) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps(command) + "\n").encode())
        await proc.stdin.drain()
        line = await asyncio.wait_for(proc.stdout.readline(), timeout)
        if not line:
            raise RuntimeError("a measuring client ended")
        return dict(json.loads(line))

    async def seat(self, first: int, last: int, per_table: int) -> dict[str, int]:
        groups = [list(range(i, min(i + per_table, last))) for i in range(first, last, per_table)]
        shares: list[list[list[int]]] = [[] for _ in self.procs]
        for n, group in enumerate(groups):
            shares[n % len(self.procs)].append(group)
        answers = await asyncio.gather(*(
            self.ask(p, {"seat": share, "per_table": per_table}, 1800)
            for p, share in zip(self.procs, shares, strict=True) if share))
        return {"failed": sum(a["failed"] for a in answers)}

    async def play(self, seconds: float) -> dict[str, Any]:
        answers = await asyncio.gather(*(self.ask(p, {"play": seconds}, seconds + 600)
                                         for p in self.procs))
        return {"latencies": [x for a in answers for x in a["latencies"]],
                "missed": sum(a["missed"] for a in answers),
                "held": sum(a["held"] for a in answers)}

    def cpu(self) -> float:
        return sum(cpu_s(p.pid) for p in self.procs)

    async def stop(self) -> None:
        for p in self.procs:
            if p.stdin is not None:
                p.stdin.close()
        for p in self.procs:
            try:
                await asyncio.wait_for(p.wait(), 30)
            except TimeoutError:
                p.kill()
                await p.wait()


async def measure(base: int, top: int, seconds: float, clients_n: int, per_table: int,
                  data_dir: Path) -> dict[str, Any]:
    # Players log in with a key: a name is claimed at its first login with no passphrase
    # to choose (hashing 200 passphrases at once is not what is measured here).
    folder = data_dir / "client"
    folder.mkdir(parents=True)
    authorized = folder / "authorized_keys"
    with authorized.open("wb") as keys:
        for i in range(top):
            key = asyncssh.generate_private_key("ssh-ed25519")
            (folder / f"id_p{i:02d}").write_bytes(key.export_private_key())
            keys.write(key.export_public_key())
    host = HostProcess(data_dir, "--authorized-keys", str(authorized), "--max-sessions",
                       str(top + 5), "--per-ip", str(top + 5), "--bot-delay", "1.0").start()
    assert host.proc is not None
    clients = Clients(clients_n, host)
    steps: list[dict[str, Any]] = []
    uss: dict[str, Any] = {}
    try:
        await clients.start()
        seated = 0
        for n in (base, top):
            started = time.perf_counter()
            seat = await clients.seat(seated, n, per_table)
            seated = n
            open_s = time.perf_counter() - started
            apps = app_pids(host)
            host_cpu, client_cpu = cpu_s(host.proc.pid), clients.cpu()
            apps_cpu = sum(cpu_s(p) for p in apps)
            played = await clients.play(seconds)
            lat_ms = [x * 1000 for x in played["latencies"]]
            step = {"sessions": n, "held": played["held"], "failed_to_open": seat["failed"],
                    "open_s": round(open_s, 1), "echo_ms": summary(lat_ms),
                    "no_echo": played["missed"],
                    "host_cpu_s": round(cpu_s(host.proc.pid) - host_cpu, 1),
                    "apps_cpu_s": round(sum(cpu_s(p) for p in apps) - apps_cpu, 1),
                    "clients_cpu_s": round(clients.cpu() - client_cpu, 1),
                    "loadavg_1m": round(os.getloadavg()[0], 1)}
            steps.append(step)
            print(json.dumps(step), flush=True)
        pids = app_pids(host)
        per_app = [m for m in (uss_mb(p) for p in pids) if m is not None]
        warm = warm_pid(host.proc.pid)
        uss = {"apps": len(per_app), "uss_mb": summary(per_app),
               "rss_mb": summary([rss_mb(p) for p in pids if Path(f"/proc/{p}").exists()]),
               "warm_rss_mb": round(rss_mb(warm), 1) if warm else None,
               "warm_uss_mb": round(uss_mb(warm) or 0, 1) if warm else None,
               "host_rss_mb": round(rss_mb(host.proc.pid), 1)}
        print(json.dumps(uss), flush=True)
    finally:
        await clients.stop()
        host.kill()
    low, high = steps[0]["echo_ms"]["p95"], steps[-1]["echo_ms"]["p95"]
    return {"steps": steps, "memory": uss,
            "ratio": round(high / low, 2) if low and high else None}


def run(quick: bool, base: int = 10, top: int | None = None, seconds: float | None = None,
        clients: int = 4, per_table: int = 2) -> dict[str, Any]:
    top = top or (40 if quick else 200)
    seconds = seconds or (10.0 if quick else 20.0)
    # The host's last apps may still be writing their saves as the folder goes: what they
    # leave is not the measurement's concern.
    with tempfile.TemporaryDirectory(prefix="railgames-cost-", ignore_cleanup_errors=True) as tmp:
        return asyncio.run(measure(base, top, seconds, clients, per_table, Path(tmp)))


def triple(s: dict[str, Any], unit: str) -> str:
    return f"{s['mean']} / {s['p95']} / {s['max']}{unit}"


def ratio_rows(games: list[str], quick: bool) -> list[dict]:
    result = run(quick)
    low, high = result["steps"][0], result["steps"][-1]
    memory = result["memory"]
    warm = (f"; warm process RSS {memory['warm_rss_mb']} MB, shared, once"
            if memory.get("warm_rss_mb") else "; no warm process")
    uss = memory["uss_mb"]
    ratio = result["ratio"]
    return [
        {"figure": f"memory per SSH session, USS MB (mean / p95 / max, {memory['apps']} apps)",
         "game": "all", "size": "120x40", "values": triple(uss, " MB") + warm,
         "target": f"<= {USS_TARGET_MB:.0f} MB", "ok": bool(uss["max"] is not None
                                                             and uss["max"] <= USS_TARGET_MB)},
        {"figure": "sessions held", "game": "all", "size": "120x40",
         "values": f"{high['held']} of {high['sessions']}",
         "target": f"{high['sessions']} held", "ok": high["held"] == high["sessions"]},
        {"figure": f"key-to-echo p95, {high['sessions']} sessions / {low['sessions']}",
         "game": "all", "size": "120x40",
         "values": (f"{ratio} (ms, mean / p95 / max: {low['sessions']}: "
                    f"{triple(low['echo_ms'], '')}; {high['sessions']}: "
                    f"{triple(high['echo_ms'], '')})"),
         "target": f"<= {RATIO_TARGET}", "ok": ratio is not None and ratio <= RATIO_TARGET},
    ]


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--client":
        asyncio.run(client(int(sys.argv[2]), sys.argv[3], Path(sys.argv[4])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10, then 40 sessions, 10 s each")
    parser.add_argument("--base", type=int, default=10, help="sessions at the first step")
    parser.add_argument("--sessions", type=int, default=None,
                        help="sessions at the second step (200; 40 with --quick)")
    parser.add_argument("--seconds", type=float, default=None, help="play time at each step")
    parser.add_argument("--clients", type=int, default=4, help="measuring client processes")
    args = parser.parse_args()
    print(f"cores {os.cpu_count()}; load average before (1, 5, 15 min): "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()), flush=True)
    result = run(args.quick, args.base, args.sessions, args.seconds, args.clients)
    print()
    for step in result["steps"]:
        e = step["echo_ms"]
        print(f"{step['sessions']:>4} sessions: {step['held']} held, opened in {step['open_s']} s; "
              f"key to echo mean {e['mean']} / p95 {e['p95']} / max {e['max']} ms "
              f"({e['n']} keys, {step['no_echo']} without echo); processor s: host "
              f"{step['host_cpu_s']}, apps {step['apps_cpu_s']}, clients {step['clients_cpu_s']}; "
              f"load {step['loadavg_1m']}")
    m = result["memory"]
    print(f"USS per app, MB (mean / p95 / max over {m['apps']}): {triple(m['uss_mb'], '')}; "
          f"RSS per app {triple(m['rss_mb'], '')}; warm process RSS {m['warm_rss_mb']} MB "
          f"(USS {m['warm_uss_mb']}); host RSS {m['host_rss_mb']} MB")
    print(f"p95 ratio {result['steps'][-1]['sessions']}/{result['steps'][0]['sessions']}: "
          f"{result['ratio']} (target at most {RATIO_TARGET})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
