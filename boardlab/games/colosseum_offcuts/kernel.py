"""The compiled (Numba) kernel of Colosseum Offcuts: the reference's rules on int64 arrays.

**The window.** The grid is unbounded and play can drift without limit (a Mobile move may put
the westmost counter east of the rest, turn after turn), so the kernel keeps no absolute board.
It keeps the position *relative to the footprint*: each counter's cell in the reference's own
``W x W`` action window (``W = 4n + 2``, corner one cell west and south of the bounding box),
plus the absolute coordinates of that corner as two int64 fields. The window always holds the
game: a seat has at most 2 Board Pieces and 2 Fortifications (the parser's limit too), so at
most ``4n`` counters stand on at most ``4n`` cells, which stay 4-connected after every decision
under every option (§2; ``lift`` and ``final`` both forbid a disconnected result), so the
footprint spans at most ``4n`` cells in each direction and, with its one-cell border, fits in
``4n + 2``. Every cell an action starts from or goes to is occupied or touches an occupied cell,
so it lies in the window too; after each decision the window is re-anchored (counters shifted,
corner moved). A footprint wider than the window would be a bug: the kernel checks the span at
every re-anchoring and raises instead of going on. Coordinates themselves are bounded only by
int64 (about 9e18 cells of drift; a game cannot make that many moves).

**The repetition history.** Repetition counts the start-of-turn positions since the game
started; a capture removes a counter for good, so no position before it can recur and the
history restarts at each capture. Between captures the no-capture cap (``no_capture_rounds =
R > 0``) ends the game once ``R * k`` turns (``k <= n`` seats in the game) have passed, so at
most ``R * n + 1`` turn starts are recorded: that is the capacity, exact (up to
``INLINE_LIMIT``). With ``R = 0`` (cap off) and repetition on, no finite bound exists: a
footprint can drift across the grid for ever without a capture, never repeating a position (a
5-seat random game went past 19,000 turns without a capture). The state then keeps
``INLINE_LIMIT`` keys and the older ones move to the store of
:mod:`boardlab.core.kernel_history`, exact for any length. Without repetition no history is
kept.

Layout of ``p`` and ``s``: :mod:`kernel_layout`; legal decisions: :mod:`kernel_moves`; applying
them and the end rules: :mod:`kernel_play`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.core.game import Game
from boardlab.core.kernel_history import INLINE_LIMIT, lay_out
from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.core.state import State
from boardlab.games.colosseum_offcuts import notation
from boardlab.games.colosseum_offcuts.board import ATTACK, FORT, Cell, Stacks
from boardlab.games.colosseum_offcuts.board import counter_text as _counter_text
from boardlab.games.colosseum_offcuts.game import ColosseumOffcuts
from boardlab.games.colosseum_offcuts.kernel_layout import (
    MAX_COUNTERS,
    P_A2P,
    P_FORT_RANK,
    P_HISTORY,
    P_LIFT,
    P_LIFTED,
    P_P2A,
    P_PLAYERS,
    P_REPETITION,
    P_ROUNDS,
    P_SLIDE,
    P_W,
    PARAMS_SIZE,
    PW,
    S_AX,
    S_AY,
    S_CELL,
    S_FIRST,
    S_FIRST_CAPTURE,
    S_FIRST_KIND,
    S_FORCED_PASS,
    S_FORTS,
    S_HISTORY,
    S_HISTORY_LEN,
    S_KEY,
    S_LEVEL,
    S_MID,
    S_MODE,
    S_NO_CAPTURE,
    S_NODE,
    S_PLY,
    S_RESULT,
    S_SETUP,
    S_SIDE,
    S_STATUS,
    S_TERMINATION,
    TERMINATIONS,
)
from boardlab.games.colosseum_offcuts.kernel_moves import legal
from boardlab.games.colosseum_offcuts.kernel_play import (
    apply,
    fresh_key,
    is_over,
    key,
    player,
    returns,
    truncated,
)
from boardlab.games.colosseum_offcuts.state import ColosseumState

_FIRST_KINDS = "fam"
"""Letter of the first action of an open turn by ``s[S_FIRST_KIND]``."""
_KNOWN_KEYS = 1 << 16
"""History keys ``encode`` remembers before it starts afresh."""
_RESULTS = {1: Result.WIN, 0: Result.DRAW, -1: Result.LOSS}


def make_kernel(game: Game, history: int | None = None) -> Kernel:
    """The kernel of ``game`` (a Colosseum Offcuts game with any options).

    ``history`` overrides the repetition history's slots in the state (tests use a few, so
    that most keys go to the store); by default the bound of the module docstring.
    """
    if not isinstance(game, ColosseumOffcuts):
        raise TypeError(f"not a Colosseum Offcuts game: {game!r}")
    players = game.players
    width = game.window.size
    if history is None:
        rounds = game.no_capture_rounds
        bound = rounds * players + 1 if rounds else INLINE_LIMIT
        history = min(bound, INLINE_LIMIT) if game.repetition_draw else 0
    params = np.full(PARAMS_SIZE, -1, dtype=np.int64)
    params[:P_A2P] = 0
    params[P_PLAYERS] = players
    params[P_LIFT] = game.move_rules.lift
    params[P_LIFTED] = game.move_rules.lifted
    params[P_SLIDE] = game.move_rules.slide
    params[P_ROUNDS] = game.no_capture_rounds
    params[P_FORT_RANK] = game.draw_ranking == "fortifications"
    params[P_REPETITION] = game.repetition_draw
    params[P_W] = width
    params[P_HISTORY] = history
    for cell in range(width * width):
        rx, ry = divmod(cell, width)
        params[P_A2P + cell] = (rx + 1) * PW + ry + 1
        params[P_P2A + (rx + 1) * PW + ry + 1] = cell
    size = S_HISTORY + history

    known: dict[Hashable, tuple[int, int]] = {}

    def encode(state: State) -> KernelArray:
        assert isinstance(state, ColosseumState)
        if len(known) > _KNOWN_KEYS:
            known.clear()
        return _encode(params, size, state, known)

    def decode(s: KernelArray) -> State:
        return _decode(game, s)

    return Kernel(
        game=game,
        params=params,
        state_size=size,
        max_legal=64 * players + 4,
        legal=legal,
        apply=apply,
        is_over=is_over,
        returns=returns,
        player=player,
        key=key,
        encode=encode,
        decode=decode,
        truncated=truncated,
    )


def _lay_counters(s: KernelArray, stacks: Stacks, players: int) -> None:
    """Counters of ``stacks`` into ``s`` (identities in stack order), with the window corner."""
    s[S_CELL : S_CELL + MAX_COUNTERS] = -1
    ax = min((x for x, _ in stacks), default=0) - 1
    ay = min((y for _, y in stacks), default=0) - 1
    s[S_AX], s[S_AY] = ax, ay
    used = [[0, 0] for _ in range(players)]
    for (x, y), stack in stacks.items():
        for level, code in enumerate(stack):
            seat, fort = code >> 2, 1 if code & FORT else 0
            k = 4 * seat + 2 * fort + used[seat][fort]
            used[seat][fort] += 1
            s[S_CELL + k] = (x - ax + 1) * PW + (y - ay + 1)
            s[S_LEVEL + k] = level
            s[S_MODE + k] = code & ATTACK


def _encode(
    params: KernelArray, size: int, state: ColosseumState, known: dict[Hashable, tuple[int, int]]
) -> KernelArray:
    """The kernel state of any reference state, its repetition history included.

    ``known`` remembers the counter count and key of history positions already converted (a
    lock-step check encodes every position of a game, each with the history so far).
    """
    players = state.game.players
    s = np.zeros(size, dtype=np.int64)
    _lay_counters(s, state.stacks, players)
    s[S_SIDE] = state.side
    s[S_SETUP] = state.setup
    s[S_PLY] = state.ply
    s[S_NO_CAPTURE] = state.no_capture
    s[S_FORCED_PASS] = state.forced_pass
    for seat, count in enumerate(state.forts):
        s[S_FORTS + seat] = count
    if state.first is not None:
        s[S_MID] = 1
        s[S_FIRST_CAPTURE] = state.first_capture
        s[S_FIRST_KIND] = _FIRST_KINDS.index(state.first[0])
        coordinates = [int(v) for cell in notation.CELL_RE.findall(state.first) for v in cell]
        s[S_FIRST : S_FIRST + len(coordinates)] = coordinates
    s[S_TERMINATION] = -1
    outcome = state.outcome
    if outcome is not None:
        s[S_STATUS] = 1
        s[S_TERMINATION] = TERMINATIONS.index(outcome.termination.value)
        for seat, reward in enumerate(outcome.rewards()):
            s[S_RESULT + seat] = int(reward)
    # Only positions with as many counters as now can recur: the ones since the last capture.
    counters = sum(len(stack) for stack in state.stacks.values())
    history = []
    for entry, count in state._seen.items() if params[P_REPETITION] else ():
        found = known.get(entry)
        if found is None:
            stacks, side = cast(tuple[tuple[tuple[Cell, tuple[int, ...]], ...], int], entry)
            entry_counters = sum(len(stack) for _, stack in stacks)
            key = _position_key(params, size, dict(stacks), side, players)
            found = known[entry] = (entry_counters, key)
        if found[0] == counters:
            history += [found[1]] * count
    s[S_HISTORY_LEN], s[S_NODE] = lay_out(history, int(params[P_HISTORY]), s, S_HISTORY)
    s[S_KEY] = fresh_key(params, s)
    return s


def _position_key(params: KernelArray, size: int, stacks: Stacks, side: int, players: int) -> int:
    """The key of a start-of-turn position of the repetition history."""
    s = np.zeros(size, dtype=np.int64)
    _lay_counters(s, stacks, players)
    s[S_SIDE] = side
    return int(fresh_key(params, s))


def _decode(game: ColosseumOffcuts, s: KernelArray) -> ColosseumState:
    """The reference state of kernel state ``s`` (its repetition history starts afresh)."""
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for k in range(4 * game.players):
        c = int(s[S_CELL + k])
        if c >= 0:
            cell = (int(s[S_AX]) + c // PW - 1, int(s[S_AY]) + c % PW - 1)
            code = (k & ~1) | int(s[S_MODE + k])
            cells.setdefault(cell, []).append((int(s[S_LEVEL + k]), code))
    board = "/".join(
        f"{x},{y}=" + "".join(_counter_text(code) for _, code in sorted(cells[x, y]))
        for x, y in sorted(cells)
    )
    if s[S_SETUP]:
        step = f"s{s[S_SETUP]}"
    elif s[S_MID]:
        ox, oy, dx, dy = (int(v) for v in s[S_FIRST : S_FIRST + 4])
        kind = _FIRST_KINDS[int(s[S_FIRST_KIND])]
        step = f"f{ox},{oy}" if kind == "f" else f"{kind}{ox},{oy}:{dx},{dy}"
        step += "x" if s[S_FIRST_CAPTURE] else ""
    else:
        step = "-"
    text = (
        f"{game.players} {board or '-'} {s[S_SIDE] + 1} {step} "
        f"{s[S_NO_CAPTURE]} {s[S_FORCED_PASS]} {s[S_PLY]}"
    )
    state = game.state_from_text(text)
    state._outcome = None
    if s[S_STATUS]:
        results = tuple(_RESULTS[int(s[S_RESULT + seat])] for seat in range(game.players))
        state._outcome = Outcome(results, Termination(TERMINATIONS[int(s[S_TERMINATION])]))
    return state
