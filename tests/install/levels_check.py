"""Every bot level of every game, as installed: run by a fresh venv's Python (not pytest's).

For each game (Colosseum Offcuts at 2 and 5 seats) and level it plays turns from positions
along a seeded game and times each decision; then it plays ``level:medium`` against
``random`` with the seats rotating. It checks nothing itself: it prints one JSON object per
game and seat count, and ``test_readme_install.py`` judges them.

    python levels_check.py [--positions N] [--games N] [--levels L,...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from boardlab.ai.levels import LEVELS, level_spec
from boardlab.ai.players import make_bot, parse_spec
from boardlab.core.engine import engine_name
from boardlab.core.game import Game
from boardlab.core.outcome import Result
from boardlab.core.registry import make
from boardlab.core.state import State

CONFIGS = (
    ("carnyx", 2),
    ("murus-gallicus", 2),
    ("colosseum-offcuts", 2),
    ("colosseum-offcuts", 5),
    ("anacund", 2),
    ("cyvasse", 2),
)
SPREAD = 60
"""Positions are taken from this many first ones (with a choice, past any setup)."""
WARM_UP_SECONDS = 0.05
"""The thinking time of the untimed first decision that loads a level's compiled code."""
POINTS = {Result.WIN: 1.0, Result.DRAW: 0.5, Result.LOSS: 0.0}


def game_for(game_id: str, seats: int, seed: int) -> Game:
    """The game at ``seats`` seats, its chance (if it draws any) fixed by ``seed``."""
    base = make(game_id)
    options: dict[str, object] = {} if seats == base.num_players else {"players": seats}
    if "seed" in base.options:
        options["seed"] = seed
    return make(game_id, **options)


def positions(game: Game, count: int) -> list[State]:
    """``count`` positions of a seeded game of ``level:easy`` against itself (random play
    leaves positions a search solves at once), each at the start of a turn past any setup and
    with a choice, spread over the first SPREAD such positions."""
    bots = [make_bot("level:easy", game, seat) for seat in range(game.num_players)]
    state = game.new_initial_state()
    found: list[State] = []
    while not state.is_terminal() and len(found) < (SPREAD if count > 1 else 1):
        if (
            state.turn_start
            and len(state.legal_actions()) > 1
            and state.render_model().phase == "play"
        ):
            found.append(state.clone())
        bot = bots[state.current_player]
        assert bot is not None
        state.apply_action(bot.choose(state.view_state(state.current_player)))
    if not found:
        raise SystemExit(f"{game.id}: the game ended before a position with a choice")
    last = len(found) - 1
    return [found[last * i // max(count - 1, 1)] for i in range(count)]


def warm_up_spec(spec: str) -> str:
    """``spec`` thinking at most WARM_UP_SECONDS (a bot without a time setting as it is)."""
    kind, params = parse_spec(spec)
    if kind not in ("alphabeta", "mcts") or isinstance(params, str):
        return spec
    rest = [f"{k}={str(v).lower()}" for k, v in params.items() if k != "time"]
    return f"{kind}:{','.join([*rest, f'time={WARM_UP_SECONDS}'])}"


def budget(spec: str) -> float:
    """A spec's time budget per decision in seconds (0: it answers at once)."""
    _, params = parse_spec(spec)
    return 0.0 if isinstance(params, str) else float(params.get("time", 0.0))


def decide(
    spec: str, game: Game, start: State, seed: int, whole_turn: bool
) -> tuple[bool, list[float]]:
    """Bot ``spec``'s decisions from ``start``: the first, or with ``whole_turn`` all of its
    turn by the same bot (as the server and the command line use one): (whether all were
    legal, the seconds each took)."""
    bot = make_bot(spec, game, seed)
    assert bot is not None
    state = start.clone()
    legal, seconds = True, []
    while True:
        view = state.view_state(state.current_player)
        started = time.perf_counter()
        action = bot.choose(view)
        seconds.append(round(time.perf_counter() - started, 3))
        legal = legal and action in state.legal_actions()
        if not legal:
            return legal, seconds
        state.apply_action(action)
        if not whole_turn or state.is_terminal() or state.turn_start:
            return legal, seconds


def check_level(game: Game, level: str, places: list[State]) -> dict[str, Any]:
    """A level's decisions: an untimed warm-up decision, then from each position the bot's
    whole turn, timed decision by decision (``expert`` only its first decision: it uses the
    code of ``hard`` and only thinks longer)."""
    spec = level_spec(game, level)
    legal, first = decide(warm_up_spec(spec), game, places[0], 0, False)
    verdicts, seconds = [legal], []
    for number, state in enumerate(places, 1):
        legal, took = decide(f"level:{level}", game, state, number, level != "expert")
        verdicts.append(legal)
        seconds += took
    return {
        "spec": spec,
        "budget": budget(spec),
        "warm_up": first[0],
        "seconds": seconds,
        "legal": all(verdicts),
    }


def medium_against_random(game_id: str, seats: int, games: int) -> dict[str, Any]:
    """``level:medium`` in one seat (rotating) against ``random`` in all others."""
    tally = {"games": games, "wins": 0, "draws": 0, "losses": 0, "illegal": 0}
    others = [0.0] * (seats - 1)
    started = time.perf_counter()
    for number in range(games):
        game = game_for(game_id, seats, 100 + number)
        medium = number % seats
        bots = [
            make_bot("level:medium" if seat == medium else "random", game, 10 * number + seat)
            for seat in range(seats)
        ]
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player
            bot = bots[seat]
            assert bot is not None
            action = bot.choose(state.view_state(seat))
            if action not in state.legal_actions():
                tally["illegal"] += 1
                break
            state.apply_action(action)
        outcome = state.outcome
        if outcome is None:
            continue
        result = outcome.results[medium]
        tally[{Result.WIN: "wins", Result.DRAW: "draws", Result.LOSS: "losses"}[result]] += 1
        rest = [seat for seat in range(seats) if seat != medium]
        for index, seat in enumerate(rest):
            others[index] += POINTS[outcome.results[seat]]
    score = (tally["wins"] + tally["draws"] / 2) / games
    return {
        **tally,
        "score": score,
        "best_random_score": max(others) / games,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--games", type=int, default=20, help="medium-random games (0: none)")
    parser.add_argument("--multi-games", type=int, default=12, help="the same with 3+ seats")
    parser.add_argument("--levels", default=",".join(LEVELS))
    args = parser.parse_args(argv)
    for game_id, seats in CONFIGS:
        game = game_for(game_id, seats, 0)
        places = positions(game, args.positions)
        report: dict[str, Any] = {
            "game": game_id,
            "seats": seats,
            "engine": engine_name(game),
            "levels": {level: check_level(game, level, places) for level in args.levels.split(",")},
        }
        games = args.games if seats == 2 else args.multi_games
        if games:
            report["medium_vs_random"] = medium_against_random(game_id, seats, games)
        print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
