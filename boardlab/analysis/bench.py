"""Speed benchmarks on one core: perft leaves/s, random playouts/s and the bots' search speed.

Perft and playouts start from the game's initial position with its default options, so the
figures of different versions of one game can be compared; the bots' figures come from
:func:`boardlab.ai.bench.bot_speed`. Perft and playouts run on the engine in use (the game's
compiled kernel when there is one, see docs/engine.md); the report names it. Compiling or
loading the kernel happens before the clock starts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from boardlab.ai.bench import bot_speed
from boardlab.core.engine import Kernel, kernel_for
from boardlab.core.game import Game
from boardlab.core.perft import perft
from boardlab.core.state import State


@dataclass(frozen=True)
class PerftBench:
    """The deepest perft that fitted the time budget."""

    depth: int
    leaves: int
    seconds: float

    @property
    def leaves_per_second(self) -> float:
        """Leaf positions counted per second."""
        return self.leaves / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class PlayoutBench:
    """Uniformly random playouts from the initial position to the end of the game."""

    playouts: int
    decisions: int
    seconds: float

    @property
    def playouts_per_second(self) -> float:
        """Complete games played per second."""
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_decisions(self) -> float:
        """Average number of decisions in one playout."""
        return self.decisions / self.playouts if self.playouts else 0.0


@dataclass(frozen=True)
class GameBench:
    """Every measurement for one game."""

    game: str
    engine: str  # "compiled" or "reference": what ran perft and the playouts
    perft: PerftBench
    playouts: PlayoutBench
    bots: dict[str, float]  # mcts_sims_per_s, alphabeta_nodes_per_s (two players only)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary, rates included."""
        return {
            "game": self.game,
            "engine": self.engine,
            "perft": {
                **asdict(self.perft),
                "leaves_per_second": round(self.perft.leaves_per_second),
            },
            "playouts": {
                **asdict(self.playouts),
                "playouts_per_second": round(self.playouts.playouts_per_second, 1),
                "mean_decisions": round(self.playouts.mean_decisions, 1),
            },
            "bots": {key: round(value) for key, value in self.bots.items()},
        }


def bench_perft(
    game: Game, seconds: float, max_depth: int = 12, kernel: Kernel | None = None
) -> PerftBench:
    """Perft at depths 1, 2, ... while the next depth is predicted to fit in ``seconds``.

    The prediction multiplies the last time by the last growth factor of the leaf count.
    With a ``kernel``, the compiled perft counts (the same numbers).
    """
    state = game.new_initial_state()
    count: Callable[[State, int], int] = perft
    if kernel is not None:
        from boardlab.core import kernel_drivers

        start = kernel.encode(state)
        kernel_drivers.perft(kernel, start, 1)  # load or compile before the clock starts

        def count(_: State, depth: int) -> int:
            return kernel_drivers.perft(kernel, start, depth)

    best = PerftBench(0, 1, 0.0)
    spent = 0.0
    previous_leaves = 1
    for depth in range(1, max_depth + 1):
        begin = time.perf_counter()
        leaves = count(state, depth)
        elapsed = time.perf_counter() - begin
        spent += elapsed
        best = PerftBench(depth, leaves, elapsed)
        growth = leaves / previous_leaves if previous_leaves else 0.0
        previous_leaves = leaves
        if leaves == 0 or spent + elapsed * max(growth, 1.0) > seconds:
            break
    return best


def bench_playouts(
    game: Game,
    seconds: float,
    seed: int = 0,
    kernel: Kernel | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> PlayoutBench:
    """Uniformly random playouts until ``seconds`` have passed on ``clock`` (at least one).

    With a ``kernel``, the compiled driver plays them in batches that grow until the time is
    spent, with the kernel's own random numbers (the same distribution of games).
    """
    if kernel is not None:
        return _compiled_playouts(kernel, seconds, seed, clock)
    rng = random.Random(seed)
    choice = rng.choice
    initial = game.new_initial_state()
    playouts = decisions = 0
    begin = clock()
    elapsed = 0.0
    while playouts == 0 or elapsed < seconds:
        state = initial.clone()
        actions = state.legal_actions()
        while actions:
            state.apply_action(choice(actions))
            decisions += 1
            actions = state.legal_actions()
        playouts += 1
        elapsed = clock() - begin
    return PlayoutBench(playouts, decisions, elapsed)


def _compiled_playouts(
    kernel: Kernel, seconds: float, seed: int, clock: Callable[[], float]
) -> PlayoutBench:
    from boardlab.core import kernel_drivers

    start = kernel.encode(kernel.game.new_initial_state())
    kernel_drivers.random_playouts(kernel, start, 1, seed)  # load or compile first
    playouts = decisions = 0
    batch = 1
    begin = clock()
    elapsed = 0.0
    while playouts == 0 or elapsed < seconds:
        games, played = kernel_drivers.random_playouts(kernel, start, batch, seed + playouts)
        playouts += games
        decisions += played
        elapsed = clock() - begin
        batch *= 2 if elapsed < seconds / 4 else 1
    return PlayoutBench(playouts, decisions, elapsed)


def bench_game(game: Game, seconds: float) -> GameBench:
    """Every benchmark for ``game``, each given ``seconds``, on the engine in use."""
    kernel = kernel_for(game)
    return GameBench(
        game.id,
        "reference" if kernel is None else "compiled",
        bench_perft(game, seconds, kernel=kernel),
        bench_playouts(game, seconds, kernel=kernel),
        bot_speed(game, seconds),
    )
