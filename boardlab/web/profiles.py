"""A player's page (issue 41, item 4): ``/players/<name>`` and ``GET /api/players/<name>``.

Everything on it is public: the name, when the account was made, its games per game (won,
lost, drawn), its ratings per game and speed with their uncertainty and provisional marks,
the history of its rating changes (the page draws it), its current games and its latest
finished ones. Nothing private (sessions, seat tokens, hidden positions) is read here.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from boardlab.core.errors import BoardlabError
from boardlab.core.registry import game_class
from boardlab.web.api import _hub
from boardlab.web.archive import STATIC, account_of, game_json
from boardlab.web.archive_store import ArchiveQuery
from boardlab.web.errors import ApiError
from boardlab.web.player_ratings import (
    PROVISIONAL_GAMES,
    SHOWN_SIGMAS,
    START,
    interval,
    points,
    provisional,
    shown,
)
from boardlab.web.player_ratings_store import Skill
from boardlab.web.store import SetAside, Store

HISTORY_CHANGES = 200
"""Rating changes the page's graph shows at most (the latest)."""
CURRENT_SCANNED = 50
"""The account's most recently updated matches among which its current games are found."""
RECENT_GAMES = 10


async def profile_page(request: Request) -> Response:
    """``GET /players/<name>``: the player's page (it reads the name from its address)."""
    return FileResponse(STATIC / "profile.html", media_type="text/html")


async def get_player(request: Request) -> Response:
    """``GET /api/players/<name>``: what the player's page shows (404 for no such player)."""
    store = _hub(request).store
    name = str(request.path_params["name"])
    account_id = account_of(store, name)
    account = store.account_named(name.lower())
    if account is None:  # deleted meanwhile
        raise ApiError(404, f"there is no player named {name}")
    ratings = [
        {
            "game": rating.game,
            "game_name": _game_name(rating.game),
            "speed": rating.speed,
            **skill_json(rating.skill),
            "updated": rating.updated,
        }
        for rating in store.ratings(account_id)
    ]
    history = [
        {
            "match": change.match_id,
            "game": change.game,
            "speed": change.speed,
            "at": change.at,
            **skill_json(change.skill),
        }
        for change in store.rating_changes(account_id, HISTORY_CHANGES)
    ]
    counts = [
        {"game": game, "game_name": _game_name(game), **results}
        for game, results in store.game_counts(account_id).items()
    ]
    recent = store.search_games(ArchiveQuery(account_id=account_id, limit=RECENT_GAMES))
    return JSONResponse(
        {
            "name": account.name,
            "since": account.created[:10],
            "provisional_games": PROVISIONAL_GAMES,
            "shown_sigmas": SHOWN_SIGMAS,
            "start": skill_json(START),
            "ratings": ratings,
            "history": history,
            "games": counts,
            "current": current_games(store, account_id),
            "recent": [game_json(game) for game in recent],
        }
    )


def skill_json(skill: Skill) -> dict[str, Any]:
    """A rating's fields: OpenSkill's mean and uncertainty, the rating and its interval on the
    players' scale, games, provisional, and the text players read."""
    return {
        "mu": round(skill.mu, 3),
        "sigma": round(skill.sigma, 3),
        "rating": points(skill),
        "interval": interval(skill),
        "games": skill.games,
        "provisional": provisional(skill),
        "shown": shown(skill),
    }


def current_games(store: Store, account_id: str) -> list[dict[str, Any]]:
    """The account's matches in progress: game, the sides it plays, whose turn, last change."""
    found = []
    for match_id, seats in store.account_matches(account_id, CURRENT_SCANNED).items():
        try:
            stored = store.load(match_id)
            if stored is None or stored.summary.status != "active":
                continue
            config = stored.config
            names = game_class(config.game)(**config.options).player_names
        except (SetAside, BoardlabError, KeyError):
            continue  # set aside, or options this code no longer reads: not listed here
        to_move = stored.summary.to_move
        found.append(
            {
                "id": match_id,
                "game": config.game,
                "game_name": _game_name(config.game),
                "plays": [names[seat] for seat in sorted(seats)],
                "to_move": None if to_move is None else names[to_move],
                "rated": config.rated,
                "updated": stored.summary.updated,
            }
        )
    return found


def _game_name(game_id: str) -> str:
    return game_class(game_id).name
