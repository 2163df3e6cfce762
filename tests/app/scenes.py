"""Fixed, reproducible moments of the app, for the snapshot tests and screenshots/.

Each scene is a function returning (app, keys to press); the records come from
greedy bots playing a fixed seed, so every run shows the same screens.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from railgames.core.engine import Game
from railgames.core.record import GameRecord, PlayerSpec, save_record
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

SEED = 7
HUMANS = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob"), PlayerSpec(name="Cat")]
FIXED_TIME = "2025-01-01T12:00:00+00:00"


@functools.cache
def _bot_game(game_id: str) -> GameRecord:
    """The greedy bots' game every scene of a game is cut from (played once per process)."""
    return play_bot_game(load_ruleset(game_id), bot_players(3, "greedy"), SEED).record


def _record(players: list[PlayerSpec] | None = None, game_id: str = "new-england") -> GameRecord:
    record = _bot_game(game_id).model_copy(deep=True)
    record.players = list(players or HUMANS)
    record.created = record.updated = FIXED_TIME
    return record


def _upto(record: GameRecord, wanted: Callable[[Game], bool], start: int = 0) -> GameRecord:
    ruleset = load_ruleset(record.game, record.map)
    game = Game.replay(ruleset, record, upto=start)
    for n in range(start, len(record.actions) + 1):
        if wanted(game):
            out = game.record.model_copy(deep=True)
            out.created = out.updated = FIXED_TIME
            return out
        if n < len(record.actions):  # one action on (as a replay up to n + 1 would)
            game.apply(record.actions[n], recorded=True)
    raise ValueError("no such moment")


def _saved(record: GameRecord, folder: Path, name: str) -> Path:
    path = folder / name
    save_record(record, path)
    return path


def scenes(folder: Path) -> dict[str, Callable[[], tuple[Any, list[str]]]]:
    """Scene name -> maker of (app, keys). ``folder`` receives the records the scenes load."""
    from railgames.app.main import RailgamesApp

    def launcher() -> tuple[Any, list[str]]:
        return RailgamesApp(bot_delay=0), []

    def setup() -> tuple[Any, list[str]]:
        return RailgamesApp(bot_delay=0), ["enter"]

    def board() -> tuple[Any, list[str]]:
        record = _record()
        mid = _upto(record, lambda g: (p := g.prompt()) is not None and p.step == "Auction",
                    start=len(record.actions) // 2)
        return RailgamesApp(load_path=_saved(mid, folder, "board.json"), bot_delay=0,
                            handoff=False), []

    def shipping() -> tuple[Any, list[str]]:
        record = _record()
        ship = _upto(record, lambda g: (p := g.prompt()) is not None and p.step.startswith("Shipping")
                     and any(a.type == "ship" for a in p.choices), start=len(record.actions) // 3)
        return (RailgamesApp(load_path=_saved(ship, folder, "shipping.json"), bot_delay=0,
                             handoff=False), ["tab", "enter"])

    def handoff() -> tuple[Any, list[str]]:
        # New England hides nothing: its hand-off screen shows only when set up so.
        app = RailgamesApp(new_game={"game": "new-england", "players": HUMANS, "seed": SEED},
                           bot_delay=0, handoff=True)
        return app, ["enter"]

    def help_screen() -> tuple[Any, list[str]]:
        app = RailgamesApp(new_game={"game": "new-england", "players": HUMANS, "seed": SEED},
                           bot_delay=0)
        return app, ["question_mark"]

    def game_over() -> tuple[Any, list[str]]:
        record = _record()
        return RailgamesApp(load_path=_saved(record, folder, "over.json"), bot_delay=0), ["g"]

    def pc_board() -> tuple[Any, list[str]]:
        # Paris Connection mid-game: a build under way, its legal hexes marked. The
        # hand-off screen comes first (it always does in this game); Enter passes it.
        record = _record(game_id="paris-connection")
        mid = _upto(record, lambda g: g.state.step == "build" and len(g.state.placed) == 2,
                    start=len(record.actions) // 2)
        return RailgamesApp(load_path=_saved(mid, folder, "pc-board.json"), bot_delay=0), ["enter"]

    def pc_game_over() -> tuple[Any, list[str]]:
        record = _record(game_id="paris-connection")
        return RailgamesApp(load_path=_saved(record, folder, "pc-over.json"), bot_delay=0), ["g"]

    def sd_board() -> tuple[Any, list[str]]:
        # Steel Driver mid-game: a company with track chooses where to build next; the
        # route under the list cursor and the place it reaches show the profit it adds.
        record = _record(game_id="steel-driver")
        mid = _upto(record, lambda g: g.state.step == "build" and bool(g.state.active_company().links)
                    and len(g.prompt().choices) >= 4, start=len(record.actions) // 2)
        return RailgamesApp(load_path=_saved(mid, folder, "sd-board.json"), bot_delay=0,
                            handoff=False), []

    def sd_claim() -> tuple[Any, list[str]]:
        # Steel Driver's final phase: goods cubes wait on the places with track.
        record = _record(game_id="steel-driver")
        claim = _upto(record, lambda g: g.state.step == "claim", start=len(record.actions) // 2)
        return RailgamesApp(load_path=_saved(claim, folder, "sd-claim.json"), bot_delay=0,
                            handoff=False), []

    def sd_game_over() -> tuple[Any, list[str]]:
        record = _record(game_id="steel-driver")
        return RailgamesApp(load_path=_saved(record, folder, "sd-over.json"), bot_delay=0), ["g"]

    def ar_board() -> tuple[Any, list[str]]:
        # American Rails mid-game: an Expand action under way; Enter picks the first
        # company, whose legal hexes show their prices on the board.
        record = _record(game_id="american-rails")
        mid = _upto(record, lambda g: g.state.step == "expand" and g.state.year >= 1853
                    and len(g.prompt().choices) >= 4, start=len(record.actions) // 3)
        return RailgamesApp(load_path=_saved(mid, folder, "ar-board.json"), bot_delay=0,
                            handoff=False), ["enter"]

    def ar_game_over() -> tuple[Any, list[str]]:
        record = _record(game_id="american-rails")
        return RailgamesApp(load_path=_saved(record, folder, "ar-over.json"), bot_delay=0), []


    # ---- every kind of decision of every game, for the 80x24 snapshots
    def at(game_id: str, name: str, wanted: Callable[[Game], bool], keys: list[str],
           start_at: float = 0.0) -> Callable[[], tuple[Any, list[str]]]:
        def make() -> tuple[Any, list[str]]:
            record = _record(game_id=game_id)
            moment = _upto(record, wanted, start=int(len(record.actions) * start_at))
            return RailgamesApp(load_path=_saved(moment, folder, f"{name}.json"), bot_delay=0,
                                handoff=False), list(keys)
        return make

    def step_is(step: str, amount: bool | None = None) -> Callable[[Game], bool]:
        def wanted(g: Game) -> bool:
            p = g.prompt()
            return (p is not None and str(getattr(g.state.step, "value", g.state.step)) == step
                    and (amount is None or (p.amount is not None) == amount))
        return wanted

    def all_down(n: int) -> list[str]:
        return ["down"] * n

    def off_board(step: str) -> Callable[[Game], bool]:
        """The step, at a decision made in the list rather than on the board."""
        from railgames.app.boards import game_ui

        def wanted(g: Game) -> bool:
            p = g.prompt()
            return (step_is(step)(g) and p is not None and p.amount is None
                    and not game_ui(g.ruleset).board_level(g.state, p, []))
        return wanted

    kinds = {
        # New England: loans and bids are amounts, shipping is a pick on the board
        # then a list, the build roll a yes/no.
        "ne_loans": at("new-england", "ne-loans", step_is("loans"), []),
        "ne_ship_board": at("new-england", "ne-ship", step_is("ship"), [], 0.3),
        "ne_finish": at("new-england", "ne-finish", step_is("finish"), []),
        # Paris Connection: build or trade (a list longer than the room at 80x24,
        # walked to its end), the hexes of a build, the trade's own level.
        # (Its hand-off screen always comes first: Enter passes it.)
        "pc_turn_end": at("paris-connection", "pc-turn", step_is("turn"), ["enter", "end"], 0.3),
        "pc_trade": at("paris-connection", "pc-trade", step_is("turn"), ["enter", "end", "enter"],
                       0.3),
        "pc_build_end": at("paris-connection", "pc-build-end", off_board("build"), ["enter"]),
        # Steel Driver: the auction list (walked to its end), the opening bid and the
        # bidding (amounts), the build on the board.
        "sd_auction_end": at("steel-driver", "sd-auction", step_is("auction"), all_down(6)),
        "sd_build_list": at("steel-driver", "sd-build-list", off_board("build"), []),
        "sd_opening": at("steel-driver", "sd-opening", step_is("opening"), []),
        "sd_bidding": at("steel-driver", "sd-bidding", step_is("bidding"), []),
    }

    def log_view() -> tuple[Any, list[str]]:
        app, keys = board()
        return app, [*keys, "L"]

    def final_board() -> tuple[Any, list[str]]:
        app, keys = game_over()
        return app, [*keys, "b"]

    def final_log() -> tuple[Any, list[str]]:
        app, keys = pc_game_over()
        return app, [*keys, "l"]

    def setup_help() -> tuple[Any, list[str]]:
        return RailgamesApp(bot_delay=0), ["enter", "question_mark"]

    def handoff_quit() -> tuple[Any, list[str]]:
        app, keys = handoff()
        return app, [*keys, "q"]

    def rotw_board() -> tuple[Any, list[str]]:
        # Railways of the World mid-game: a build under way, the hexes the next tile
        # may take marked on the board, the running cost in the panel.
        record = _record(game_id="railways-of-the-world")
        mid = _upto(record, lambda g: g.state.step == "build" and g.state.building is not None
                    and g.state.building.laid == 1, start=len(record.actions) // 2)
        return RailgamesApp(load_path=_saved(mid, folder, "rotw-board.json"), bot_delay=0,
                            handoff=False), []

    def rotw_game_over() -> tuple[Any, list[str]]:
        record = _record(game_id="railways-of-the-world")
        return RailgamesApp(load_path=_saved(record, folder, "rotw-over.json"), bot_delay=0), []

    def demo() -> tuple[Any, list[str]]:
        # A New England demo in its fourth turn, paused where a rule is explained in full
        # for the first time (a loan forced by the coming debt service).
        from railgames.core.demo import demo_game

        game = demo_game(load_ruleset("new-england"))
        forced = next(e.action for e in game.log if "ne.forced_loan" in e.rules)
        watch = {"record": game.record, "demo": True, "start": forced + 1, "playing": False}
        return RailgamesApp(watch=watch, bot_delay=0), []

    return {
        **kinds,
        "log_view": log_view,
        "final_board": final_board,
        "final_log": final_log,
        "setup_help": setup_help,
        "handoff_quit": handoff_quit,
        "launcher": launcher,
        "setup": setup,
        "board": board,
        "shipping": shipping,
        "handoff": handoff,
        "help": help_screen,
        "game_over": game_over,
        "pc_board": pc_board,
        "pc_game_over": pc_game_over,
        "sd_board": sd_board,
        "sd_claim": sd_claim,
        "sd_game_over": sd_game_over,
        "ar_board": ar_board,
        "ar_game_over": ar_game_over,
        "rotw_board": rotw_board,
        "rotw_game_over": rotw_game_over,
        "demo": demo,
    }
