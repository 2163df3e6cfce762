"""What runs for each browser ``railgames serve`` admits: ``python -m railgames.net.web_app``."""

from __future__ import annotations

if __name__ == "__main__":
    from railgames.net.app import run

    raise SystemExit(run(web=True))
