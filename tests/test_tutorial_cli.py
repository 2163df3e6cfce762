"""``railgames learn``: an unknown game is refused in one line; --help says what it does."""

from __future__ import annotations

import subprocess
import sys


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "railgames.cli", *args], capture_output=True,
                          text=True, timeout=60)


def test_learn_refuses_an_unknown_game_in_one_line() -> None:
    proc = run_cli("learn", "nowhere")
    assert proc.returncode == 2
    assert "no game called 'nowhere'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_learn_has_help() -> None:
    proc = run_cli("learn", "--help")
    assert proc.returncode == 0 and "usage:" in proc.stdout and "tutorial" in proc.stdout.lower()
