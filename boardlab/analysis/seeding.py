"""The games of a seeded self-play run: who sits where in game ``i``, and with which seeds.

Shared by the lab (a series per variant or skill rung) and tournaments (a series per table).
Game ``i`` of a series seats entrant ``(s + i) mod n`` in seat ``s``; it takes its bot seed
from the run seed and ``i`` alone, and, for games with chance, its chance seed from the run
seed and its seat rotation ``i // n``, so every seating of a rotation meets the same luck and
every series (variant, table) plays game ``i`` with the same seeds.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from boardlab.analysis.trace import GameTask
from boardlab.core.options import SEED
from boardlab.core.registry import game_class

Options = tuple[tuple[str, object], ...]


def has_chance_seed(game_id: str) -> bool:
    """True when the game takes a ``seed`` option (its chance)."""
    return any(option.key == SEED for option in game_class(game_id).OPTIONS)


def sorted_options(options: dict[str, str]) -> Options:
    """A series' options in the form a task carries them: sorted ``(key, value)`` pairs."""
    return tuple(sorted(options.items()))


@functools.lru_cache(maxsize=256)
def rotation(
    players: tuple[str, ...], entrants: tuple[int, ...], shift: int
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Seats rotated by ``shift``: seat ``s`` takes entrant ``(s + shift) mod n``; that seating
    and the player spec of each seat. Cached: a run has a handful of rotations per series."""
    seats = len(entrants)
    seating = tuple(entrants[(seat + shift) % seats] for seat in range(seats))
    return seating, tuple(players[p] for p in seating)


class TaskMaker:
    """Makes the tasks of one run, deriving each seed once however many series share it.

    Seeds are derived a batch at a time for the indices (or rotations) that follow: each
    derivation seeds a Mersenne Twister, and back to back they run with warm caches at about
    half the cost of one squeezed between two games. Only the current batch is kept, so memory
    stays flat; tasks asked for index by index (game ``i`` of every series before game
    ``i + 1``, as the lab and tournaments do) derive every seed once.
    """

    BATCH = 16

    def __init__(self, game_id: str, run_seed: int) -> None:
        self.game_id = game_id
        self.run_seed = run_seed
        self.chance = has_chance_seed(game_id)
        # One generator reseeded per derivation: the same values as a fresh one, without
        # allocating and seeding a new one twice (its constructor seeds before ``seed``).
        self._rng = random.Random()
        self._bot_seeds: dict[int, int] = {}
        self._chance_seeds: dict[int, dict[int, int]] = {}  # per seat count, by rotation

    def task(
        self,
        series: str,
        index: int,
        options: Options,
        players: Sequence[str],
        entrants: Sequence[int],
        record: bool,
        board_every: int = 0,
    ) -> GameTask:
        """Game ``index`` of a series of ``entrants`` (indices into ``players``), seats rotated.

        ``options`` are the series' game options as :func:`sorted_options` gives them; the
        chance seed is added for games with chance.
        """
        seats = len(entrants)
        seating, seated = rotation(tuple(players), tuple(entrants), index % seats)
        if self.chance:
            luck = self._chance_seeds.get(seats, {}).get(index // seats)
            if luck is None:
                self._chance_seeds[seats] = self._batch("luck:", index // seats, 2**31)
                luck = self._chance_seeds[seats][index // seats]
            options = tuple(sorted((*options, (SEED, luck))))
        bot_seed = self._bot_seeds.get(index)
        if bot_seed is None:
            self._bot_seeds = self._batch("", index, 2**63)
            bot_seed = self._bot_seeds[index]
        return GameTask(
            series,
            index,
            self.game_id,
            options,
            seated,
            seating,
            bot_seed,
            record,
            board_every,
        )

    def _batch(self, prefix: str, first: int, bound: int) -> dict[int, int]:
        """Numbers below ``bound`` for ``first`` and the next ones, each determined by the run
        seed, ``prefix`` and its own number alone."""
        found = {}
        for number in range(first, first + self.BATCH):
            self._rng.seed(f"boardlab-lab:{self.run_seed}:{prefix}{number}")
            found[number] = self._rng.randrange(bound)
        return found
