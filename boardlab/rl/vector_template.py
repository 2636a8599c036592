"""The source of the compiled batched step over any game's kernel (see :mod:`boardlab.rl.vector`).

Like :mod:`boardlab.core.kernel_driver_template`, this file is copied once per game with the
block between the ``kernel`` markers replaced by imports of that game's kernel functions and
compiled observation encoder, so that Numba caches the copy on disk. Read as is, the
placeholders only make it importable and type-checkable.

Every game ``i`` of a batch owns row ``i`` of each array and its own xorshift64* generator
``rng[i]``, so the games are stepped in parallel (``numba.prange``) with no shared writes but
the bots' scratch (a search's tables): the games are split into as many runs of consecutive
games as the scratch has rows, each run stepped in order on one thread with its own row. Its
observation row is written through ``records[i]``, a record that says what the row holds
(:mod:`boardlab.rl.fast.kernel_planes`), so that each step rewrites only what changed; its final
observation, written only when a game ends, through ``finals[i]``, a record of no log.

The per-game helpers called at every step are inlined (``inline="always"``): a call passing
a dozen arrays costs Numba a reference count on each, both ways (Cyvasse's batched step ran
6% faster inlined).
"""

from __future__ import annotations

import numpy as np

from boardlab.core.engine import KernelArray
from boardlab.core.jit import numba
from boardlab.core.kernel_random import below, next_state

# -- kernel --


def legal(p: KernelArray, s: KernelArray, out: KernelArray) -> int:
    """Placeholder for the game's ``legal``."""
    raise NotImplementedError


def apply(p: KernelArray, s: KernelArray, action: int) -> None:
    """Placeholder for the game's ``apply``."""
    raise NotImplementedError


def returns(p: KernelArray, s: KernelArray, out: KernelArray) -> None:
    """Placeholder for the game's ``returns``."""
    raise NotImplementedError


def is_over(p: KernelArray, s: KernelArray) -> bool:
    """Placeholder for the game's ``is_over``."""
    raise NotImplementedError


def player(p: KernelArray, s: KernelArray) -> int:
    """Placeholder for the game's ``player``."""
    raise NotImplementedError


def truncated(p: KernelArray, s: KernelArray) -> bool:
    """Placeholder for the game's ``truncated``."""
    raise NotImplementedError


def decide(
    p: KernelArray,
    s: KernelArray,
    rng: KernelArray,
    i: int,
    moves: KernelArray,
    n: int,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> int:
    """Placeholder for the bots' decision (:mod:`boardlab.rl.opponents`): an action of ``s``
    (not over), whose ``n`` legal ids are ``moves[:n]``, drawing from game ``i``'s generator
    ``rng[i]``; ``work``, ``fwork`` and ``work32`` are its scratch (its settings first)."""
    raise NotImplementedError


def observe(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    s: KernelArray,
    seat: int,
    out: KernelArray,
    rec: KernelArray,
) -> None:
    """Placeholder for the game's compiled observation encoder (``rec``: its record,
    :mod:`boardlab.rl.fast.kernel_planes`)."""
    raise NotImplementedError


# -- end kernel --


@numba.njit(cache=True, inline="always")
def _is_legal(legal_ids: KernelArray, count: int, action: int) -> bool:
    """Whether ``action`` is among the first ``count`` ids (a loop: the fastest in Numba)."""
    for k in range(count):  # noqa: SIM110
        if legal_ids[k] == action:
            return True
    return False


@numba.njit(cache=True, inline="always")
def _refresh(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    i: int,
    states: KernelArray,
    obs: KernelArray,
    records: KernelArray,
    legal_ids: KernelArray,
    counts: KernelArray,
    mask: KernelArray,
    players: KernelArray,
    dense: bool,
) -> None:
    """List game ``i``'s legal ids (and set them in its cleared mask row), its seat to move and
    its observation."""
    n = legal(p, states[i], legal_ids[i])
    counts[i] = n
    if dense:
        for k in range(n):
            mask[i, legal_ids[i, k]] = True
    seat = player(p, states[i])
    players[i] = seat
    observe(p, oi, of, states[i], seat, obs[i], records[i])


@numba.njit(cache=True)
def _reset_one(i: int, states: KernelArray, initial: KernelArray, rng: KernelArray) -> None:
    """Game ``i`` starts again from one of the initial states (drawn when there are several)."""
    pick = 0
    if initial.shape[0] > 1:
        rng[i] = next_state(rng[i])
        pick = below(rng[i], initial.shape[0])
    states[i, :] = initial[pick]


@numba.njit(cache=True)
def _finish(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    i: int,
    seat: int,
    states: KernelArray,
    initial: KernelArray,
    rng: KernelArray,
    rewards: KernelArray,
    terminated: KernelArray,
    truncated_out: KernelArray,
    final_obs: KernelArray,
    finals: KernelArray,
    scratch: KernelArray,
) -> None:
    """Game ``i`` is over: its returns, done flags and ``seat``'s last observation; reset."""
    returns(p, states[i], scratch)
    for k in range(scratch.shape[0]):
        rewards[i, k] = scratch[k]
    if truncated(p, states[i]):
        truncated_out[i] = True
    else:
        terminated[i] = True
    observe(p, oi, of, states[i], seat, final_obs[i], finals[i])
    _reset_one(i, states, initial, rng)


@numba.njit(cache=True)
def _illegal(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    i: int,
    seat: int,
    states: KernelArray,
    initial: KernelArray,
    rng: KernelArray,
    rewards: KernelArray,
    terminated: KernelArray,
    final_obs: KernelArray,
    finals: KernelArray,
) -> None:
    """An illegal action ends game ``i``: -1 for ``seat``, 0 for the others."""
    for k in range(rewards.shape[1]):
        rewards[i, k] = 0.0
    rewards[i, seat] = -1.0
    terminated[i] = True
    observe(p, oi, of, states[i], seat, final_obs[i], finals[i])
    _reset_one(i, states, initial, rng)


@numba.njit(cache=True, inline="always")
def _step_one(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    i: int,
    actions: KernelArray,
    learner: int,
    states: KernelArray,
    initial: KernelArray,
    rng: KernelArray,
    obs: KernelArray,
    final_obs: KernelArray,
    records: KernelArray,
    finals: KernelArray,
    legal_ids: KernelArray,
    counts: KernelArray,
    mask: KernelArray,
    players: KernelArray,
    rewards: KernelArray,
    terminated: KernelArray,
    truncated_out: KernelArray,
    dense: bool,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> None:
    """Play ``actions[i]`` in game ``i``; with ``learner`` ≥ 0, the bots then play every
    other seat until ``learner`` is on turn again (across an automatic reset)."""
    action = actions[i]
    if dense:  # the mask row says it at once; then it is cleared from the ids it was made of
        legal_action = 0 <= action < mask.shape[1] and mask[i, action]
        for k in range(counts[i]):
            mask[i, legal_ids[i, k]] = False
    else:
        legal_action = _is_legal(legal_ids[i], counts[i], action)
    for k in range(rewards.shape[1]):
        rewards[i, k] = 0.0
    terminated[i] = False
    truncated_out[i] = False
    seat = players[i]
    if not legal_action:
        _illegal(p, oi, of, i, seat, states, initial, rng, rewards, terminated, final_obs, finals)
    else:
        apply(p, states[i], action)
        if learner >= 0:
            _bots(p, i, learner, states, rng, legal_ids, work, fwork, work32)
        if is_over(p, states[i]):
            scratch = np.zeros(rewards.shape[1], dtype=np.float64)
            observer = seat if learner < 0 else learner
            _finish(
                p, oi, of, i, observer, states, initial, rng,
                rewards, terminated, truncated_out, final_obs, finals, scratch,
            )  # fmt: skip
    if learner >= 0:
        _open(p, i, learner, states, initial, rng, legal_ids, work, fwork, work32)
    _refresh(p, oi, of, i, states, obs, records, legal_ids, counts, mask, players, dense)


@numba.njit(cache=True)
def _bots(
    p: KernelArray,
    i: int,
    learner: int,
    states: KernelArray,
    rng: KernelArray,
    legal_ids: KernelArray,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> None:
    """The bots' decisions for every seat but ``learner`` while the game goes on."""
    while True:
        n = legal(p, states[i], legal_ids[i])
        if n == 0 or player(p, states[i]) == learner:
            return
        action = decide(p, states[i], rng, i, legal_ids[i], n, work, fwork, work32)
        apply(p, states[i], action)


@numba.njit(cache=True)
def _open(
    p: KernelArray,
    i: int,
    learner: int,
    states: KernelArray,
    initial: KernelArray,
    rng: KernelArray,
    legal_ids: KernelArray,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> None:
    """The bots play up to the learner's turn; a game that ends before it starts again."""
    while True:
        _bots(p, i, learner, states, rng, legal_ids, work, fwork, work32)
        if not is_over(p, states[i]):
            return
        _reset_one(i, states, initial, rng)


@numba.njit(cache=True, parallel=True)
def step_parallel(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    actions: KernelArray,
    learner: int,
    states: KernelArray,
    initial: KernelArray,
    rng: KernelArray,
    obs: KernelArray,
    final_obs: KernelArray,
    records: KernelArray,
    finals: KernelArray,
    legal_ids: KernelArray,
    counts: KernelArray,
    mask: KernelArray,
    players: KernelArray,
    rewards: KernelArray,
    terminated: KernelArray,
    truncated_out: KernelArray,
    dense: bool,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> None:
    """:func:`_step_one` for every game of the batch, on all cores: one run of consecutive
    games per row of the bots' scratch (``work``, ``fwork``, ``work32``)."""
    n = states.shape[0]
    runs = work.shape[0]
    for r in numba.prange(runs):
        for i in range(r * n // runs, (r + 1) * n // runs):
            _step_one(
                p, oi, of, i, actions, learner, states, initial, rng, obs, final_obs, records,
                finals, legal_ids, counts, mask, players, rewards, terminated, truncated_out,
                dense, work[r], fwork[r], work32[r],
            )  # fmt: skip


@numba.njit(cache=True)
def step_serial(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    actions: KernelArray,
    learner: int,
    states: KernelArray,
    initial: KernelArray,
    rng: KernelArray,
    obs: KernelArray,
    final_obs: KernelArray,
    records: KernelArray,
    finals: KernelArray,
    legal_ids: KernelArray,
    counts: KernelArray,
    mask: KernelArray,
    players: KernelArray,
    rewards: KernelArray,
    terminated: KernelArray,
    truncated_out: KernelArray,
    dense: bool,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> None:
    """:func:`_step_one` for every game of the batch, on one core (small batches), with the
    first row of the bots' scratch."""
    for i in range(states.shape[0]):
        _step_one(
            p, oi, of, i, actions, learner, states, initial, rng, obs, final_obs, records,
            finals, legal_ids, counts, mask, players, rewards, terminated, truncated_out,
            dense, work[0], fwork[0], work32[0],
        )  # fmt: skip


@numba.njit(cache=True)
def reset(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    learner: int,
    states: KernelArray,
    initial: KernelArray,
    rng: KernelArray,
    obs: KernelArray,
    records: KernelArray,
    legal_ids: KernelArray,
    counts: KernelArray,
    mask: KernelArray,
    players: KernelArray,
    dense: bool,
    work: KernelArray,
    fwork: KernelArray,
    work32: KernelArray,
) -> None:
    """Every game starts afresh (the bots opening up to ``learner``'s turn if ≥ 0, with the
    first row of their scratch)."""
    for i in range(states.shape[0]):
        _reset_one(i, states, initial, rng)
        if dense:
            mask[i, :] = False
        if learner >= 0:
            _open(p, i, learner, states, initial, rng, legal_ids, work[0], fwork[0], work32[0])
        _refresh(p, oi, of, i, states, obs, records, legal_ids, counts, mask, players, dense)


@numba.njit(cache=True)
def place(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    rows: KernelArray,
    positions: KernelArray,
    states: KernelArray,
    obs: KernelArray,
    records: KernelArray,
    legal_ids: KernelArray,
    counts: KernelArray,
    mask: KernelArray,
    players: KernelArray,
    dense: bool,
) -> None:
    """Game ``rows[k]`` is at kernel state ``positions[k]`` (not over), for every ``k``: its
    legal ids, mask row, seat to move and observation are made from it."""
    for k in range(rows.shape[0]):
        i = rows[k]
        states[i, :] = positions[k]
        if dense:
            mask[i, :] = False
        _refresh(p, oi, of, i, states, obs, records, legal_ids, counts, mask, players, dense)


@numba.njit(cache=True)
def observe_one(
    p: KernelArray,
    oi: KernelArray,
    of: KernelArray,
    s: KernelArray,
    seat: int,
    planes: KernelArray,
    mask: KernelArray,
    legal_ids: KernelArray,
    rec: KernelArray,
) -> None:
    """``seat``'s planes of ``s`` into ``planes`` (contiguous, any shape) and, unless ``mask``
    is empty, the legal ids of ``s`` set in it (``legal_ids`` and ``rec``, a record of no log,
    are scratch): the observation of the one-game environments (:mod:`boardlab.rl.compiled`)."""
    observe(p, oi, of, s, seat, planes.reshape(-1), rec)
    if mask.shape[0]:
        for k in range(legal(p, s, legal_ids)):
            mask[legal_ids[k]] = 1


@numba.njit(cache=True)
def random_actions(
    legal_ids: KernelArray, counts: KernelArray, rng: KernelArray, out: KernelArray
) -> None:
    """A uniformly random legal id per game into ``out`` (a policy for tests and benchmarks)."""
    for i in range(counts.shape[0]):
        rng[i] = next_state(rng[i])
        out[i] = legal_ids[i, below(rng[i], counts[i])] if counts[i] else 0
