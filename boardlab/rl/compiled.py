"""One game on its compiled kernel, for the one-game environments.

Where a game runs on its compiled kernel here (:func:`~boardlab.core.engine.kernel_for`:
``numba`` installed and ``BOARDLAB_ENGINE`` not ``python``), the one-game environments use the
compiled observation encoder of the batched environments
(:data:`boardlab.rl.vector.COMPILED_OBSERVERS`): the fast encoder's planes, bit for bit, and the
legal mask. Hidden information stays hidden as in the batched environments: the encoder reads
the kernel state as the observing seat's view shows it (Cyvasse's hidden deployment).

* :class:`KernelGame` (the PettingZoo environment) plays the game on the kernel alone: one
  compiled call per step checks the action, plays it, lists the next position's legal ids in
  ascending order with the seat to move or the end (by the ply cap or not), and writes the next
  observation (:mod:`boardlab.rl.step_template`). The environment keeps the reference state
  behind, and brings it up to date only when something reads it.
* :class:`CompiledObserver` (the Gymnasium environment) follows a reference game that the
  environment steps: every action is played on a kernel state too, whose observations it makes.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.engine import EngineError, Kernel, KernelArray, kernel_for
from boardlab.core.game import Game
from boardlab.core.options import SEED
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.rl.observation import ObservationEncoder, Planes

_STEP_TEMPLATE = Path(__file__).with_name("step_template.py")

SHIFT = 3
SEATS = 1 << SHIFT
"""A code ``count * SEATS + seat`` packs the seat to move and the number of legal ids
(:mod:`boardlab.rl.step_template`, whose ``SEATS`` is the same)."""
TERMINATED = -1
"""The code of a position whose game is over, not by the ply cap."""
TRUNCATED = -2
"""The code of a position whose game ended by the ply cap."""
ILLEGAL = -3
"""The code of an action that is not legal (nothing was played)."""
_LOG = 4096
"""The most cells a record of :class:`KernelGame` logs (more: the next observation in the same
arrays writes every plane)."""


def direct(function: Any, *examples: object) -> Any:
    """The compiled code of Numba function ``function`` for the types of ``examples``, called
    directly: Numba's dispatch, which types every argument of every call to pick the code,
    cost 0.2-0.35 µs a call of :attr:`KernelGame.advance` (with the ``functools.partial`` that
    bound its first argument; measured in a loop of random games, docs/rl.md). The caller
    passes arguments of those types: the compiled code refuses an array of another type
    (``TypeError``) but converts a number as Numba does (2.7 to 2)."""
    from boardlab.core.jit import numba  # the kernels need it

    if not hasattr(function, "compile"):
        return function  # a Python function (NUMBA_DISABLE_JIT=1): nothing to compile
    typeof: Any = numba.typeof  # Numba ships no type information for it
    signature = tuple(typeof(example) for example in examples)
    function.compile(signature)
    return function.get_overload(signature)


def step_drivers(kernel: Kernel) -> ModuleType:
    """The compiled one-game step (:mod:`boardlab.rl.step_template`) bound to ``kernel``'s
    functions and its game's compiled observation encoder."""
    from boardlab.core.kernel_drivers import specialised  # needs numpy, as the kernel does
    from boardlab.rl.vector import observer_module

    return specialised(
        _STEP_TEMPLATE,
        {
            "legal": kernel.legal,
            "apply": kernel.apply,
            "player": kernel.player,
            "truncated": kernel.truncated,
            "observe": observer_module(kernel.game.id).observe,
        },
    )


class KernelGame:
    """A game played on its compiled kernel alone, observed with the compiled encoder.

    Make it with :func:`kernel_game`. :meth:`start` begins a game and :attr:`advance` plays an
    action; both give a *code* (see :mod:`boardlab.rl.step_template`: while the game goes on
    ``count * SEATS + seat``, with the legal ids in ascending order in ``ids[:count]``; else
    :data:`TERMINATED`, :data:`TRUNCATED` or :data:`ILLEGAL`).
    """

    def __init__(self, game: Game, kernel: Kernel, encoder: ObservationEncoder) -> None:
        from boardlab.core.jit import python_function  # needs numba
        from boardlab.rl.fast.kernel_planes import new_record
        from boardlab.rl.vector import observer_module

        self.game = game
        """The game it was made for; :meth:`start` plays it with other seeds too."""
        self.kernel = kernel
        self.encoder = encoder
        drivers = step_drivers(kernel)
        ints, floats = observer_module(game.id).observer_tables(kernel, encoder)
        record = new_record(encoder.shape[0], min(int(np.prod(encoder.shape)), _LOG))
        self.work: KernelArray = drivers.pack(
            kernel.params, ints, floats, kernel.state_size, kernel.max_legal, record
        )
        """Every array of the compiled step (see :mod:`boardlab.rl.step_template`)."""
        view = python_function(drivers.part_of)
        self._params_part: KernelArray = view(self.work, drivers.PARAMS)
        self.state: KernelArray = view(self.work, drivers.STATE)
        self.ids: KernelArray = view(self.work, drivers.IDS)
        """The legal ids of ``state`` in ascending order, in ``ids[:count]`` (count in its code)."""
        self.params: KernelArray = kernel.params
        """The parameters in the work array (another game's, after a seeded :meth:`start`)."""
        self.first: KernelArray = kernel.encode(game.new_initial_state())
        """The first position of the game started last (before any :meth:`start`: of ``game``)."""
        self.state[:] = self.first
        planes, mask = np.zeros((0,) * len(encoder.shape), np.float32), np.zeros(0, np.int8)
        self.advance = direct(drivers.advance, self.work, 0, 0, planes, mask, False)
        """``advance(work, count, action, planes, mask, recycled) -> code``: play ``action`` if
        it is legal (among the ``count`` ids); unless ``mask`` is empty (then ``planes`` is
        unused), write the next seat's planes into ``planes`` (``encoder.shape``, ``float32``,
        C order) and set the next legal ids in ``mask`` (``num_actions`` long, ``int8``), while
        the game goes on. ``work`` is :attr:`work`; ``mask`` is zeros, or (``recycled``) the
        on-turn mask of the position before. Called without Numba's dispatch (see
        :func:`direct`): the arguments must have exactly these types (``count`` and ``action``
        Python ints, ``recycled`` a bool)."""
        self._position = direct(drivers.position, self.work)
        self._observe_into = direct(drivers.observe_into, self.work, 0, planes, mask, 0)
        self._returns = kernel.returns
        self._params_of: dict[int, KernelArray] = {}
        self._layout_start: Any = None

    def start(self, seed: int | None = None) -> int:
        """Start the game again, or (``seed``) the game that the game's ``seed`` option set to
        ``seed`` gives (Anacund's layout, Cyvasse's coin for a King tie), without making it;
        returns the code of its first position."""
        if seed is not None:
            params, self.first = self._seeded(seed)
            if params is not self.params:  # Cyvasse: the other coin
                self._params_part[:] = params
                self.params = params
        self.state[:] = self.first
        return int(self._position(self.work))

    def observe(self, seat: int, planes: Planes, mask: npt.NDArray[np.int8], count: int) -> None:
        """``seat``'s planes into ``planes``; the first ``count`` legal ids set in ``mask``."""
        self._observe_into(self.work, seat, planes, mask, count)

    def returns(self) -> list[float]:
        """Each seat's returns in ``state`` (zeros while the game goes on)."""
        out = np.zeros(self.game.num_players, dtype=np.float64)
        self._returns(self._params_part, self.state, out)
        return [float(r) for r in out]

    def _seeded(self, seed: int) -> tuple[KernelArray, KernelArray]:
        """The parameters and first position of the game with its ``seed`` option set to
        ``seed``, found without making it where the seed is known to act (Anacund's layout,
        Cyvasse's coin); else the game is made."""
        game = self.game
        if game.id == "anacund":
            if game.options["layout"] != "random":  # the seed draws nothing then
                return self.params, self.first
            from boardlab.games.anacund.kernel_layout import SEEDS

            if self._layout_start is None:
                self._layout_start = _anacund_starts(game, self.kernel) or False
            if self._layout_start and 0 <= seed < SEEDS:
                return self.params, self._layout_start(seed)
        if game.id == "cyvasse":  # the seed tosses the coin for a King tie, in the parameters
            from boardlab.games.cyvasse.kernel import tie_first

            first = tie_first(str(game.options["first_tie"]), seed)
            return _cyvasse_params(self.kernel, first, self._params_of), self.first
        seeded = make(game.id, **{**game.options, SEED: seed})
        kernel = kernel_for(seeded)
        assert kernel is not None
        return kernel.params, kernel.encode(seeded.new_initial_state())

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps (environments pickle): the game, the encoder, the parameters
        and the arrays; the kernel and the compiled functions are found again when loaded."""
        return {
            "game": self.game,
            "encoder": self.encoder,
            "arrays": (self.params, self.first, self.work),
        }

    def __setstate__(self, saved: dict[str, Any]) -> None:
        game = saved["game"]
        self.__init__(game, _loaded_kernel(game, "runs"), saved["encoder"])  # type: ignore[misc]
        self.params, self.first, work = saved["arrays"]
        self.work[:] = work


def kernel_game(game: Game, encoder: ObservationEncoder) -> KernelGame | None:
    """The game on its kernel, or None where it runs on the reference engine (then the
    environment steps the reference state and ``encoder``, the fast NumPy encoder, observes)."""
    kernel = kernel_for(game)
    if kernel is None or kernel.truncated is None:
        return None
    from boardlab.rl.vector import COMPILED_OBSERVERS  # needs numba, as the kernel does

    if game.id not in COMPILED_OBSERVERS:
        return None
    return KernelGame(game, kernel, encoder)


class CompiledObserver:
    """A kernel state following one reference game, and the observations made from it.

    Make it with :func:`compiled_observer`; call :meth:`start` with every new game,
    :meth:`apply` with every action played on the reference state, :meth:`observe` for planes.
    """

    def __init__(self, game: Game, kernel: Kernel, encoder: ObservationEncoder) -> None:
        from boardlab.rl.fast.kernel_planes import scratch_records  # needs numba
        from boardlab.rl.vector import compiled_drivers, observer_module

        self.game = game
        self.kernel = kernel
        self.encoder = encoder
        self.shape = encoder.shape
        self._record = scratch_records(encoder.shape[0], 1)[0]
        self._ints, self._floats = observer_module(game.id).observer_tables(kernel, encoder)
        self._observe_one = compiled_drivers(kernel).observe_one
        self._apply = kernel.apply
        self._params = kernel.params
        self._params_of: dict[int, KernelArray] = {}
        self._legal_ids = np.empty(kernel.max_legal, dtype=np.int64)
        self._no_mask = np.zeros(0, dtype=np.int8)
        self.state: KernelArray = kernel.encode(game.new_initial_state())

    def start(self, game: Game, state: State) -> None:
        """Follow ``state``, the first position of ``game``: the game this observer was made
        for, or one made with the same options but another seed."""
        if game is not self.game:
            self.game = game
            self._params = self._reseeded(game)
        self.state = self.kernel.encode(state)

    def apply(self, action: int) -> None:
        """Play ``action`` (legal: the reference state accepted it) on the kernel state."""
        self._apply(self._params, self.state, action)

    def observe(self, seat: int, mask: npt.NDArray[Any] | None = None) -> Planes:
        """A new array of ``seat``'s planes; with ``mask`` (zeros, ``num_actions`` long) the
        legal ids of the position are set in it too."""
        planes = np.empty(self.shape, dtype=np.float32)
        self._observe_one(
            self._params, self._ints, self._floats, self.state, seat, planes,
            self._no_mask if mask is None else mask, self._legal_ids, self._record,
        )  # fmt: skip
        return planes

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps (environments pickle): the game, the encoder and the kernel
        state; the kernel and the compiled functions are found again when it is loaded."""
        return {"game": self.game, "encoder": self.encoder, "state": self.state}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        game = saved["game"]
        self.__init__(game, _loaded_kernel(game, "observes"), saved["encoder"])  # type: ignore[misc]
        self.state = saved["state"]

    def _reseeded(self, game: Game) -> KernelArray:
        """The kernel parameters of ``game`` (another seed): Cyvasse holds its King-tie coin
        toss in them (the one slot a seed sets; making the parameters anew costs about 10 ms,
        more than a game), every other game takes its chance through the state."""
        if game.id != "cyvasse":
            return self.kernel.params
        from boardlab.games.cyvasse.kernel import _tie_first

        return _cyvasse_params(self.kernel, _tie_first(game), self._params_of)  # type: ignore[arg-type]


def _loaded_kernel(game: Game, does: str) -> Kernel:
    """The kernel of ``game`` for an environment that ``does`` (runs, observes) on the compiled
    engine, loaded from a pickle; :class:`EngineError` where this process has no kernel."""
    kernel = kernel_for(game)
    if kernel is None:
        raise EngineError(
            f"this {game.id} environment {does} on the compiled engine, "
            "which is not available where it is loaded"
        )
    return kernel


def _anacund_starts(game: Game, kernel: Kernel) -> Any:
    """The function writing the first kernel state of ``game`` with the layout a seed draws,
    compiled (:mod:`boardlab.games.anacund.kernel_layout`); None where the compiled draw does
    not draw what the reference draws here (then the game is made)."""
    from boardlab.games.anacund import kernel_layout

    if not kernel_layout.agrees():
        return None
    template = kernel.encode(game.new_initial_state())
    first = template.copy()

    def start(seed: int) -> KernelArray:
        kernel_layout.seeded_start(kernel.params, template, seed, first)
        return first

    return start


def _cyvasse_params(kernel: Kernel, first: int, made: dict[int, KernelArray]) -> KernelArray:
    """Cyvasse's kernel parameters with ``first`` to move on a King tie (kept in ``made``)."""
    from boardlab.games.cyvasse.kernel_rules import P_TIE_FIRST

    params = made.get(first)
    if params is None:
        params = made[first] = kernel.params.copy()
        params[P_TIE_FIRST] = first
    return params


def compiled_observer(game: Game, encoder: ObservationEncoder) -> CompiledObserver | None:
    """The compiled observer of ``game``, or None where it runs on the reference engine (then
    the environments use ``encoder``, the fast NumPy encoder)."""
    kernel = kernel_for(game)
    if kernel is None or kernel.truncated is None:
        return None
    from boardlab.rl.vector import COMPILED_OBSERVERS  # needs numba, as the kernel does

    if game.id not in COMPILED_OBSERVERS:
        return None
    return CompiledObserver(game, kernel, encoder)
