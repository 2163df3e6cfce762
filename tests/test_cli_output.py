"""What the headless commands print: rendered rules on a terminal, whole wins, files named."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from railgames.cli import main
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

HELP = Path(__file__).resolve().parents[1] / "railgames" / "games" / "paris_connection" / "help.md"


def test_rules_into_a_pipe_are_the_plain_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "paris-connection"]) == 0
    assert capsys.readouterr().out.strip() == HELP.read_text(encoding="utf-8").strip()


def test_rules_on_a_terminal_are_rendered(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["rules", "paris-connection"]) == 0
    out = capsys.readouterr().out
    assert "Paris Connection — how to play" in out
    assert "# Paris Connection" not in out and "**locomotives**" not in out


def test_simulate_prints_whole_wins_as_whole_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "new-england", "--players", "3", "--games", "3"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:5]]
    assert [r[1] for r in rows] == ["Ann", "Bob", "Cat"]
    assert all("." not in r[2] for r in rows), rows


def test_shared_wins_are_shown_as_shares() -> None:
    from railgames.cli import wins_text

    assert [wins_text(Fraction(n)) for n in (0, 1, 4)] == ["0", "1", "4"]
    assert wins_text(Fraction(1, 2)) == "1/2" and wins_text(Fraction(7, 3)) == "2 1/3"


@pytest.fixture(scope="module")
def finished() -> dict:
    game = play_bot_game(load_ruleset("new-england"), bot_players(3, "greedy"), seed=2)
    return json.loads(game.record.dump_json())


def broken_records(record: dict) -> dict[str, str]:
    bid = next(i for i, a in enumerate(record["actions"]) if a["type"] == "bid")
    illegal = json.loads(json.dumps(record))
    illegal["actions"][bid]["amount"] = 999
    return {
        "illegal.json": json.dumps(illegal),
        "unknown-game.json": json.dumps({**record, "game": "chess"}),
        "unknown-map.json": json.dumps({**record, "map": "atlantis"}),
        "forged.json": json.dumps({**record, "actions": [{"type": "fly", "seat": 0}]}),
        "wrong-players.json": json.dumps({**record, "players": record["players"][:1]}),
        "truncated.json": json.dumps(record)[:200],
        "empty.json": "",
    }


BROKEN = ["illegal.json", "unknown-game.json", "unknown-map.json", "forged.json",
          "wrong-players.json", "truncated.json", "empty.json"]


@pytest.mark.parametrize("name", BROKEN)
def test_every_replay_error_names_the_file(name: str, finished: dict, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_text(broken_records(finished)[name])
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err, err
