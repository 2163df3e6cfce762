"""What runs on each terminal the host opens: ``python -m railgames.net.seat_app``."""

from __future__ import annotations

import gc

if __name__ == "__main__":
    gc.disable()  # as the command line does: no collector passes while starting (see run_app)
    from railgames.net.app import run

    gc.freeze()
    gc.enable()
    raise SystemExit(run())
