"""Keys answered while a search bot thinks: the bot thinks in a worker thread, the screen stays live.

A Paris Connection game is opened in the app (run headless, 120x40) with three
hard search bots (2 s a move) and one person; whenever a bot is thinking, a key
is pressed that moves the board's cursor. The time from the key to the screen
having handled it and fallen idle is taken (Textual's test pilot waits for
that). Each time, the benchmark checks that a think was really under way when
the key went in. The same keys with no bot thinking are timed for comparison.
Target: every key answered in under 50 ms.

    .venv/bin/python benchmarks/app_think_latency.py [--keys 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_MS = 50.0
KEYS = ("right", "left")


def record_with_bot_to_move(home: Path) -> Path:
    from railgames.core.engine import Game
    from railgames.core.record import PlayerSpec, save_record
    from railgames.games import load_ruleset

    ruleset = load_ruleset("paris-connection")
    players = [PlayerSpec(name="Ann"), *(PlayerSpec(name=n, kind="search:hard") for n in ("Ada", "Ben", "Cy"))]
    seed = next(s for s in range(1, 100) if Game.new(ruleset, players, s).prompt().seat != 0)  # type: ignore[union-attr]
    game = Game.new(ruleset, players, seed)
    path = home / "think.json"
    save_record(game.record, path)
    return path


async def measure(keys: int) -> tuple[list[float], list[float]]:
    from railgames.app.main import RailgamesApp
    from railgames.app.screens.game import GameScreen

    with tempfile.TemporaryDirectory() as home:
        app = RailgamesApp(load_path=record_with_bot_to_move(Path(home)), bot_delay=0.0, handoff=False)
        times: list[float] = []
        idle: list[float] = []
        async with app.run_test(size=(120, 40)) as pilot:
            deadline = time.monotonic() + 120
            while len(times) < keys and time.monotonic() < deadline:
                screen = app.screen
                if not isinstance(screen, GameScreen) or screen._think is None:
                    await asyncio.sleep(0.05)
                    if isinstance(screen, GameScreen) and screen.session.prompt() is not None \
                            and not screen.session.bot_to_move():
                        await pilot.press("enter")  # Ann plays the first choice
                    continue
                start = time.perf_counter()
                await pilot.press(KEYS[len(times) % 2])
                took = (time.perf_counter() - start) * 1000
                if screen._think is not None:
                    times.append(took)
            # The same keys with nobody thinking: the screen's own pace on this machine.
            for s in app.screen_stack:
                if isinstance(s, GameScreen):
                    s.stop_thinking()
            for k in range(keys):
                start = time.perf_counter()
                await pilot.press(KEYS[k % 2])
                idle.append((time.perf_counter() - start) * 1000)
        return times, idle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=20)
    args = parser.parse_args()
    times, idle = asyncio.run(measure(args.keys))
    if not times:
        print("no key went in during a think")
        return 1
    for label, got in (("during search-bot thinks", times), ("with no bot thinking", idle)):
        got.sort()
        p95 = got[min(len(got) - 1, int(0.95 * len(got)))]
        print(f"{len(got)} keys {label}: median {statistics.median(got):.1f} ms, "
              f"p95 {p95:.1f} ms, max {max(got):.1f} ms (target: under {TARGET_MS:.0f} ms)")
    return 0 if max(times) < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
