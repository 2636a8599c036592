"""Benchmark of the compiled alpha-beta against a plain Python negamax and today's reference bot.

Four tables, from the opening of Murus Gallicus and three midgame positions (a seeded random
walk of 12, 20 and 28 decisions):

1. Node rate: a plain pure-Python negamax of Murus Gallicus written here as the anchor (list
   board, no table, no ordering, no pruning) against the compiled alpha-beta (``alphabeta``
   with the compiled engine), both at fixed ``--depth``, in nodes per CPU second.
2. Fixed-depth time: the same search finished by today's alpha-beta bot (the module at the
   ``--baseline`` commit, read with ``git show``), the reference engine of this tree
   (``compiled=false``) and the compiled one, CPU seconds per position.
3. Principal-variation search against plain alpha-beta: nodes and CPU seconds at depth + 3.
4. Per game with a compiled evaluation: nodes per iteration of iterative deepening from the
   opening and the midgame positions, the effective branching factor (nodes of an iteration
   over those of the one before) and nodes per CPU second, up to ``--seconds`` per position.

Rates are per CPU second of this process, so they hold on a busy machine. What a decision
costs at each level is ``benchmarks/level_costs.py``.

    python benchmarks/search.py --depth 5 --seconds 2
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import math
import random
import subprocess
import tempfile
import time
from pathlib import Path

import boardlab
from boardlab.ai import make_bot
from boardlab.ai.base import Bot
from boardlab.ai.search import compiled_search
from boardlab.core.game import Game
from boardlab.core.registry import game_ids
from boardlab.core.state import State

ROOT = Path(__file__).resolve().parent.parent

# -- the anchor: a plain negamax of Murus Gallicus on a list board -------------------------

WIDTH = 8
STEPS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
WIN = 100.0


class Plain:
    """A Murus Gallicus position: ``cells[row * 8 + column]`` is 0 empty, ±1 a wall, ±2 a
    tower (positive Roman); ``side`` 1 for the Romans to move, -1 for the Gauls."""

    def __init__(self, cells: list[int], side: int, rows: int) -> None:
        self.cells, self.side, self.rows = cells, side, rows

    def moves(self) -> list[tuple[int, int, int]]:
        """(kind, origin, direction): kind 0 a tower move, 1 a sacrifice."""
        cells, side, rows = self.cells, self.side, self.rows
        out = []
        for origin, piece in enumerate(cells):
            if piece != 2 * side:
                continue
            row, column = divmod(origin, WIDTH)
            for direction, (dc, dr) in enumerate(STEPS):
                r1, c1 = row + dr, column + dc
                if not (0 <= r1 < rows and 0 <= c1 < WIDTH):
                    continue
                near = cells[r1 * WIDTH + c1]
                if near == -side:
                    out.append((1, origin, direction))
                r2, c2 = r1 + dr, c1 + dc
                if (
                    0 <= r2 < rows
                    and 0 <= c2 < WIDTH
                    and near in (0, side)
                    and cells[r2 * WIDTH + c2] in (0, side)
                ):
                    out.append((0, origin, direction))
        return out

    def play(self, move: tuple[int, int, int]) -> Plain:
        kind, origin, direction = move
        cells = self.cells.copy()
        side = self.side
        dc, dr = STEPS[direction]
        near = origin + dr * WIDTH + dc
        if kind == 0:
            cells[origin] = 0
            for target in (near, near + dr * WIDTH + dc):
                cells[target] += side  # empty -> wall, own wall -> tower
        else:
            cells[near] = 0
            cells[origin] = side
        return Plain(cells, -side, self.rows)

    def mover_won(self) -> bool:
        """After a move: the mover (``-side``) reached the enemy home row or left no move."""
        mover = -self.side
        goal = range((self.rows - 1) * WIDTH, self.rows * WIDTH) if mover == 1 else range(WIDTH)
        return any(self.cells[i] * mover > 0 for i in goal) or not self.moves()

    def evaluate(self) -> float:
        """The reference heuristic for the side to move."""
        score = 0.0
        for piece in self.cells:
            if piece:
                sign = 1.0 if (piece > 0) == (self.side == 1) else -1.0
                score += sign * abs(piece)
        for index, piece in enumerate(self.cells):
            if abs(piece) == 2:
                sign = 1.0 if (piece > 0) == (self.side == 1) else -1.0
                row = index // WIDTH
                advance = row if piece > 0 else self.rows - 1 - row
                score += sign * 0.15 * advance * advance
        return math.tanh(score / 12.0)


def negamax(position: Plain, depth: int, counter: list[int]) -> float:
    """The value for the side to move at ``depth``; ``counter[0]`` counts the nodes."""
    counter[0] += 1
    if depth == 0:
        return position.evaluate()
    best = -2 * WIN
    for move in position.moves():
        child = position.play(move)
        if child.mover_won():
            counter[0] += 1
            value = WIN
        else:
            value = -negamax(child, depth - 1, counter)
        best = max(best, value)
    return best


def plain_from(state: State) -> Plain:
    rows = state.game.board.rows  # type: ignore[attr-defined]
    cells = [0] * (rows * WIDTH)
    for index, bits in enumerate(state.bits):  # type: ignore[attr-defined]
        value = (2 if index % 2 == 0 else 1) * (1 if index < 2 else -1)
        for cell in range(rows * WIDTH):
            if bits >> (cell // WIDTH * 9 + cell % WIDTH) & 1:
                cells[cell] = value
    return Plain(cells, 1 if state.current_player == 0 else -1, rows)


# -- positions and bots ----------------------------------------------------------------------


def positions(game: Game) -> list[tuple[str, State]]:
    """The opening and three midgame positions: a seeded random walk of 12, 20 and 28 decisions
    (begun again when a game ends first)."""
    out = [("opening", game.new_initial_state())]
    for decisions in (12, 20, 28):
        rng = random.Random(decisions)
        state, made = game.new_initial_state(), 0
        while made < decisions or state.is_terminal():
            if state.is_terminal():
                state, made = game.new_initial_state(), 0
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
        out.append((f"decision {decisions}", state))
    return out


def baseline_bot_class(commit: str) -> type[Bot]:
    """Today's ``AlphaBetaBot``: ``boardlab/ai/alphabeta.py`` as it was at ``commit``."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:boardlab/ai/alphabeta.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="boardlab-baseline-")) / "alphabeta_baseline.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("alphabeta_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bot_class: type[Bot] = module.AlphaBetaBot
    return bot_class


def baseline_bot(commit: str, depth: int) -> Bot:
    """Today's alpha-beta bot at a fixed depth."""
    return baseline_bot_class(commit)(seed=0, depth=depth)  # type: ignore[call-arg]


def timed(bot: Bot, state: State) -> tuple[float, dict[str, float]]:
    start = time.process_time()
    bot.choose(state)
    return time.process_time() - start, bot.stats()


# -- the tables ------------------------------------------------------------------------------


def node_rates(depth: int, seconds: float) -> None:
    game = boardlab.make("murus-gallicus")
    print(
        f"## Node rate: plain negamax at depth {depth}, compiled alpha-beta for {seconds:g} s "
        "(nodes per CPU second)\n"
    )
    print("| position | negamax nodes | nodes/s | alpha-beta nodes (depth) | nodes/s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, state in positions(game):
        plain = plain_from(state)
        assert len(plain.moves()) == len(state.legal_actions())  # the anchor's rules agree
        counter = [0]
        start = time.process_time()
        negamax(plain, depth, counter)
        plain_rate = counter[0] / (time.process_time() - start)
        cpu, stats = timed(bot_of(game, f"alphabeta:time={seconds}"), state)
        compiled_rate = stats["nodes"] / cpu
        print(
            f"| {name} | {counter[0]} | {plain_rate:,.0f} | {stats['nodes']:.0f} "
            f"({stats['depth']:.0f}) | {compiled_rate:,.0f} | {compiled_rate / plain_rate:.0f}x |"
        )
    print()


def warm_bot(game: Game, spec: str) -> Bot:
    """A bot that has made one decision for the Gauls already: its tables are made, and they
    are cleared for the next position (every benchmark position has the Romans to move)."""
    bot = bot_of(game, spec)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    bot.choose(state)
    return bot


def bot_of(game: Game, spec: str) -> Bot:
    bot = make_bot(spec, game, 0)
    assert bot is not None
    return bot


def fixed_depth(depth: int, commit: str) -> None:
    game = boardlab.make("murus-gallicus")
    print(f"## Fixed depth {depth}: CPU seconds to finish the search\n")
    print(
        f"| position | today's bot ({commit}) | reference engine now | compiled | "
        "today / compiled |"
    )
    print("|---|---:|---:|---:|---:|")
    for name, state in positions(game):
        today, _ = timed(baseline_bot(commit, depth), state)
        reference, _ = timed(bot_of(game, f"alphabeta:depth={depth},compiled=false"), state)
        compiled, stats = timed(warm_bot(game, f"alphabeta:depth={depth}"), state)
        assert stats["compiled"] == 1.0
        print(
            f"| {name} | {today:.3f} | {reference:.3f} | {compiled:.4f} | {today / compiled:.0f}x |"
        )
    print()


def branching(seconds: float) -> None:
    print(f"## Iterative deepening per game, up to {seconds:g} s per position\n")
    print("| game | position | nodes/s | depth reached | nodes by depth | effective branching |")
    print("|---|---|---:|---:|---|---|")
    for game_id in game_ids():
        game = boardlab.make(game_id)
        search = compiled_search(game)
        if search is None:
            print(f"| {game_id} | — | no compiled evaluation | | | |")
            continue
        for name, state in positions(game):
            search.clear()
            moves = state.legal_actions()
            start = time.process_time()
            result = search.run(
                search.kernel.encode(state),
                moves,
                [0.0] * len(moves),
                64,
                time.perf_counter() + seconds,
                None,
            )
            rate = result.nodes / (time.process_time() - start)
            counts = result.nodes_by_depth
            factors = [f"{b / a:.1f}" for a, b in itertools.pairwise(counts) if a]
            print(
                f"| {game_id} | {name} | {rate:,.0f} | {result.depth} | "
                f"{' '.join(map(str, counts))} | {' '.join(factors)} |"
            )
    print()


def pvs_gain(depth: int) -> None:
    game = boardlab.make("murus-gallicus")
    search = compiled_search(game)
    assert search is not None
    print(f"## Principal-variation search at depth {depth}: nodes and CPU seconds\n")
    print("| position | plain alpha-beta nodes | s | with PVS nodes | s |")
    print("|---|---:|---:|---:|---:|")
    for name, state in positions(game):
        row = [name]
        for pvs in (False, True):
            search.clear()
            moves = state.legal_actions()
            start = time.process_time()
            result = search.run(
                search.kernel.encode(state), moves, [0.0] * len(moves), depth, None, None, pvs
            )
            row += [str(result.nodes), f"{time.process_time() - start:.3f}"]
        print(f"| {' | '.join(row)} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=5, help="fixed depth of tables 1 and 2")
    parser.add_argument("--seconds", type=float, default=1.0, help="budget (tables 1 and 3)")
    parser.add_argument("--baseline", default="ac39c81", help="commit of today's bot")
    args = parser.parse_args()
    # Compile (or load) first so that no table counts it.
    warm = boardlab.make("murus-gallicus")
    bot_of(warm, "alphabeta:depth=1").choose(warm.new_initial_state())
    node_rates(args.depth, args.seconds)
    fixed_depth(args.depth, args.baseline)
    pvs_gain(args.depth + 3)
    branching(args.seconds)


if __name__ == "__main__":
    main()
