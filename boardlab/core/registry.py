"""The registry: game ids to Game classes, imported on first use."""

from __future__ import annotations

from importlib import import_module

from boardlab.core.errors import UnknownGameError
from boardlab.core.game import Game

# id -> "module:Class"; adding a game is one line here.
_GAMES: dict[str, str] = {
    "carnyx": "boardlab.games.carnyx:Carnyx",
    "murus-gallicus": "boardlab.games.murus_gallicus:MurusGallicus",
    "colosseum-offcuts": "boardlab.games.colosseum_offcuts:ColosseumOffcuts",
    "anacund": "boardlab.games.anacund:Anacund",
    "cyvasse": "boardlab.games.cyvasse:Cyvasse",
}


def game_ids() -> list[str]:
    """Registered game ids whose implementation is installed, in registry order."""
    return [game_id for game_id in _GAMES if _importable(game_id)]


def _importable(game_id: str) -> bool:
    module = _GAMES[game_id].partition(":")[0]
    try:
        import_module(module)
    except ModuleNotFoundError as error:
        if error.name and module.startswith(error.name):
            return False
        raise
    return True


def game_class(game_id: str) -> type[Game]:
    """The Game class registered under ``game_id``."""
    if game_id not in _GAMES or not _importable(game_id):
        known = ", ".join(game_ids())
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}")
    module, _, name = _GAMES[game_id].partition(":")
    cls: type[Game] = getattr(import_module(module), name)
    return cls


def make(game_id: str, **options: object) -> Game:
    """Make a game from its id and options, e.g. ``make("murus-gallicus", max_plies=200)``."""
    return game_class(game_id)(**options)
