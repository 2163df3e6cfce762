"""Enter that applies an action: processor time of the app's work, measured in process.

The same mid-game boards and the same keys as app_enter_latency.py (Enter again
and again, Tab after three Enters that choose nothing), in the whole app run
headless by Textual's pilot at 80x24 and 120x40. For each Enter that applies an
action, the processor time from the key to the end of the last frame it drew that
changes the terminal (worked out as the cells it changes, as the app writes
them) is taken. Unlike
the time to the last byte in a pty, it does not move with what else the machine
is running, so it is what to compare two versions of the app by.

    .venv/bin/python benchmarks/enter_cpu.py [--actions 30] [--games ...] [--sizes ...]
        [--repeat N]  (the same Enters N times, each Enter's least time: less noise)
        [--profile FILE]  (cProfile of every Enter, key to its first frame that writes)
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from appmeasure import GAMES, SIZES, TITLES, Figure
from midgame import midgame, write_record


async def measure(game_id: str, cols: int, rows: int, actions: int,
                  profiler: cProfile.Profile | None) -> tuple[Figure, Figure]:
    from railgames.app.main import RailgamesApp
    from railgames.app.screens.game import GameScreen
    from railgames.compat import ChopsUpdate, LayoutUpdate

    game = midgame(game_id)
    with tempfile.TemporaryDirectory() as home:
        path = write_record(game, Path(home), "midgame.json")
        # Bots (Paris Connection) move after the frames of the Enter are measured.
        app = RailgamesApp(load_path=path, handoff=False, bot_delay=0.5)
        last = [0.0]
        display = app._display

        def drawn(screen: Any, renderable: Any) -> None:
            # Worked out as the real app does (see RailgamesApp._display), minus the
            # write; a frame that changes nothing on the terminal writes nothing.
            text = "" if renderable is None else "?"
            if isinstance(renderable, (ChopsUpdate, LayoutUpdate)):
                app._screen_diff.resize(*app.size)
                text = app._screen_diff.render(renderable, app.console)
            display(screen, renderable)
            if text:
                last[0] = time.process_time()
                if profiler is not None:
                    profiler.disable()  # the key's work is done: what follows is the pilot's

        app._display = drawn  # type: ignore[method-assign]
        applied: list[float] = []
        other: list[float] = []
        async with app.run_test(size=(cols, rows)) as pilot:
            await pilot.pause(0.3)

            def played() -> int:
                screen = app.screen
                return len(screen.session.game.record.actions) if isinstance(
                    screen, GameScreen) else -1

            async def settle() -> None:
                await pilot.pause()
                await asyncio.sleep(0.06)
                await pilot.pause()

            async def bots_done() -> None:
                for _ in range(200):
                    screen = app.screen
                    if not isinstance(screen, GameScreen):
                        return
                    prompt = screen.session.prompt()
                    if prompt is None or not screen.session.is_bot(prompt.seat):
                        return
                    await asyncio.sleep(0.05)
                await settle()

            idle = 0
            for _ in range(actions * 4):
                if len(applied) >= actions or not isinstance(app.screen, GameScreen):
                    break
                count = played()
                last[0] = 0.0
                if profiler is not None:
                    profiler.enable()
                start = time.process_time()
                await pilot.press("enter")
                await settle()
                took = (last[0] - start) * 1000 if last[0] else 0.0
                if played() > count:
                    applied.append(took)
                    idle = 0
                    await bots_done()
                else:
                    if took:
                        other.append(took)
                    idle += 1
                if idle >= 3:
                    await pilot.press("tab")
                    await settle()
                    idle = 0
    return Figure(applied), Figure(other)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=30)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--sizes", default=",".join(f"{c}x{r}" for c, r in SIZES))
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="play the same Enters N times; each Enter's least time counts "
                             "(what other processes add to a run is left out)")
    parser.add_argument("--profile", metavar="FILE", help="write cProfile's figures to FILE")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    print("Enter that applies an action: processor time, key to the last frame drawn (in process)")
    for game_id in args.games.split(","):
        for size in args.sizes.split(","):
            cols, rows = (int(n) for n in size.lower().split("x"))
            runs = [asyncio.run(measure(game_id, cols, rows, args.actions, profiler))
                    for _ in range(max(1, args.repeat))]
            applied, other = (Figure([min(times) for times in zip(*(run[i].values for run in runs), strict=False)])
                              for i in (0, 1))
            print(f"{TITLES[game_id]:<22} {cols}x{rows}  applied: {applied.show(' ms', 1)}\n"
                  f"{'':<31}other Enters: {other.show(' ms', 1)}", flush=True)
    if profiler is not None:
        profiler.dump_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
