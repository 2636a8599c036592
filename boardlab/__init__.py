"""Boardlab: play, analyse and playtest five abstract strategy games."""

from boardlab.core.errors import (
    BoardlabError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGameError,
)
from boardlab.core.game import Game
from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.core.registry import game_ids, make
from boardlab.core.state import State

__all__ = [
    "BoardlabError",
    "Game",
    "IllegalMoveError",
    "NotationError",
    "OptionError",
    "Outcome",
    "PositionError",
    "RecordError",
    "Result",
    "State",
    "Termination",
    "UnknownGameError",
    "game_ids",
    "make",
]

__version__ = "0.1.0"
