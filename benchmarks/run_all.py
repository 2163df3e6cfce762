"""Every speed target of the suite in one table, each a ratio to a reference measured in the same run.

These machines are shared and their speed drifts (the same ``import pydantic`` took 111 ms
and 190 ms an hour apart), so no row here is an absolute time: each time is judged as a
ratio to a reference run in the same script, alternating with it on the same machine
(a bare Textual app, a bare ``import pydantic``), or as a count of instructions
(valgrind, which load does not change); bytes are judged as they are. Every row shows
mean, p95 and max, the target, and OK or OVER TARGET. Each part is a script of its own
in this folder, runnable alone; this one gathers their ``ratio_rows``:

    key_ratio.py            board-cursor move and Enter, key to last byte, every game at 80x24
                            and 120x40, against benchmarks/bare_app.py; bytes per action
    replay_start.py         ``railgames replay FILE``, whole process, against ``import pydantic``
    rules_instructions.py   a random-bot 4-player game of each game, in instructions,
                            against the counts at the start of this work
    session_cost.py         memory per SSH session (unique set size) and sessions held
    login_frame.py          SSH login to first frame, against a bare Textual app started alike
    app_startup.py          start to launcher, against a minimal Textual app

    .venv/bin/python benchmarks/run_all.py [--quick] [--games new-england,...]
        [--parts key_ratio,replay_start,...] [--json FILE]

The machine's load average is printed first and last. The exit status is 0 only when
every row is on target.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from appmeasure import GAMES, TITLES, load_line  # noqa: E402

PARTS = ("key_ratio", "replay_start", "rules_instructions", "session_cost", "login_frame",
         "app_startup")


@dataclass
class Row:
    part: str
    figure: str
    game: str
    size: str
    values: str
    target: str
    ok: bool


def part_rows(part: str, games: list[str], quick: bool) -> list[Row]:
    """One part's rows; a part that can't run is one row saying why (and not on target)."""
    try:
        module = importlib.import_module(part)
        rows = module.ratio_rows(games, quick)
    except Exception as exc:  # a broken part still leaves the others' rows
        traceback.print_exc(file=sys.stderr)
        return [Row(part, f"{part}.py could not be measured", "all", "-",
                    f"{type(exc).__name__}: {exc}"[:120], "measured", False)]
    return [Row(part, str(r["figure"]), str(r["game"]), str(r["size"]), str(r["values"]),
                str(r["target"]), bool(r["ok"])) for r in rows]


def print_table(rows: list[Row]) -> None:
    head = ("figure", "game", "size", "measured (mean / p95 / max)", "target")
    cells = [(r.figure, TITLES.get(r.game, r.game), r.size, r.values, r.target) for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h)
              for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + "  verdict")
    for r, c in zip(rows, cells, strict=True):
        print("  ".join(x.ljust(w) for x, w in zip(c, widths, strict=True))
              + ("  OK" if r.ok else "  OVER TARGET"))
    over = sum(not r.ok for r in rows)
    print(f"{len(rows) - over} of {len(rows)} figures on target")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--quick", action="store_true", help="fewer runs and actions")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"which parts to measure (of {', '.join(PARTS)})")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    games = args.games.split(",")
    parts = [p for p in args.parts.split(",") if p]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        parser.error(f"no such part: {', '.join(unknown)} (the parts: {', '.join(PARTS)})")
    start_load, started = load_line(), time.monotonic()
    rows: list[Row] = []
    for part in parts:
        print(f"measuring {part} ...", file=sys.stderr, flush=True)
        rows += part_rows(part, games, args.quick)
    print(f"railgames speed figures; at the start {start_load}; at the end {load_line()}; "
          f"{time.monotonic() - started:,.0f} s")
    print_table(rows)
    if args.json:
        out: dict[str, Any] = {"load_start": start_load, "load_end": load_line(),
                               "rows": [asdict(r) for r in rows]}
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
