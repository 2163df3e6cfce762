"""App tests run in a private data directory, with colour on and no bot pause."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def app_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(data))
    monkeypatch.setenv("RAILGAMES_BOT_DELAY", "0")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)
    monkeypatch.setenv("TZ", "UTC")
    return data
