"""Every speed figure of the suite in one table, each judged against its target.

The app figures are measured through a real pseudo-terminal with a mid-game
board of every game at 80x24 and 120x40 (app_cursor_bytes.py,
app_enter_latency.py, app_startup.py); the headless ones (replay, random-bot
games, pauses of the collector) come from rules_speed.py. Each row shows mean,
p95 and max (p50 too where the target is on it), the target, and OK or OVER.

The machine's load average is printed first and last: on a busy machine the
timings are noisy, so run it twice before believing one figure.

    .venv/bin/python benchmarks/run_all.py [--quick] [--games new-england,...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import app_cursor_bytes  # noqa: E402
import app_enter_latency  # noqa: E402
import app_startup  # noqa: E402
from appmeasure import GAMES, SIZES, TITLES, Figure, load_line  # noqa: E402


@dataclass
class Row:
    figure: str
    game: str
    size: str
    values: str
    target: str
    ok: bool


def fmt(value: float, unit: str = "", digits: int = 0) -> str:
    return f"{value:,.{digits}f}{unit}"


def triple(fig: Figure, unit: str = "", digits: int = 0) -> str:
    return (f"{fmt(fig.mean, unit, digits)} / {fmt(fig.p95, unit, digits)} / "
            f"{fmt(fig.max, unit, digits)}")


def app_rows(games: list[str], actions: int) -> list[Row]:
    rows: list[Row] = []
    for game_id in games:
        for cols, rows_ in SIZES:
            size = f"{cols}x{rows_}"
            cur = app_cursor_bytes.measure(game_id, cols, rows_)
            rows.append(Row("bytes per board-cursor move (mean / p95 / max)", game_id, size,
                            triple(cur.sizes),
                            f"mean <= {app_cursor_bytes.BYTES_MEAN}, "
                            f"max <= {app_cursor_bytes.BYTES_MAX:,}",
                            cur.sizes.mean <= app_cursor_bytes.BYTES_MEAN
                            and cur.sizes.max <= app_cursor_bytes.BYTES_MAX))
            rows.append(Row("cursor move, key to last byte (mean / p95 / max)", game_id, size,
                            triple(cur.last_ms, " ms", 1),
                            f"p95 <= {app_cursor_bytes.LAST_BYTE_P95_MS:.0f} ms",
                            cur.last_ms.p95 <= app_cursor_bytes.LAST_BYTE_P95_MS))
            ent = app_enter_latency.measure(game_id, cols, rows_, actions)
            rows.append(Row("Enter that applies an action, last byte (mean / p95 / max)",
                            game_id, size, triple(ent.last_ms, " ms", 1)
                            + f"  (n={len(ent.last_ms.values)})",
                            f"p95 <= {app_enter_latency.LAST_BYTE_P95_MS:.0f} ms",
                            bool(ent.last_ms.values)
                            and ent.last_ms.p95 <= app_enter_latency.LAST_BYTE_P95_MS))
            rows.append(Row("bytes written per applied action (mean / p95 / max)", game_id,
                            size, triple(ent.sizes),
                            f"max <= {app_enter_latency.BYTES_MAX:,}",
                            bool(ent.sizes.values)
                            and ent.sizes.max <= app_enter_latency.BYTES_MAX))
            print(f"  measured {TITLES[game_id]} {size}", file=sys.stderr, flush=True)
    return rows


def startup_rows(runs: int) -> list[Row]:
    res = app_startup.measure(runs)
    warm = Figure([t / m for t, m in zip(res.t_ours, res.t_min, strict=True)])
    return [
        Row("start to launcher / minimal Textual app, warm (ratio of means; "
            "per pair mean / p95 / max)", "all", "120x40",
            f"{res.ratio:.2f}x  ({triple(warm, 'x', 2)})", f"<= {app_startup.TARGET}x",
            res.ratio <= app_startup.TARGET),
        Row("start to launcher / minimal Textual app, first start", "all", "120x40",
            f"{res.first_ratio:.2f}x  ({res.first_ours * 1000:,.0f} ms vs "
            f"{res.first_min * 1000:,.0f} ms)", f"<= {app_startup.TARGET}x",
            res.first_ratio <= app_startup.TARGET),
    ]


# ------------------------------------------------------------------- headless figures


def headless_rows(games: list[str], quick: bool) -> list[Row]:
    import rules_speed

    rows: list[Row] = []
    measure = getattr(rules_speed, "measure", None)
    for game_id in games:
        if measure is not None:
            figures = measure(game_id, games=10 if quick else 40, replays=10 if quick else 40,
                              runs=5 if quick else 15, steps=False)
        else:
            figures = _headless_here(game_id, quick)
        proc = figures.get("replay_process")
        if proc:
            rows.append(Row("`railgames replay FILE`, whole process, longest record "
                            "(p50 / p95 / max)", game_id, "-",
                            f"{proc['p50']:,.0f} / {proc['p95']:,.0f} / {proc['max']:,.0f} ms",
                            "p50 <= 120 ms", proc["p50"] <= 120))
        bot = figures["bot_game"]
        cpu = figures.get("cpu", {})
        bot_cpu = cpu.get("bot_game")
        also = f"  (processor time p50 {bot_cpu['p50']:,.1f} ms)" if bot_cpu else ""
        rows.append(Row("random-bot 4-player game, in process (p50 / p95 / max)", game_id, "-",
                        f"{bot['p50']:,.1f} / {bot['p95']:,.1f} / {bot['max']:,.1f} ms{also}",
                        "p50 <= 15 ms", bot["p50"] <= 15))
        rep = figures["replay_in_process"]
        spread = rep["max"] / rep["p50"]
        also = (f"; processor time {rep['spread_cpu']:.1f}x" if rep.get("spread_cpu") else "")
        rows.append(Row("in-process replay, max / median (collector pauses)", game_id, "-",
                        f"{spread:.1f}x  ({rep['max']:,.1f} vs {rep['p50']:,.1f} ms{also})",
                        "<= 2x", spread <= 2))
    return rows


def _headless_here(game_id: str, quick: bool) -> dict[str, Any]:
    """The headless figures worked out here, where rules_speed.py has no ``measure``."""
    import json
    import os
    import subprocess

    from railgames.core.engine import Game
    from railgames.core.record import load_record
    from railgames.core.simulate import bot_players, play_bot_game
    from railgames.games import load_ruleset, ruleset_for_record

    def ms(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {"p50": 1000 * statistics.median(ordered),
                "p95": 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
                "max": 1000 * ordered[-1]}

    ruleset = load_ruleset(game_id)
    specs = bot_players(4, "random")
    play_bot_game(ruleset, specs, 0)
    games: list[float] = []
    for seed in range(1, (10 if quick else 40) + 1):
        t0 = time.perf_counter()
        play_bot_game(ruleset, specs, seed)
        games.append(time.perf_counter() - t0)
    fixtures = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "records"
    records = sorted(fixtures.glob(f"{game_id}-*.json"),
                     key=lambda p: len(json.loads(p.read_text())["actions"]))
    out: dict[str, Any] = {"bot_game": ms(games)}
    if not records:
        out["replay_in_process"] = {"p50": 1.0, "max": 1.0}
        return out
    path = records[-1]
    record = load_record(path)
    on_map = ruleset_for_record(record, str(path))
    replays: list[float] = []
    for _ in range(10 if quick else 40):
        t0 = time.perf_counter()
        Game.replay(on_map, record)
        replays.append(time.perf_counter() - t0)
    out["replay_in_process"] = ms(replays)
    script = Path(sys.executable).with_name("railgames")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "railgames"]
    env = dict(os.environ)
    subprocess.run([*argv, "replay", str(path)], check=True, capture_output=True, env=env)
    runs: list[float] = []
    for _ in range(5 if quick else 15):
        t0 = time.perf_counter()
        subprocess.run([*argv, "replay", str(path)], check=True, capture_output=True, env=env)
        runs.append(time.perf_counter() - t0)
    out["replay_process"] = ms(runs)
    return out


# ------------------------------------------------------------------- the table


def print_table(rows: list[Row]) -> None:
    widths = [max(len(r.figure) for r in rows), max(len(TITLES.get(r.game, r.game)) for r in rows),
              7, max(len(r.values) for r in rows), max(len(r.target) for r in rows)]
    head = ("figure", "game", "size", "measured", "target")
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + "  verdict")
    for r in rows:
        cells = (r.figure, TITLES.get(r.game, r.game), r.size, r.values, r.target)
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
              + ("  OK" if r.ok else "  OVER TARGET"))
    over = sum(not r.ok for r in rows)
    print(f"{len(rows) - over} of {len(rows)} figures on target")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--quick", action="store_true", help="fewer runs and actions")
    parser.add_argument("--no-app", action="store_true", help="the headless figures only")
    parser.add_argument("--no-headless", action="store_true", help="the app figures only")
    args = parser.parse_args()
    games = args.games.split(",")
    start_load = load_line()
    rows: list[Row] = []
    if not args.no_app:
        rows += app_rows(games, actions=12 if args.quick else 30)
        rows += startup_rows(runs=4 if args.quick else 10)
    if not args.no_headless:
        rows += headless_rows(games, args.quick)
    print(f"railgames speed figures; at the start {start_load}; at the end {load_line()}")
    print_table(rows)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
