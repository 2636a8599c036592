"""The lobby's catalogue: every game with its summary, seats, option schema and bot levels."""

from __future__ import annotations

from typing import Any

from boardlab.ai.level_ratings import level_rating
from boardlab.ai.levels import LEVELS
from boardlab.analysis.ladder_results import ladder_result
from boardlab.core.engine import engine_name
from boardlab.core.game import Game
from boardlab.core.options import OptionSpec
from boardlab.core.outcome import Termination
from boardlab.core.records import ABORTED
from boardlab.core.registry import game_ids, make
from boardlab.web.guides import GUIDES, OPTION_LABELS, PLAIN_OPTIONS

BOT_SPECS = ("random", *(f"level:{level}" for level in LEVELS))
"""The bots a seat of the lobby can take."""
TIME_BOUND = "level:expert"
"""The level whose strength depends on the engine's speed (docs/bots.md)."""
_OPTION_KINDS = {"int": "int", "bool": "bool", "enum": "choice", "str": "str"}


def option_entry(spec: OptionSpec) -> dict[str, Any]:
    """One option of the schema as the lobby form reads it."""
    return {
        "key": spec.key,
        "label": OPTION_LABELS.get(spec.key, spec.key.replace("_", " ")),
        "advanced": spec.key not in PLAIN_OPTIONS,
        "kind": _OPTION_KINDS[spec.kind],
        "default": spec.default,
        "choices": list(spec.choices) if spec.kind == "enum" else None,
        "min": spec.minimum,
        "max": spec.maximum,
        "help": spec.help,
    }


def game_entry(game: Game, picture: str) -> dict[str, Any]:
    """One game of the catalogue; ``picture`` is the SVG of its start position."""
    engine = engine_name(game)
    return {
        "id": game.id,
        "name": game.name,
        "summary": game.summary,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "player_names": list(game.player_names),
        "options": [option_entry(spec) for spec in game.OPTIONS],
        "picture": picture,
        "hints": GUIDES[game.id].hints,
        "engine": engine,
        "ratings": {
            str(seats): ratings(game.id, seats, compiled=engine == "compiled")
            for seats in range(game.min_players, game.max_players + 1)
        },
        "ladder": {
            str(seats): ladder(game.id, seats, compiled=engine == "compiled")
            for seats in range(game.min_players, game.max_players + 1)
        },
    }


def ratings(game_id: str, seats: int, compiled: bool = True) -> dict[str, float]:
    """The measured rating of each bot of the lobby at this seat count (``random`` = 0). The
    ratings were measured on the compiled engine: on the reference engine the level bounded by
    time alone (``expert``) searches less deeply, so its rating is left out."""
    specs = BOT_SPECS if compiled else tuple(spec for spec in BOT_SPECS if spec != TIME_BOUND)
    measured = {spec: level_rating(game_id, seats, spec) for spec in specs}
    return {spec: rating for spec, rating in measured.items() if rating is not None}


def ladder(game_id: str, seats: int, compiled: bool = True) -> dict[str, str]:
    """The ladder's result (``beats Medium 38-2``) of each level of the lobby whose rating is
    not shown at this seat count (its tournament does not tell it apart from the level below):
    what the games do support, instead of an ordering they do not. ``expert`` as for ratings."""
    shown = ratings(game_id, seats, compiled)
    specs = BOT_SPECS if compiled else tuple(spec for spec in BOT_SPECS if spec != TIME_BOUND)
    found = {spec: ladder_result(game_id, seats, spec) for spec in specs if spec not in shown}
    return {spec: text for spec, text in found.items() if text is not None}


def bot_entries() -> list[dict[str, Any]]:
    """The bot levels a seat can take, weakest first, plus the random mover."""
    bots: list[dict[str, Any]] = [{"spec": "random", "label": "Random mover"}]
    bots += [{"spec": f"level:{level}", "label": level.capitalize()} for level in LEVELS]
    return bots


def build_catalogue(picture_of: Any) -> dict[str, Any]:
    """The whole catalogue; ``picture_of(game)`` draws a game's start position."""
    games = [make(game_id) for game_id in game_ids()]
    return {
        "games": [game_entry(game, picture_of(game)) for game in games],
        "bots": bot_entries(),
        "endings": {
            **{termination.value: termination.reason for termination in Termination},
            ABORTED: "A player aborted the game before every side had made a decision.",
        },
    }
