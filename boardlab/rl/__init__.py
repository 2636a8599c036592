"""Reinforcement-learning adapters: PettingZoo, Gymnasium and OpenSpiel (extra ``rl``).

``pettingzoo_env("cyvasse")`` is a PettingZoo AEC environment, ``gymnasium_env("carnyx",
opponent="level:easy")`` a Gymnasium environment of one seat against bots, and
:func:`register_openspiel_games` (in :mod:`boardlab.rl.openspiel_game`, which needs
``open_spiel``) registers the games with OpenSpiel. Observations are documented on each game's
page; :class:`~boardlab.rl.observation.ObservationEncoder` defines them from the render model
and :func:`observation_encoder` gives the game's fast encoder (:mod:`boardlab.rl.fast`), which
reads the state directly and gives the same planes. :mod:`boardlab.rl.vector` steps batches of
games on the compiled engine (it needs the ``fast`` extra too); on that engine the PettingZoo
environment steps the kernel alone (the reference state is brought up to date when read) and
the Gymnasium environment a kernel state beside the reference state, both observing with the
same compiled encoders (:mod:`boardlab.rl.compiled`). Importing it registers every game with
Gymnasium as ``boardlab/<game id>-v0`` (:func:`~boardlab.rl.gymnasium_env.register_gymnasium_ids`).
"""

try:
    import gymnasium  # noqa: F401 - checked here to name the extra that provides it
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as error:
    raise ModuleNotFoundError(
        f"boardlab.rl needs {error.name}: install the extra with pip install 'boardlab[rl]'",
        name=error.name,
    ) from error

from boardlab.rl.fast import observation_encoder
from boardlab.rl.gymnasium_env import BoardlabGymEnv, gymnasium_env, register_gymnasium_ids
from boardlab.rl.observation import ObservationEncoder
from boardlab.rl.pettingzoo_env import BoardlabAECEnv, pettingzoo_env

__all__ = [
    "BoardlabAECEnv",
    "BoardlabGymEnv",
    "ObservationEncoder",
    "gymnasium_env",
    "observation_encoder",
    "pettingzoo_env",
]

register_gymnasium_ids()
