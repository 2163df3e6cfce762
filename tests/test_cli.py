"""The headless command line: simulate, replay, maps check."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from railgames.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "railgames", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )


@pytest.fixture(scope="module")
def saved_games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("records")
    proc = run_cli("simulate", "new-england", "--players", "4", "--games", "3", "--seed", "11",
                   "--bots", "greedy", "--save", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    return out, json.loads(proc.stdout)


def test_simulate_json_has_the_promised_shape(saved_games: tuple[Path, dict]) -> None:
    _, summary = saved_games
    assert set(summary) == {"games", "games_per_second"}
    assert [g["seed"] for g in summary["games"]] == [11, 12, 13]
    for g in summary["games"]:
        assert g["finished"] is True
        assert set(g["scores"]) == {"Ann", "Bob", "Cat", "Dan"}
        assert set(g["winners"]) <= set(g["scores"])
        best = max(g["scores"].values())
        assert sorted(g["winners"]) == sorted(n for n, s in g["scores"].items() if s == best)
        assert g["actions"] > 20


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulate_finishes_every_game_for_every_player_count(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "new-england", "--players", str(players), "--games", "4",
                 "--bots", "random", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert len(games) == 4 and all(g["finished"] for g in games)


def test_simulate_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "new-england", "--players", "3", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "wins" in out and "mean score" in out and "games/s" in out and "actions per game" in out


def test_simulate_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "new-england", "--players", "2"]) == 2
    assert "3 to 6 players" in capsys.readouterr().err


def test_replay_gives_the_same_scores(saved_games: tuple[Path, dict]) -> None:
    out, summary = saved_games
    for g in summary["games"]:
        path = out / f"new-england-4p-seed{g['seed']}.json"
        proc = run_cli("replay", str(path), "--json")
        assert proc.returncode == 0, proc.stderr
        replayed = json.loads(proc.stdout)
        assert replayed == {"finished": True, "scores": g["scores"], "winners": g["winners"],
                            "actions": g["actions"]}


def test_replay_refuses_a_hand_edited_illegal_bid(saved_games: tuple[Path, dict], tmp_path: Path) -> None:
    out, summary = saved_games
    record = json.loads((out / f"new-england-4p-seed{summary['games'][0]['seed']}.json").read_text())
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "bid")
    record["actions"][index]["amount"] = 999
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    proc = run_cli("replay", str(bad))
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    seat = record["actions"][index]["seat"]
    name = record["players"][seat]["name"]
    assert f"action {index} (bid by {name})" in proc.stderr
    assert "a bid of $999 needs" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_replay_of_a_truncated_file_is_one_clear_line(saved_games: tuple[Path, dict], tmp_path: Path) -> None:
    out, summary = saved_games
    text = (out / f"new-england-4p-seed{summary['games'][0]['seed']}.json").read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    proc = run_cli("replay", str(cut))
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "truncated" in lines[0] and "cut.json" in lines[0]


@pytest.mark.parametrize("content, expected", [
    ("", "empty"),
    ("[1, 2]", "expected a JSON object"),
    ('{"game": "new-england"}', "field 'map'"),
    ('{"format": 99, "game": "x"}', "format 99"),
])
def test_replay_of_a_malformed_file_is_one_clear_line(tmp_path: Path, content: str, expected: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert expected in err and len(err.strip().splitlines()) == 1


def test_replay_of_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/game.json"]) == 1
    assert "no such file" in capsys.readouterr().err


def test_replay_of_an_unknown_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "g.json"
    bad.write_text(json.dumps({"game": "chess", "map": "x", "players": [{"name": "A"}], "seed": 1}))
    assert main(["replay", str(bad)]) == 1
    assert "no game called 'chess'" in capsys.readouterr().err


def test_maps_check_accepts_the_shipped_maps(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (ROOT / "maps").glob("*.toml"))
    assert files
    assert main(["maps", "check", *files]) == 0
    assert capsys.readouterr().out.count(": ok") == len(files)


def test_maps_check_names_the_file_and_line_of_a_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "maps" / "new-england.toml").read_text()
    broken = tmp_path / "broken.toml"
    broken.write_text(re.sub(r"value\s*=\s*5\b", 'value = "five"', text, count=1))
    assert main(["maps", "check", str(broken)]) == 1
    err = capsys.readouterr().err
    assert "broken.toml" in err and "line " in err and "value" in err


def test_every_command_has_help() -> None:
    for args in (["--help"], ["simulate", "--help"], ["replay", "--help"], ["maps", "check", "--help"],
                 ["play", "--help"], ["load", "--help"], ["rules", "--help"], ["schema", "--help"],
                 ["demo", "--help"], ["watch", "--help"]):
        proc = run_cli(*args)
        assert proc.returncode == 0 and "usage:" in proc.stdout, args


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_a_command_alone_is_parsed_as_by_the_whole_parser() -> None:
    from railgames.cli import COMMANDS, NETWORK_COMMANDS, build_parser

    whole = subcommands(build_parser())
    assert set(whole) == COMMANDS  # every command is known by name, so built alone
    for command in COMMANDS:
        alone = subcommands(build_parser(command))
        assert set(alone) == (set(NETWORK_COMMANDS) if command in NETWORK_COMMANDS else {command})
        assert alone[command].format_help() == whole[command].format_help()


@pytest.mark.parametrize("argv", [
    ["replay", "a.json"], ["replay", "a.json", "--json"], ["replay", "--json", "a.json"],
    ["replay", ""], ["replay", "dir/with space.json"], ["replay", "-1"], ["replay", "--js", "a"],
    ["replay", "a", "b"], ["replay", "--json", "--json"], ["replay", "a", "--json", "--json"],
    ["replay", "--", "a"], ["replay", "-h"], ["replay"], ["replays", "a"], ["simulate", "a"],
])
def test_a_short_replay_command_is_read_as_the_parser_reads_it(argv: list[str]) -> None:
    from railgames.cli import build_parser, quick_replay_args

    quick = quick_replay_args(argv)
    taken = argv in (["replay", "a.json"], ["replay", "a.json", "--json"],
                     ["replay", "--json", "a.json"], ["replay", ""], ["replay", "dir/with space.json"])
    assert (quick is not None) == taken  # the rest is left to the parser
    if quick is not None:
        assert vars(quick) == vars(build_parser("replay").parse_args(argv))


def test_headless_commands_do_not_import_textual(saved_games: tuple[Path, dict]) -> None:
    out, summary = saved_games
    record = out / f"new-england-4p-seed{summary['games'][0]['seed']}.json"
    code = (
        "import sys\n"
        "from railgames.cli import main\n"
        "assert main(['simulate', 'new-england', '--players', '3', '--games', '1', '--json']) == 0\n"
        f"assert main(['replay', {str(record)!r}, '--json']) == 0\n"
        f"assert main(['maps', 'check', {str(ROOT / 'maps' / 'new-england.toml')!r}]) == 0\n"
        "for game in ('new-england', 'paris-connection', 'steel-driver'):\n"
        "    assert main(['demo', game, '--text', '--players', '3']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "assert not loaded, loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr


def test_schema_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "new-england"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "bid" in json.dumps(schema)


def test_demo_and_watch_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 1, "game": "new-england"')
    cases = [
        (["demo", "new-england", "--text", "--players", "9"], "3 to 6 players, not 9"),
        (["demo", "nowhere", "--text"], "no game called 'nowhere'"),
        (["demo", "new-england", "--speed", "0"], "--speed must be more than 0"),
        (["watch", str(tmp_path / "missing.json")], "no such file"),
        (["watch", str(broken)], "truncated"),
    ]
    for args, reason in cases:
        proc = run_cli(*args)
        assert proc.returncode == 1, args
        assert reason in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert "Traceback" not in proc.stderr


def test_demo_text_is_the_same_for_the_same_seed() -> None:
    first = run_cli("demo", "paris-connection", "--text", "--seed", "3", "--players", "5")
    again = run_cli("demo", "paris-connection", "--text", "--seed", "3", "--players", "5")
    assert first.returncode == 0 and first.stdout == again.stdout
    assert "5 greedy bots" in first.stdout.splitlines()[0] and "seed 3" in first.stdout.splitlines()[0]


@pytest.mark.parametrize("command", [("play", "new-england", "--map", "rotw-mexico"),
                                     ("simulate", "new-england", "--players", "3",
                                      "--map", "rotw-mexico")])
def test_another_games_map_is_named_as_such_in_one_line(command: tuple[str, ...]) -> None:
    proc = run_cli(*command)
    assert proc.returncode != 0
    assert proc.stderr == ("railgames: map 'rotw-mexico' is a Railways of the World map; "
                           "New England Railways is played on: new-england\n")


def test_the_maps_of_a_game_are_listed_when_another_games_map_is_asked_for() -> None:
    from railgames.core.errors import MapError
    from railgames.games import load_ruleset

    with pytest.raises(MapError, match="Railways of the World is played on: rotw-eastern-us, "
                                       "rotw-mexico$"):
        load_ruleset("railways-of-the-world", "steel-driver")
