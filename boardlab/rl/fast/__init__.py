"""Fast observation encoders, one per game, that read the state instead of its render model.

They are the one place of :mod:`boardlab.rl` that knows the games' internals, for speed: the
render-model encoding (:meth:`~boardlab.rl.observation.ObservationEncoder.reference`) stays the
definition of the planes, and ``tests/rl/test_fast_observation.py`` checks that every fast
encoder gives the same planes, bit for bit, through random games of every option that changes
the board. :func:`observation_encoder` picks the fast encoder where a game has one.
"""

from __future__ import annotations

from boardlab.core.game import Game
from boardlab.rl.fast.anacund import AnacundEncoder
from boardlab.rl.fast.base import FastEncoder
from boardlab.rl.fast.carnyx import CarnyxEncoder
from boardlab.rl.fast.colosseum_offcuts import ColosseumEncoder
from boardlab.rl.fast.cyvasse import CyvasseEncoder
from boardlab.rl.fast.murus_gallicus import MurusGallicusEncoder
from boardlab.rl.observation import ObservationEncoder

FAST_ENCODERS: dict[str, type[FastEncoder]] = {
    "anacund": AnacundEncoder,
    "carnyx": CarnyxEncoder,
    "colosseum-offcuts": ColosseumEncoder,
    "cyvasse": CyvasseEncoder,
    "murus-gallicus": MurusGallicusEncoder,
}
"""The fast encoder class of each game id that has one."""


def observation_encoder(game: Game) -> ObservationEncoder:
    """The fastest encoder of ``game``: its fast encoder if it has one, else the reference."""
    fast = FAST_ENCODERS.get(game.id)
    return ObservationEncoder(game) if fast is None else fast(game)
