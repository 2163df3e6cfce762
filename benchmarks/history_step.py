"""Stepping through a recorded game: one action forward, one back, and jumps.

For each game, greedy bots play every player count over a few seeds, and the
longest record is opened as a ``Recording`` (what the viewer of demos, saved
games and History uses). Then, timed one by one:

* forward: every step from the start to the end;
* back: every step from the end to the start;
* jump: to 200 positions drawn at random, and to the start of every turn.

Each time is for the table alone (the state the screen draws from). With
``--app``, the same record is also opened in the viewer (the whole app, run
headless at 120x40) and a key's work is timed: the step and the redraw of the
board, players and narration it causes, up to the next idle moment. Target:
every step and jump within 30 ms (mean, p95 and max shown).

    .venv/bin/python benchmarks/history_step.py [--seeds 4] [--app]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from railgames.core.simulate import bot_players, play_bot_game  # noqa: E402
from railgames.games import GAMES, load_ruleset  # noqa: E402
from railgames.tables.recording import SNAPSHOT_EVERY, Recording  # noqa: E402

TARGET_MS = 30.0


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def longest(game_id: str, seeds: int) -> tuple[int, int, int, object]:
    ruleset = load_ruleset(game_id)
    best = None
    for players in range(ruleset.min_players, ruleset.max_players + 1):
        for seed in range(1, seeds + 1):
            game = play_bot_game(ruleset, bot_players(players, "greedy"), seed)
            n = len(game.record.actions)
            if best is None or n > best[0]:
                best = (n, players, seed, game)
    assert best is not None
    return best


def timed(rec: Recording, targets: list[int]) -> list[float]:
    out = []
    for target in targets:
        start = time.perf_counter()
        rec.seek(target)
        rec.view()
        out.append((time.perf_counter() - start) * 1000)
    return out


async def app_steps(record: object, steps: int) -> dict[str, list[float]]:
    """Key to redrawn viewer, in the app run headless: steps on, steps back, jumps by turn."""
    from railgames.app.main import RailgamesApp

    app = RailgamesApp(watch={"record": record, "demo": True, "start": 0, "playing": False})
    out: dict[str, list[float]] = {"forward": [], "back": [], "jump": []}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        viewer = app.screen
        rec = viewer.recording  # type: ignore[attr-defined]
        middle = rec.length // 2
        rec.seek(middle - steps)
        viewer.show()  # type: ignore[attr-defined]
        await pilot.pause()
        for kind, delta in (("forward", 1), ("back", -1)):
            for _ in range(steps):
                start = time.perf_counter()
                viewer.action_step(delta)  # type: ignore[attr-defined]
                await pilot.pause()
                out[kind].append((time.perf_counter() - start) * 1000)
        for turn in range(1, rec.last_turn + 1):
            start = time.perf_counter()
            viewer.jump_to_turn(turn)  # type: ignore[attr-defined]
            await pilot.pause()
            out["jump"].append((time.perf_counter() - start) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="seeds per player count (default 4)")
    parser.add_argument("--app", action="store_true", help="also time the viewer in the app")
    args = parser.parse_args()
    records = {}
    print(f"Recording steps (snapshot every {SNAPSHOT_EVERY} actions); target {TARGET_MS:.0f} ms")
    print(f"{'game':<18}{'record':>18}{'open':>9}  {'kind':<8}{'n':>6}{'mean ms':>9}{'p95 ms':>9}{'max ms':>9}")
    failed = False
    for game_id in GAMES:
        n, players, seed, game = longest(game_id, args.seeds)
        records[game_id] = game.record  # type: ignore[attr-defined]
        start = time.perf_counter()
        rec = Recording.of_game(game, reveal_all=True)  # type: ignore[arg-type]
        open_ms = (time.perf_counter() - start) * 1000
        rng = random.Random(7)
        rec.seek(0)
        forward = timed(rec, list(range(1, n + 1)))
        back = timed(rec, list(range(n - 1, -1, -1)))
        turns = [p for t in range(1, rec.last_turn + 1) if (p := rec.position_of_turn(t)) is not None]
        jumps = timed(rec, [rng.randrange(n + 1) for _ in range(200)] + turns)
        label = f"{n} actions {players}p s{seed}"
        for kind, times in (("forward", forward), ("back", back), ("jump", jumps)):
            worst = max(times)
            failed |= worst > TARGET_MS
            name = game_id if kind == "forward" else ""
            where = label if kind == "forward" else ""
            opened = f"{open_ms:.0f} ms" if kind == "forward" else ""
            print(f"{name:<18}{where:>18}{opened:>9}  {kind:<8}{len(times):>6}"
                  f"{statistics.mean(times):>9.2f}{p95(times):>9.2f}{worst:>9.2f}"
                  + ("  OVER" if worst > TARGET_MS else ""))
    if args.app:
        import asyncio
        import os
        import tempfile

        os.environ.setdefault("RAILGAMES_DATA_DIR", tempfile.mkdtemp())
        print("\nIn the viewer (the app headless, 120x40): key to redrawn screen")
        for game_id, record in records.items():
            times = asyncio.run(app_steps(record, 60))
            for kind, values in times.items():
                worst = max(values)
                failed |= worst > TARGET_MS
                name = game_id if kind == "forward" else ""
                print(f"{name:<18}{'':>18}{'':>9}  {kind:<8}{len(values):>6}"
                      f"{statistics.mean(values):>9.2f}{p95(values):>9.2f}{worst:>9.2f}"
                      + ("  OVER" if worst > TARGET_MS else ""))
    print("all within target" if not failed else "some steps are over the target")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
