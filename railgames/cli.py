"""The ``railgames`` command.

The headless commands (simulate, replay, maps check, rules, schema, demo
--text) never import Textual; only ``play``, ``load``, ``demo``, ``watch`` and
the bare command start the app.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from railgames.core.errors import RailgamesError

if TYPE_CHECKING:
    import argparse
    from fractions import Fraction


def _out(text: str = "") -> None:
    print(text)


def _err(text: str) -> None:
    print(f"railgames: {text}", file=sys.stderr)


# ------------------------------------------------------------------ simulate
def wins_text(wins: Fraction) -> str:
    """Whole wins as a whole number; shared wins as a mixed fraction ("2 1/3")."""
    whole, part = divmod(wins, 1)
    if not part:
        return str(int(whole))
    share = f"{part.numerator}/{part.denominator}"
    return f"{int(whole)} {share}" if whole else share


def cmd_simulate(args: argparse.Namespace) -> int:
    from fractions import Fraction

    from railgames.core.collector import quiet_start

    with quiet_start():
        from railgames.core.record import save_record
        from railgames.core.simulate import bot_players, play_bot_game
        from railgames.games import load_ruleset

        ruleset = load_ruleset(args.game, args.map)
    if not ruleset.min_players <= args.players <= ruleset.max_players:
        board = f" on the map '{ruleset.map.id}'" if args.map else ""
        _err(f"{ruleset.title} is for {ruleset.min_players} to {ruleset.max_players} players{board}")
        return 2
    if args.games < 1:
        _err("--games must be at least 1")
        return 2
    players = bot_players(args.players, args.bots)
    save_dir = Path(args.save) if args.save else None
    if save_dir:
        save_dir.mkdir(parents=True, exist_ok=True)
    games: list[dict[str, Any]] = []
    wins = {p.name: Fraction(0) for p in players}  # a shared win counts as a share
    totals = {p.name: 0 for p in players}
    started = time.perf_counter()

    def run_one(i: int) -> None:
        seed = args.seed + i
        game = play_bot_game(ruleset, players, seed)
        result = game.result()
        assert result is not None
        for w in result.winners:
            wins[w] += Fraction(1, len(result.winners))
        for name, score in result.scores.items():
            totals[name] += score
        games.append({
            "seed": seed, "finished": True, "scores": result.scores,
            "winners": result.winners, "actions": len(game.record.actions),
        })
        if save_dir:
            board = f"-{args.map}" if args.map else ""
            save_record(game.record, save_dir / f"{args.game}{board}-{args.players}p-seed{seed}.json")

    if args.json or not sys.stderr.isatty():
        for i in range(args.games):
            run_one(i)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task(f"{ruleset.title}, {args.players} players", total=args.games)
            for i in range(args.games):
                run_one(i)
                progress.advance(task)
    elapsed = time.perf_counter() - started
    rate = len(games) / elapsed if elapsed > 0 else float("inf")
    if args.json:
        print(json.dumps({"games": games, "games_per_second": round(rate, 2)}))
        return 0
    n = len(games)
    mean_actions = sum(g["actions"] for g in games) / n
    _out(f"{ruleset.title}: {n} games, {args.players} {args.bots} bots, seeds {args.seed}..{args.seed + n - 1}")
    _out(f"{'seat':<6}{'player':<8}{'wins':>8}{'mean score':>12}")
    for i, p in enumerate(players):
        _out(f"{i:<6}{p.name:<8}{wins_text(wins[p.name]):>8}{totals[p.name] / n:>12.1f}")
    _out(f"actions per game: {mean_actions:.1f}   games/s: {rate:.1f}")
    if save_dir:
        _out(f"records saved in {save_dir}")
    return 0


# ------------------------------------------------------------------ replay
def replay_file(path: str, *, settle_collector: bool = False) -> Any:
    """Read and replay a record; every refusal is one line that starts with the file's name.

    ``settle_collector``: this process only replays (``railgames replay``), so the
    collector keeps quiet while the rules load and is settled for it once they are
    (see core/collector.py).
    """
    from contextlib import nullcontext

    from railgames.core.collector import quiet_start

    with quiet_start() if settle_collector else nullcontext():
        from railgames.core.engine import Game
        from railgames.core.errors import RecordError
        from railgames.core.record import load_record
        from railgames.games import ruleset_for_record

        record = load_record(path)  # its errors name the file already
        ruleset = ruleset_for_record(record, path)  # so do these
    try:
        return Game.replay(ruleset, record)
    except RailgamesError as exc:  # every other problem with the file names it too
        raise RecordError(f"{path}: {exc.reason}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    game = replay_file(args.file, settle_collector=True)
    result = game.result()
    out = {
        "finished": result is not None,
        "scores": result.scores if result else {},
        "winners": result.winners if result else [],
        "actions": len(game.record.actions),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    _out(f"{game.ruleset.title}: {out['actions']} actions replayed, all legal.")
    if result is None:
        prompt = game.prompt()
        _out(f"The game is not finished: {prompt.text if prompt else ''}")
        return 0
    for name, score in result.scores.items():
        _out(f"  {name:<12}{score:>6}")
    _out(f"Winner: {' and '.join(result.winners)}")
    return 0


# ------------------------------------------------------------------ maps
def check_map_file(path: str) -> str:
    """Validate one map file; returns a one-line summary or raises MapError."""
    from railgames.core.errors import MapError
    from railgames.core.maps import GraphMap, HexMap, load_map_file, peek_header
    from railgames.games import GAMES, ruleset_class

    header = peek_header(path)
    game = header.get("game")
    if game in GAMES:
        model = ruleset_class(str(game)).map_model
    elif header.get("kind") == "hex":
        model = HexMap
    elif header.get("kind", "graph") == "graph":
        model = GraphMap
    else:
        raise MapError(f"{path}: field kind: '{header.get('kind')}' is neither 'graph' nor 'hex'")
    m = load_map_file(path, model, cached=False)  # this command is there to check the file
    if isinstance(m, GraphMap):
        return f"{path}: ok ({m.kind} map '{m.id}', {len(m.cities)} cities, {len(m.links)} links)"
    assert isinstance(m, HexMap)
    return f"{path}: ok (hex map '{m.id}', {len(m.terrain)} hexes, {len(m.cities)} cities)"


def cmd_maps_check(args: argparse.Namespace) -> int:
    from railgames.core.errors import MapError

    failed = 0
    for path in args.files:
        try:
            _out(check_map_file(path))
        except MapError as exc:
            failed += 1
            print(exc.reason, file=sys.stderr)
    return 1 if failed else 0


# ------------------------------------------------------------------ rules / schema
def cmd_rules(args: argparse.Namespace) -> int:
    from importlib import resources

    from railgames.games import ruleset_class

    cls = ruleset_class(args.game)
    package = cls.__module__.rsplit(".", 1)[0]
    text = resources.files(package).joinpath("help.md").read_text(encoding="utf-8")
    if sys.stdout.isatty():  # rendered on a terminal; plain Markdown into a pipe or a file
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        print(text)
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from railgames.core.record import GameRecord
    from railgames.games import ruleset_class

    if args.what == "record":
        print(json.dumps(GameRecord.model_json_schema(), indent=1))
    else:
        print(json.dumps(ruleset_class(args.what).action_adapter.json_schema(), indent=1))
    return 0


# ------------------------------------------------------------------ the app
# Bots by name: search thinks about 1 s a move, search:easy 0.3 s, search:hard 2 s.
BOT_KINDS = ("random", "greedy", "search", "search:easy", "search:hard")


# Bots' names, one for each initial: a bot takes one whose initial no one else has, so
# every player's letter on the board is their initial (see palette.player_letters).
BOT_NAMES = ("Ada", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu",
             "Max", "Ned", "Otto", "Pam", "Quin", "Rex", "Sam", "Tom", "Una", "Vic", "Wes", "Zoe")


def parse_seats(text: str) -> list[Any]:
    """'Ann,Bob,bot:greedy' -> player specs.

    Bots get short names of their own (the players table says what kind of bot
    plays a seat), each with an initial none of the other players has.
    """
    from railgames.core.record import PlayerSpec

    parts = [p.strip() for p in text.split(",") if p.strip()]
    people = [part[:24] for part in parts if not part.startswith("bot:")]
    taken = {name[:1].upper() for name in people}
    free = [n for n in BOT_NAMES if n[0] not in taken] + [
        n for n in BOT_NAMES if n[0] in taken and n.lower() not in {p.lower() for p in people}]
    specs = []
    for part in parts:
        if part.startswith("bot:"):
            kind = part[4:] or "greedy"
            if kind not in BOT_KINDS:
                raise RailgamesError(f"unknown bot kind '{kind}' ({', '.join(BOT_KINDS)})")
            name = free.pop(0) if free else f"Bot {len(specs) + 1}"
            specs.append(PlayerSpec(name=name, kind=kind))  # type: ignore[arg-type]
        else:
            specs.append(PlayerSpec(name=part[:24]))
    return specs


def _quiet_collector() -> None:
    """No garbage-collector passes while the app starts: it turns them back on (run_app)."""
    import gc

    gc.disable()


def cmd_play(args: argparse.Namespace) -> int:
    start: dict[str, Any] = {}
    if getattr(args, "game", None):
        from railgames.games import playable_games, ruleset_class

        cls = ruleset_class(args.game)
        if cls not in playable_games():
            raise RailgamesError(f"{cls.title} cannot be played in the app yet "
                                 "(its rules work with simulate and replay)")
        players = parse_seats(args.players) if args.players else None
        map_id = getattr(args, "map", None)
        if players is not None or map_id:
            from railgames.core.engine import Game
            from railgames.games import load_ruleset

            ruleset = load_ruleset(args.game, map_id)  # an unknown map is refused here
            problem = Game.players_problem(ruleset, players) if players is not None else None
            if problem:
                raise RailgamesError(f"--players: {problem}")
        start = {"game": args.game, "players": players, "seed": args.seed, "map": map_id,
                 "handoff": bool(getattr(args, "handoff", False))}
    _quiet_collector()
    from railgames.app.main import run_app

    return run_app(new_game=start or None)


def cmd_load(args: argparse.Namespace) -> int:
    replay_file(args.file)  # refuse a bad file here, with one clear line
    _quiet_collector()
    from railgames.app.main import run_app

    return run_app(load_path=args.file)


# ------------------------------------------------------------------ demo / watch
def cmd_demo(args: argparse.Namespace) -> int:
    from railgames.core.demo import demo_game
    from railgames.games import load_ruleset

    if args.speed is not None and args.speed <= 0:
        raise RailgamesError("--speed must be more than 0 (1 is the normal pace)")
    if args.tour:
        return _tour(args)
    game = demo_game(load_ruleset(args.game, args.map), args.players, args.seed)
    if args.text:
        from railgames.core.demo import text_demo

        for line in text_demo(game):
            print(line)
        return 0
    return _watch_in_app(args.game, game.ruleset.title, f"railgames demo {args.game} --text",
                         {"record": game.record, "demo": True, "speed": args.speed or 1.0})


def _watch_in_app(game_id: str, title: str, instead: str, watch: dict[str, Any]) -> int:
    """Open ``watch`` in the app's viewer, where the game has a board there (else say
    ``instead``, the plain-text command that shows the same)."""
    from railgames.games import playable_games, ruleset_class

    if ruleset_class(game_id) not in playable_games():
        raise RailgamesError(f"{title} has no board in the app yet: use {instead}")
    _quiet_collector()
    from railgames.app.main import run_app

    return run_app(watch=watch)


def _tour(args: argparse.Namespace) -> int:
    """``demo GAME --tour``: every rule once, the stretches between told in a line (in the
    viewer, or with --text as plain text)."""
    from railgames.core.tour import chosen_tour, text_tour
    from railgames.games import load_ruleset

    chosen = [f"--{name}" for name in ("players", "map", "seed") if getattr(args, name) is not None]
    if chosen:
        raise RailgamesError(f"a tour plays its own seeded games: leave out {', '.join(chosen)}")
    ruleset = load_ruleset(args.game)
    tour = chosen_tour(ruleset)
    if args.text:
        for line in text_tour(tour, ruleset):
            print(line)
        return 0
    return _watch_in_app(args.game, ruleset.title, f"railgames demo {args.game} --tour --text",
                         {"tour": tour, "speed": args.speed or 1.0})


def cmd_learn(args: argparse.Namespace) -> int:
    from railgames.games import UnknownGame, playable_games, ruleset_class

    try:
        cls = ruleset_class(args.game)
    except UnknownGame as exc:  # a usage error, as a bad argument is
        _err(exc.reason)
        return 2
    if cls not in playable_games():
        raise RailgamesError(f"{cls.title} has no tutorial (it cannot be played in the app yet)")
    _quiet_collector()
    from railgames.app.main import run_app

    return run_app(tutorial=args.game)


def cmd_watch(args: argparse.Namespace) -> int:
    if args.speed is not None and args.speed <= 0:
        raise RailgamesError("--speed must be more than 0 (1 is the normal pace)")
    game = replay_file(args.file)  # refuse a bad file here, with one clear line
    _quiet_collector()
    from railgames.app.main import run_app

    return run_app(watch={"record": game.record, "demo": False, "speed": args.speed or 1.0})


# ------------------------------------------------------------------ parser
NETWORK_COMMANDS = ("host", "serve")  # railgames/net/commands.py adds these
COMMANDS = frozenset({"simulate", "replay", "maps", "rules", "schema", "play", "demo", "watch",
                      "load", "learn", *NETWORK_COMMANDS})


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; given a ``command``, only its part (argparse looks up the
    translation of its own words for every parser it makes, which adds up)."""
    import argparse

    p = argparse.ArgumentParser(
        prog="railgames",
        description="Railway board games in the terminal. With no command, opens the launcher.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def wanted(name: str) -> bool:
        return command is None or command == name

    if wanted("simulate"):
        sim = sub.add_parser("simulate", help="play bot-only games and summarise them",
                             description="Play bot-only games and print a summary.")
        sim.add_argument("game", help="game id, e.g. new-england")
        sim.add_argument("--players", type=int, required=True, help="number of seats")
        sim.add_argument("--map", help="map id, for games with more than one board (default: the game's own)")
        sim.add_argument("--games", type=int, default=10, help="how many games (default 10)")
        sim.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i")
        sim.add_argument("--bots", choices=BOT_KINDS, default="greedy",
                         help="bot kind: random, greedy, or search (about 1 s a move; "
                              "search:easy 0.3 s, search:hard 2 s)")
        sim.add_argument("--save", metavar="DIR", help="write each game's record as JSON into DIR")
        sim.add_argument("--json", action="store_true", help="print the results as JSON")
        sim.set_defaults(func=cmd_simulate)

    if wanted("replay"):
        rep = sub.add_parser("replay", help="replay a saved record, checking every action",
                             description="Replay a saved game record, checking every action, and print the scores.")
        rep.add_argument("file")
        rep.add_argument("--json", action="store_true", help="print the result as JSON")
        rep.set_defaults(func=cmd_replay)

    if wanted("maps"):
        maps = sub.add_parser("maps", help="map file commands", description="Map file commands.")
        maps_sub = maps.add_subparsers(dest="maps_command", metavar="SUBCOMMAND", required=True)
        chk = maps_sub.add_parser("check", help="validate map files", description="Validate map files.")
        chk.add_argument("files", nargs="+", metavar="FILE")
        chk.set_defaults(func=cmd_maps_check)

    if wanted("rules"):
        rules = sub.add_parser("rules", help="print a game's rules", description="Print a game's rules.")
        rules.add_argument("game")
        rules.set_defaults(func=cmd_rules)

    if wanted("schema"):
        schema = sub.add_parser("schema", help="print the JSON schema of records or a game's actions",
                                description="Print a JSON schema: 'record', or a game id for its actions.")
        schema.add_argument("what")
        schema.set_defaults(func=cmd_schema)

    if wanted("play"):
        play = sub.add_parser("play", help="start a game in the app",
                              description="Start a game directly, e.g. railgames play new-england "
                                          "--players 'Ann,Bob,bot:greedy'.")
        play.add_argument("game")
        play.add_argument("--players", help="comma-separated names; bots are bot:random, bot:greedy, "
                                            "bot:search (about 1 s a move), bot:search:easy (0.3 s) "
                                            "or bot:search:hard (2 s)")
        play.add_argument("--seed", type=int, default=None)
        play.add_argument("--map", help="map id, for games with more than one board")
        play.add_argument("--handoff", action="store_true",
                          help="a hand-off screen between people sharing the keyboard (always "
                               "on in a game that keeps secrets)")
        play.set_defaults(func=cmd_play)

    if wanted("demo"):
        demo = sub.add_parser("demo", help="watch bots play a game, each rule explained as it is used",
                              description="Greedy bots play every seat; a narration says what "
                                          "happened and by which rule. --text prints it instead.")
        demo.add_argument("game")
        demo.add_argument("--players", type=int, default=None, help="number of seats (default 4)")
        demo.add_argument("--map", default=None, help="map id (default: the game's own)")
        demo.add_argument("--seed", type=int, default=None, help="seed (default 1)")
        demo.add_argument("--speed", type=float, default=None, help="actions per second (default 1)")
        demo.add_argument("--text", action="store_true",
                          help="print the narrated game to standard output (no app)")
        demo.add_argument("--tour", action="store_true",
                          help="a quick tour: every rule once in under three minutes, the "
                               "actions between skipped")
        demo.set_defaults(func=cmd_demo)

    if wanted("learn"):
        learn = sub.add_parser("learn", help="a tutorial you play: a short game against bots, "
                                             "a lesson at each step",
                               description="A tutorial you play: a seeded game against "
                                           "bots where each step says what to do and why, and "
                                           "every rule comes up once. Quitting keeps your place.")
        learn.add_argument("game")
        learn.set_defaults(func=cmd_learn)

    if wanted("watch"):
        watch = sub.add_parser("watch", help="step through a saved game, with the narration",
                               description="Open a saved or finished game in the viewer.")
        watch.add_argument("file")
        watch.add_argument("--speed", type=float, default=None, help="actions per second (default 1)")
        watch.set_defaults(func=cmd_watch)

    if wanted("load"):
        load = sub.add_parser("load", help="resume a saved record in the app",
                              description="Resume a saved game record in the app.")
        load.add_argument("file")
        load.set_defaults(func=cmd_load)

    if command is None or command in NETWORK_COMMANDS:
        from railgames.net.commands import add_commands  # host and serve (play over a network)

        add_commands(sub)
    return p


def quick_replay_args(argv: list[str]) -> Any | None:
    """What the parser makes of ``replay FILE`` and ``replay FILE --json`` (either order),
    without importing and building it: a replay is a short command, and argparse with
    the translations it looks up is a good part of its start. None for anything else
    (help, an abbreviated option, a name starting with '-'...), which the parser reads."""
    if len(argv) not in (2, 3) or argv[0] != "replay":
        return None
    rest = argv[1:]
    want_json = "--json" in rest
    files = [a for a in rest if a != "--json"]
    if len(files) != 1 or len(rest) != 1 + want_json or files[0].startswith("-"):
        return None
    from types import SimpleNamespace

    return SimpleNamespace(command="replay", file=files[0], json=want_json, func=cmd_replay)


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if not argv:  # the bare command opens the launcher: no parser to build
        from types import SimpleNamespace

        args: Any = SimpleNamespace(command=None)
    else:
        first = argv[0]
        args = quick_replay_args(argv)
        if args is None:
            args = build_parser(first if first in COMMANDS else None).parse_args(argv)
    if args.command is None:
        args.func = cmd_play
        args.game = None
    try:
        return int(args.func(args) or 0)
    except RailgamesError as exc:
        _err(exc.reason)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # e.g. --save into a folder that cannot be written
        where = f"{exc.filename}: " if exc.filename else ""
        _err(f"{where}{exc.strerror or exc}")
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
