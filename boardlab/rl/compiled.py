"""Planes and masks of one game from its compiled encoder: a kernel state beside the reference.

The one-game environments (PettingZoo, Gymnasium) step the reference ``State`` for everything
their API shows (turns, legal ids, outcomes, rendering). Where the game runs on its compiled
kernel here (:func:`~boardlab.core.engine.kernel_for`: ``numba`` installed and
``BOARDLAB_ENGINE`` not ``python``) they also play every action on a kernel state, and a
:class:`CompiledObserver` makes each observation from it with the compiled encoder of the
batched environments (:data:`boardlab.rl.vector.COMPILED_OBSERVERS`): the fast encoder's
planes, bit for bit, and the legal mask, in one compiled call. Hidden information stays hidden
as in the batched environments: the encoder reads the kernel state as the observing seat's
view shows it (Cyvasse's hidden deployment).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.engine import EngineError, Kernel, KernelArray, kernel_for
from boardlab.core.game import Game
from boardlab.core.state import State
from boardlab.rl.observation import ObservationEncoder, Planes


class CompiledObserver:
    """A kernel state following one reference game, and the observations made from it.

    Make it with :func:`compiled_observer`; call :meth:`start` with every new game,
    :meth:`apply` with every action played on the reference state, :meth:`observe` for planes.
    """

    def __init__(self, game: Game, kernel: Kernel, encoder: ObservationEncoder) -> None:
        from boardlab.rl.vector import compiled_drivers, observer_module  # needs numba

        self.game = game
        self.kernel = kernel
        self.encoder = encoder
        self.shape = encoder.shape
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
            self._no_mask if mask is None else mask, self._legal_ids,
        )  # fmt: skip
        return planes

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps (environments pickle): the game, the encoder and the kernel
        state; the kernel and the compiled functions are found again when it is loaded."""
        return {"game": self.game, "encoder": self.encoder, "state": self.state}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        game = saved["game"]
        kernel = kernel_for(game)
        if kernel is None:
            raise EngineError(
                f"this {game.id} environment observes on the compiled engine, "
                "which is not available where it is loaded"
            )
        self.__init__(game, kernel, saved["encoder"])  # type: ignore[misc]
        self.state = saved["state"]

    def _reseeded(self, game: Game) -> KernelArray:
        """The kernel parameters of ``game`` (another seed): Cyvasse holds its King-tie coin
        toss in them (the one slot a seed sets; making the parameters anew costs about 10 ms,
        more than a game), every other game takes its chance through the state."""
        if game.id != "cyvasse":
            return self.kernel.params
        from boardlab.games.cyvasse.kernel import _tie_first
        from boardlab.games.cyvasse.kernel_rules import P_TIE_FIRST

        first = _tie_first(game)  # type: ignore[arg-type]
        params = self._params_of.get(first)
        if params is None:
            params = self._params_of[first] = self.kernel.params.copy()
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
