"""A player's records (issue 41, item 4): all of them in one zip, and a record file imported
into their history.

``GET /api/account/records.zip`` gives the signed-in player every record of their archived
games: for a played match what ``GET /api/matches/<id>/record`` gives its player, for an
imported game the record as it was checked. Each replays with ``boardlab replay``.

``POST /api/account/import`` (JSON ``{"record": text, "seat": n}``, at most
:data:`~boardlab.web.analysis.MAX_RECORD_BYTES`) checks the record by replaying it with the
rules and keeps it as an unrated game of the player at ``seat``. Only a finished game is
taken: a record of a game still going on could carry a hidden-information game's secrets (a
Cyvasse deployment the server never shows) into the public archive, while a finished game's
record holds only what its end reveals anyway. An imported game names no other account (its
other seats read ``imported``), changes no rating and is listed as imported.
"""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from boardlab.core.errors import BoardlabError
from boardlab.core.records import parse_record
from boardlab.web.account_cookie import signed_in
from boardlab.web.analysis import MAX_RECORD_BYTES, RECORD_BYTES_PER_MOVE, _charge
from boardlab.web.api import _count, _hub
from boardlab.web.archive_store import ArchivedGame, ArchivedSeat, ArchiveQuery
from boardlab.web.errors import ApiError
from boardlab.web.hub import now
from boardlab.web.off_loop import ANALYSIS_WORK
from boardlab.web.requests import MATCH_ID_PATTERN, field_int, json_body
from boardlab.web.session import MatchSession
from boardlab.web.store import Account, StoredMatch
from boardlab.web.tokens import new_match_id

MAX_ZIP_GAMES = 1000
"""Records one zip holds at most (the player's latest games)."""
SKIPPED_NOTE = "not-included.txt"
IMPORTED = "imported"


def _member(request: Request) -> Account:
    """The signed-in account (401 for a guest)."""
    account = signed_in(request, now())
    if account is None:
        raise ApiError(401, "sign in to use your records")
    return account


async def get_records_zip(request: Request) -> Response:
    """``GET /api/account/records.zip``: every record of the signed-in player's games."""
    account = _member(request)
    _count(request, "creations")  # a zip is work: counted like a new match
    store = _hub(request).store
    games = store.search_games(ArchiveQuery(account_id=account.id, limit=MAX_ZIP_GAMES))
    sources: list[tuple[ArchivedGame, StoredMatch | str | None]] = []
    for game in games:
        if game.imported_by is not None:
            sources.append((game, store.imported_record(game.id)))
        else:
            sources.append((game, store.load(game.id)))
    data = await ANALYSIS_WORK.run(_zip, sources, account.id)
    day = datetime.now(UTC).date().isoformat()
    filename = f"boardlab-{account.name}-{day}.zip"
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def _zip(sources: list[tuple[ArchivedGame, StoredMatch | str | None]], account_id: str) -> bytes:
    """The zip of the records (run off the event loop: each match is replayed). A played
    match's record is the one its player's own seats get: a game that ended with something
    still hidden from them (a Cyvasse deployment never revealed) is left out, and named in
    :data:`SKIPPED_NOTE`."""
    buffer = io.BytesIO()
    skipped = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for game, source in sources:
            name = f"{game.ended[:10]}-{game.game}-{game.id}.txt"
            if isinstance(source, str):
                archive.writestr(name, source)
                continue
            try:
                if source is None:
                    raise ApiError(404, "the match is no longer kept")
                session = MatchSession(source)
                own = frozenset(seat.seat for seat in game.seats if seat.account_id == account_id)
                text = session.record_text(own)
            except (ApiError, BoardlabError) as error:
                skipped.append(f"{game.id}: {getattr(error, 'message', error)}")
                continue
            archive.writestr(name, text)
        if skipped:
            archive.writestr(SKIPPED_NOTE, "Games whose record is not here:\n" + "\n".join(skipped))
    return buffer.getvalue()


async def post_import(request: Request) -> Response:
    """``POST /api/account/import``: a finished game's record kept as the signed-in player's
    unrated game (201 with its archive entry); a record that is not one, is illegal or is
    unfinished is refused with a sentence."""
    account = _member(request)
    _count(request, "creations")
    body = await json_body(request)
    text = body.get("record")
    if not isinstance(text, str) or not text:
        raise ApiError(400, "'record' must be the text of a game record")
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_RECORD_BYTES:
        raise ApiError(413, f"the record is larger than {MAX_RECORD_BYTES} bytes")
    seat = field_int(body, "seat", 0, 4)
    _charge(request, size // RECORD_BYTES_PER_MOVE)  # a long record's replay, as moves
    game, checked = await ANALYSIS_WORK.run(_checked, text, seat, account.id, now())
    _hub(request).store.archive_game(game, checked)
    return JSONResponse(imported_entry(game), status_code=201)


def _checked(text: str, seat: int, account_id: str, when: str) -> tuple[ArchivedGame, str]:
    """The archive entry and the record's text as checked (400 with the reason otherwise)."""
    try:
        record, final = parse_record(text, "the record")
    except BoardlabError as error:
        raise ApiError(400, str(error)) from error
    outcome = record.outcome(final)
    if outcome is None:
        raise ApiError(
            400, "the record's game is not finished: only finished games go into your history"
        )
    names = record.game.player_names
    if seat >= len(names):
        raise ApiError(400, f"'seat' must be one of the record's {len(names)} seats (from 0)")
    seats = tuple(
        ArchivedSeat(
            index,
            account_id if index == seat else None,
            IMPORTED,
            outcome.results[index].value,
        )
        for index in range(len(names))
    )
    game = ArchivedGame(
        new_match_id(),
        record.game.id,
        when,
        outcome.describe(names),
        "",
        False,
        len(record.turns),
        seats,
        dict(record.game.option_items()),
        account_id,
    )
    return game, record.to_text(final)


async def get_imported_record(request: Request) -> Response:
    """``GET /api/games/<id>/record``: an imported game's record (404 for any other id: a
    played match's record is ``GET /api/matches/<id>/record``)."""
    game_id = str(request.path_params["game_id"])
    if not MATCH_ID_PATTERN.fullmatch(game_id):
        raise ApiError(404, "there is no imported game with this id")
    text = _hub(request).store.imported_record(game_id)
    if text is None:
        raise ApiError(404, "there is no imported game with this id")
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="imported-{game_id}.txt"'}
    )


def imported_entry(game: ArchivedGame) -> dict[str, Any]:
    """What the import answers."""
    return {"id": game.id, "game": game.game, "result": game.result}
