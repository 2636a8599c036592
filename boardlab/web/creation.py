"""Making a match from the lobby's form, or a rematch from a finished one: seats and tokens."""

from __future__ import annotations

from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.core.game import Game
from boardlab.core.options import MAX_PLIES, SEED, format_value
from boardlab.core.registry import game_class, game_ids, make
from boardlab.web.catalogue import bot_entries
from boardlab.web.clock import time_control
from boardlab.web.errors import ApiError
from boardlab.web.store import MatchConfig, SeatConfig, SeatKind
from boardlab.web.tokens import new_match_id, new_token, token_hash

MAX_OPTIONS = 32
MAX_OPTION_CHARS = 200
SEAT_KINDS: tuple[SeatKind, ...] = ("human", "invite", "bot")
PLAYERS_OPTION = "players"
BOT_MATCH_CAPS = {MAX_PLIES: 1000, "no_capture_rounds": 50}
"""A match with no human seat has each of these length caps its game has turned on and at
most this high, whatever was asked: nobody would ever end it otherwise (docs/web.md)."""


def bot_specs() -> list[str]:
    """The bots a seat may take: only the catalogue's, so every bot's budget is bounded."""
    return [str(entry["spec"]) for entry in bot_entries()]


def make_game(game_id: object, options: object, seats: int, bots_only: bool = False) -> Game:
    """The game of a create request, its options checked (400 with the reason otherwise).

    The options are read as the store will give them back at every restart: written as text
    first, then parsed by the same call that loads a stored match; a value that would not
    come back the same is refused here, before anything is stored.
    """
    if not isinstance(game_id, str) or game_id not in game_ids():
        raise ApiError(400, f"'game' must be one of: {', '.join(game_ids())}")
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise ApiError(400, f"'options' must be an object with at most {MAX_OPTIONS} keys")
    given: dict[str, str] = {}
    for key, value in options.items():
        if not isinstance(value, str | int | bool) or len(str(value)) > MAX_OPTION_CHARS:
            raise ApiError(400, f"option {key!r} must be a short string, number or boolean")
        given[key] = format_value(value)
    cls = game_class(game_id)
    # The seat list sets the number of players where the game has that option.
    if any(spec.key == PLAYERS_OPTION for spec in cls.OPTIONS):
        given.setdefault(PLAYERS_OPTION, str(seats))
    try:
        game = make(game_id, **given)
        if bots_only:
            game = make(game_id, **_capped(dict(game.option_items())))
        if make(game_id, **dict(game.option_items())) != game:
            raise ApiError(400, "these options would not be read back the same; nothing was stored")
    except BoardlabError as error:
        raise ApiError(400, str(error)) from error
    return game


def _capped(options: dict[str, str]) -> dict[str, str]:
    """``options`` with every length cap of :data:`BOT_MATCH_CAPS` on and within its bound."""
    capped = dict(options)
    for key, bound in BOT_MATCH_CAPS.items():
        if key in capped and not 0 < int(capped[key]) <= bound:
            capped[key] = str(bound)
    return capped


def seat_configs(data: object, game: Game) -> list[tuple[SeatKind, str | None]]:
    """The ``seats`` of a create request: one ``(kind, bot spec)`` per seat of ``game``."""
    if not isinstance(data, list) or len(data) != game.num_players:
        names = ", ".join(game.player_names)
        raise ApiError(400, f"'seats' must list {game.num_players} seats ({names})")
    seats: list[tuple[SeatKind, str | None]] = []
    for seat in data:
        kind = seat.get("kind") if isinstance(seat, dict) else None
        if kind not in SEAT_KINDS:
            raise ApiError(400, "each seat's 'kind' must be human, invite or bot")
        if kind == "bot":
            spec = seat.get("bot")
            if spec not in bot_specs():
                raise ApiError(400, f"a bot seat's 'bot' must be one of: {', '.join(bot_specs())}")
            seats.append(("bot", str(spec)))
        else:
            seats.append(("human" if kind == "human" else "invite", None))
    return seats


def rated_choice(
    body: dict[str, Any], seats: list[tuple[SeatKind, str | None]], member: bool
) -> bool:
    """Whether the new match is rated (the ``rated`` field, false by default), checked: a rated
    match is between accounts, so its creator is signed in (``member``), takes one seat and
    invites the others (each signs in to claim theirs), and has no bot seat."""
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise ApiError(400, "'rated' must be true or false")
    if not rated:
        return False
    if not member:
        raise ApiError(403, "sign in to start a rated game: ratings belong to accounts")
    if any(kind == "bot" for kind, _ in seats):
        raise ApiError(400, "a rated game has no bot seat: ratings are between players")
    if sum(kind == "human" for kind, _ in seats) != 1:
        raise ApiError(400, "in a rated game you take one seat and invite the other players")
    return True


def check_rated_claim(
    config: MatchConfig, seat: int, account: str | None, holders: dict[int, str]
) -> None:
    """Refuse the claim of an invite to a rated match by a guest (403), or by an account that
    holds another seat of it (409): every seat of a rated match is a different account's."""
    if not config.rated:
        return
    if account is None:
        raise ApiError(
            403, "this game is rated: sign in, then open the invite link again to take your seat"
        )
    if any(holder == account and other != seat for other, holder in holders.items()):
        raise ApiError(409, "you already play in this rated game: each seat is another account's")


def new_match(
    body: dict[str, Any], created: str, member: bool = False
) -> tuple[MatchConfig, dict[str, Any]]:
    """The configuration of a new match and the creator's answer (tokens and invite links);
    ``member`` when the creator is signed in (a rated match needs it)."""
    seats_data = body.get("seats")
    count = len(seats_data) if isinstance(seats_data, list) else 0
    bots_only = (
        isinstance(seats_data, list)
        and count > 0
        and all(isinstance(seat, dict) and seat.get("kind") == "bot" for seat in seats_data)
    )
    game = make_game(body.get("game"), body.get("options", {}), count, bots_only)
    seats = seat_configs(seats_data, game)
    clock = time_control(body.get("clock"))
    rated = rated_choice(body, seats, member)
    match_id = new_match_id()
    configs, answer = [], []
    for seat, (kind, bot) in enumerate(seats):
        entry: dict[str, Any] = {"seat": seat, "kind": kind}
        digest = None
        if kind != "bot":
            token = new_token()
            digest = token_hash(token)
            entry["token"] = token
            if kind == "invite":
                entry["link"] = f"/match/{match_id}#seat={seat}&token={token}"
        configs.append(SeatConfig(kind, bot, digest))
        answer.append(entry)
    options = dict(game.option_items())
    config = MatchConfig(match_id, game.id, options, tuple(configs), created, clock.text, rated)
    return config, {"id": match_id, "seats": answer}


def rematch_config(old: MatchConfig, created: str) -> MatchConfig:
    """The rematch of ``old``: the same game, options (a fresh seed), time control and rated
    or casual, seats rotated by one.

    Each seat keeps its token: whoever held seat ``i`` holds seat ``i + 1`` of the rematch.
    """
    count = len(old.seats)
    seats = tuple(old.seats[(seat - 1) % count] for seat in range(count))
    options = {key: value for key, value in old.options.items() if key != SEED}
    game = game_class(old.game)(**options)
    options = dict(game.option_items())
    return MatchConfig(new_match_id(), old.game, options, seats, created, old.clock, old.rated)


def rematch_answer(config: MatchConfig, tokens: list[str]) -> dict[str, Any]:
    """The answer to a rematch request: the caller's tokens for the seats they now hold."""
    answer = []
    for seat, seat_config in enumerate(config.seats):
        entry: dict[str, Any] = {"seat": seat, "kind": seat_config.kind}
        for token in tokens:
            if seat_config.token_hash is not None and token_hash(token) == seat_config.token_hash:
                entry["token"] = token
        answer.append(entry)
    return {"id": config.id, "seats": answer}
