"""Write SVG pictures of the app's main screens into screenshots/.

    .venv/bin/python screenshots/make_screenshots.py [scene ...]

Each scene is the same fixed moment the snapshot tests use, at 120x40 and 80x24.
With scene names, only those are written.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

SIZES = [(120, 40), (80, 24)]


async def shoot(name: str, make: object, size: tuple[int, int]) -> Path:
    app, keys = make()  # type: ignore[operator]
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        filename = f"{name}-{size[0]}x{size[1]}.svg"
        app.save_screenshot(filename=filename, path=str(HERE))
    return HERE / filename


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RAILGAMES_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["RAILGAMES_BOT_DELAY"] = "0"
        os.environ.pop("NO_COLOR", None)
        os.environ.pop("TEXTUAL_THEME", None)
        from tests.app.scenes import scenes

        wanted = set(sys.argv[1:])
        for size in SIZES:
            for name, make in scenes(Path(tmp) / "records").items():
                if not wanted or name in wanted:
                    print(asyncio.run(shoot(name, make, size)).name)


if __name__ == "__main__":
    main()
