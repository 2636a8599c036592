"""The compiled random layout draws what the reference draws from the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.core.engine import kernel_for
from boardlab.core.registry import make
from boardlab.games.anacund.board import random_layout, random_values

pytest.importorskip("numba")

from boardlab.games.anacund.kernel_layout import SEEDS, agrees, draw, seeded_start

SEEDS_CHECKED = [*range(2000), 2**31 - 1, 2**31, 123_456_789, 987_654_321, SEEDS - 1]


def test_random_values_are_the_random_layout() -> None:
    for seed in (0, 1, 77, 2**31 - 1):
        values, bonus = random_values(seed)
        layout = random_layout(seed)
        assert "".join(map(str, values)) == layout.values and bonus == layout.bonus


def test_the_compiled_draw_is_pythons_for_every_seed_checked() -> None:
    # Seeds 0 .. 1999 and the largest: the Mersenne Twister's seeding, its twist, random(),
    # shuffle's getrandbits rejection and the slats' placement, exactly.
    values = np.zeros(36, dtype=np.int64)
    for seed in SEEDS_CHECKED:
        bonus = draw(seed, values)
        assert (values.tolist(), bonus) == random_values(seed), seed
    assert agrees()


def test_the_seeded_start_is_the_kernel_state_of_the_game_that_seed_makes() -> None:
    base = make("anacund", seed=5, bonus_points=3, track="open")
    kernel = kernel_for(base)
    assert kernel is not None
    first = kernel.encode(base.new_initial_state())
    out = np.zeros_like(first)
    for seed in SEEDS_CHECKED[::40]:
        seeded_start(kernel.params, first, seed, out)
        made = make("anacund", seed=seed, bonus_points=3, track="open")
        assert np.array_equal(out, kernel.encode(made.new_initial_state())), seed
