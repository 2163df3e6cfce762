"""SSH login to first frame: ``railgames host``'s app against a bare Textual app
started the same way.

Two hosts run side by side on loopback ports, the same host code and settings:
one runs the railgames app on each session's terminal, the other a bare Textual
app (a line of text and a Footer) started the same way: forked from a warm
process where the host has one (``HostConfig.warm_app``), else a fresh
interpreter each (``app_command``), as the railgames app is then. A player logs
in with a key (claimed at a first login not counted), and the time is taken from
the start of the SSH connection until the emulated terminal shows the app's first
whole screen (the top line and the footer's "q Quit"): for railgames the
player's tables. Logins alternate, bare then railgames, each pair one ratio;
mean, p95 and max of the ratios, at 80x24 and 120x40. Target: at most 1.2.

    python benchmarks/login_frame.py              # 15 pairs at each size
    python benchmarks/login_frame.py --quick      # 5 pairs

Against the starting commit:

    cd /work/wt30-before && PYTHONPATH=$PWD python /path/to/benchmarks/login_frame.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

TARGET = 1.2
SIZES = ((80, 24), (120, 40))
FIRST_FRAME = {"railgames": r"Your tables[\s\S]*q Quit", "bare": r"Your tables[\s\S]*q Quit"}


# ---------------------------------------------------------------- the bare app
# Imported with this module, so a warm process that imports it to fork the bare app
# has Textual imported, as the railgames app's has.
from textual.app import App, ComposeResult  # noqa: E402
from textual.widgets import Footer, Static  # noqa: E402


class Bare(App[None]):
    """The reference: a bare Textual app, a line of text and a Footer."""

    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static(" Your tables · a bare Textual app")
        yield Footer()


def bare_main() -> int:
    Bare().run()
    return 0


# ---------------------------------------------------------------- a host
def host_main(kind: str, data_dir: str, authorized: str) -> None:
    """One host, as ``railgames host`` runs (its log in data_dir/host.log)."""
    import dataclasses

    from railgames.net.sshhost import HostConfig, serve_forever, setup_logging

    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, (str(HERE), os.environ.get("PYTHONPATH"))))
    setup_logging(open(Path(data_dir) / "host.log", "a"))  # noqa: SIM115
    config: dict[str, Any] = {"port": 0, "data_dir": Path(data_dir),
                              "authorized_keys": Path(authorized), "bot_delay": 0.0}
    if kind == "bare":
        if "warm_app" in {f.name for f in dataclasses.fields(HostConfig)}:
            config["warm_app"] = "login_frame:bare_main"
        else:  # the starting commit: every app a fresh interpreter
            config["app_command"] = [sys.executable, str(Path(__file__).resolve()), "--bare"]
    asyncio.run(serve_forever(HostConfig(**config)))


class Host:
    def __init__(self, kind: str, folder: Path, authorized: Path) -> None:
        self.kind = kind
        self.folder = folder
        folder.mkdir(parents=True)
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--host", kind, str(folder),
             str(authorized)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        self.port = 0
        for line in self.proc.stdout:
            found = re.search(r"listening on [0-9.]+:(\d+)", line)
            if found:
                self.port = int(found.group(1))
                break
        if not self.port:
            raise RuntimeError(f"the {kind} host did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


async def login(host: Host, key: Any, size: tuple[int, int]) -> float:
    """Seconds from the connection's start to the app's first whole screen."""
    from host_terminal import Terminal

    term = Terminal(*size)
    started = time.perf_counter()
    await term.open(host.port, "pat", None, client_keys=[key])
    await term.wait_for(FIRST_FRAME[host.kind], 60)
    took = time.perf_counter() - started
    await term.close()
    return took


async def measure(pairs: int, folder: Path) -> dict[str, Any]:
    from host_terminal import client_key

    key, _, authorized = client_key(folder)
    hosts = {kind: Host(kind, folder / kind, authorized) for kind in ("bare", "railgames")}
    results: dict[str, Any] = {}
    try:
        for size in SIZES:
            for host in hosts.values():  # the name claimed, the warm process up: not counted
                await login(host, key, size)
            ratios, bare, ours = [], [], []
            for _ in range(pairs):
                b = await login(hosts["bare"], key, size)
                o = await login(hosts["railgames"], key, size)
                bare.append(b * 1000)
                ours.append(o * 1000)
                ratios.append(o / b)
                await asyncio.sleep(0.3)  # the sessions' ends settled
            results[f"{size[0]}x{size[1]}"] = {"ratio": stats(ratios, 2), "bare_ms": stats(bare),
                                               "railgames_ms": stats(ours)}
            print(f"{size[0]}x{size[1]}: {results[f'{size[0]}x{size[1]}']}", flush=True)
    finally:
        for host in hosts.values():
            host.stop()
    return results


def stats(values: list[float], digits: int = 0) -> dict[str, float]:
    v = sorted(values)
    return {"mean": round(statistics.fmean(v), digits),
            "p95": round(v[int(0.95 * (len(v) - 1))], digits), "max": round(v[-1], digits)}


def run(quick: bool, pairs: int | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="railgames-login-") as tmp:
        return asyncio.run(measure(pairs or (5 if quick else 15), Path(tmp)))


def triple(s: dict[str, float], unit: str = "") -> str:
    return f"{s['mean']} / {s['p95']} / {s['max']}{unit}"


def ratio_rows(games: list[str], quick: bool) -> list[dict]:
    rows = []
    for size, r in run(quick).items():
        rows.append({"figure": "SSH login to first frame / bare Textual app (mean / p95 / max)",
                     "game": "all", "size": size,
                     "values": (f"{triple(r['ratio'])} (railgames {triple(r['railgames_ms'])} ms; "
                                f"bare {triple(r['bare_ms'])} ms)"),
                     "target": f"<= {TARGET}", "ok": r["ratio"]["p95"] <= TARGET})
    return rows


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--bare":
        return bare_main()
    if len(sys.argv) == 5 and sys.argv[1] == "--host":
        host_main(sys.argv[2], sys.argv[3], sys.argv[4])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 pairs at each size")
    parser.add_argument("--pairs", type=int, default=None, help="pairs at each size (15)")
    args = parser.parse_args()
    print(f"cores {os.cpu_count()}; load average (1, 5, 15 min): "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()), flush=True)
    for size, r in run(args.quick, args.pairs).items():
        print(f"{size}: ratio mean / p95 / max {triple(r['ratio'])} (target at most {TARGET}); "
              f"railgames {triple(r['railgames_ms'], ' ms')}; bare {triple(r['bare_ms'], ' ms')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
