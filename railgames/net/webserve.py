"""``railgames serve``: the launcher and the host's tables in a web browser (textual-serve).

It runs beside ``railgames host`` (same data directory) and reaches the same
tables through the host's local socket, so an SSH player and a browser player
can share a table. Each browser gets its own app process, as each SSH
connection does; the player gives a name and the table password first.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from railgames.core.errors import RailgamesError


def serve(bind: str, port: int, data_dir: Path) -> int:
    from textual_serve.server import Server

    marker = data_dir / "host" / "socket-path"
    try:
        socket_path = marker.read_text().strip()
    except OSError:
        socket_path = ""
    if not socket_path or not Path(socket_path).exists():
        raise RailgamesError(f"no host is running with the data directory {data_dir}: start "
                             "'railgames host' first (with the same --data-dir)")
    os.environ["RAILGAMES_TABLES"] = socket_path
    os.environ["RAILGAMES_HOST_DIR"] = str(data_dir)
    os.environ.pop("RAILGAMES_TOKEN", None)
    command = f"{shlex.quote(sys.executable)} -m railgames.net.web_app"
    print(f"railgames in a browser: http://{bind}:{port}/  (tables of the host in {data_dir})",
          flush=True)
    Server(command, host=bind, port=port, title="railgames").serve()
    return 0
