"""The designer's dashboard of a playtest and its exports, for the designer only.

The playtest's matches are read from the store and replayed on a thread beside the event loop
(at most ``MAX_GAMES`` of them), never through the hub's live sessions. What a match still
hides from onlookers (a Cyvasse deployment before both sides have deployed) stays hidden here
too: such a turn's text is left out, and its record is not exported until the game is over.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import zipfile
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.core.registry import make
from boardlab.core.render_model import SPECTATOR
from boardlab.web import playtest_bots
from boardlab.web.abandoned import abandoned
from boardlab.web.api import _hub
from boardlab.web.errors import ApiError
from boardlab.web.playtest import Settings, label
from boardlab.web.playtest_api import designer_of
from boardlab.web.playtest_games import Decision, Game
from boardlab.web.playtest_store import Playtest, PlaytestMatch, RefusedTurn, SurveyAnswer
from boardlab.web.requests import json_body
from boardlab.web.session import MatchSession
from boardlab.web.store import SetAside, Store, StoredMatch

MAX_GAMES = 2000
"""Matches of one playtest read for its dashboard at most (the first ones)."""
WORK = ThreadPoolExecutor(1, thread_name_prefix="boardlab-playtests")
WAITING = 8
_queued = [0]
ENDED: OrderedDict[tuple[str, int], Game] = OrderedDict()
"""Matches that are over, replayed once: by id and number of events, least recently read
first (touched only on the playtests' one thread)."""
ENDED_KEPT = 5000
T = TypeVar("T")


@dataclass(frozen=True)
class Stored:
    """What the store holds of a playtest, read on the event loop (the store's connection is
    the loop's) for the thread to replay and summarise."""

    matches: list[tuple[PlaytestMatch, StoredMatch]]
    refused: list[RefusedTurn]
    waiting: frozenset[str]
    answers: list[SurveyAnswer]
    bots: dict[int, str]


def gather(store: Store, playtest: Playtest) -> Stored:
    """The playtest's rows: its first ``MAX_GAMES`` matches (none set aside), refused turns,
    matches with open seats, answers and bot summaries."""
    matches = []
    for row in store.playtest_matches(playtest.id)[:MAX_GAMES]:
        try:
            stored = store.load(row.match_id)
        except SetAside:
            continue
        if stored is not None:
            matches.append((row, stored))
    return Stored(
        matches,
        store.refused_turns(playtest.id),
        frozenset(match for match, _ in store.open_seats(playtest.id)),
        store.answers(playtest.id),
        store.bot_results(playtest.id),
    )


async def off_loop(
    store: Store,
    playtest: Playtest,
    settings: Settings,
    work: Callable[[Stored, Playtest, Settings], T],
) -> T:
    """``work(stored, playtest, settings)`` on the playtests' thread, the rows read first on
    the loop (503 while ``WAITING`` are queued)."""
    if _queued[0] >= WAITING:
        raise ApiError(
            503, "the dashboards are busy; try again in a few seconds", {"Retry-After": "3"}
        )
    _queued[0] += 1
    try:
        stored = gather(store, playtest)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(WORK, work, stored, playtest, settings)
    finally:
        _queued[0] -= 1


def read_games(stored: Stored) -> list[Game]:
    """Every match of the playtest as a :class:`Game`. A match that is over is replayed once
    and then read from ``ENDED`` while it keeps its number of events (a rematch adds one)."""
    refused: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for turn in stored.refused:
        refused[turn.match_id].append((turn.seat, turn.turn, turn.reason))
    games = []
    for row, match in stored.matches:
        key = (row.match_id, len(match.events))
        game = ENDED.get(key)
        if game is None:
            game = _game(row.match_id, row.variant, match, row.match_id in stored.waiting)
            if game.status in ("finished", "aborted"):
                ENDED[key] = game
                while len(ENDED) > ENDED_KEPT:
                    ENDED.popitem(last=False)
        else:
            ENDED.move_to_end(key)
        games.append(replace(game, refused=refused.get(row.match_id, [])))
    return games


def _game(match_id: str, variant: int, match: StoredMatch, waiting: bool) -> Game:
    """A stored match replayed, as a :class:`Game`."""
    session = MatchSession(match)
    people = tuple(i for i, seat in enumerate(match.config.seats) if seat.kind != "bot")
    outcome = session.outcome
    if session.aborted:
        status = "aborted"
    elif session.over:
        status = "finished"
    elif waiting:
        status = "waiting"
    elif abandoned(match.summary):
        status = "abandoned"
    else:
        status = "playing"
    return Game(
        match_id,
        variant,
        session.names,
        people,
        status,
        () if outcome is None else tuple(r.value for r in outcome.results),
        "" if outcome is None else outcome.termination.value,
        session.ply,
        _decisions(session, people),
    )


def _decisions(session: MatchSession, people: tuple[int, ...]) -> list[Decision]:
    """The people's turns and how long each took: from the event before it (the previous
    turn, an offer, a takeback…) to its own. A match's first turn is left out: its time
    counts from the match's creation, waiting for an opponent included."""
    found = []
    previous = session.config.created
    turns = 0
    for event in session.events:
        if event.kind == "turn":
            if turns > 0 and event.seat in people and event.at and previous:
                seconds = datetime.fromisoformat(event.at) - datetime.fromisoformat(previous)
                hidden = (
                    session.turn_hidden(turns, SPECTATOR) if turns < len(session.turns) else True
                )
                text = None if hidden else event.text
                found.append(Decision(event.seat, turns, text, max(0.0, seconds.total_seconds())))
            turns += 1
        elif event.kind == "takeback" and event.text.isdigit():
            turns = int(event.text)
        previous = event.at or previous
    return found


def _scores(text: str) -> list[int | None]:
    scores: list[int | None] = json.loads(text)
    return scores


def dashboard(stored: Stored, playtest: Playtest, settings: Settings) -> dict[str, Any]:
    """Everything the dashboard shows, as JSON data."""
    # Imported here, not at the server's start: SciPy takes seconds to load.
    from boardlab.web.playtest_stats import (
        compare_variants,
        disagreements,
        people_summary,
        survey_summary,
    )

    games = read_games(stored)
    variant_of = {g.match_id: g.variant for g in games}
    answers, bots = stored.answers, stored.bots
    variants, people, surveys, raw_scores, names = [], [], [], [], []
    for number, variant in enumerate(settings.variants):
        mine = [g for g in games if g.variant == number]
        seats = _seat_names(settings, number, mine)
        theirs = [a for a in answers if variant_of.get(a.match_id) == number]
        scores = [_scores(a.scores) for a in theirs]
        summary = people_summary(mine, seats)
        survey = survey_summary(settings.questions, scores, [a.text for a in theirs])
        bot = json.loads(bots[number]) if number in bots else None
        variants.append(
            {
                "label": label(number),
                "name": variant.name,
                "options": variant.options,
                "people": summary,
                "survey": survey,
                "bots": bot,
                "notes": disagreements(summary, bot, seats) if bot and summary["games"] else [],
            }
        )
        people.append(summary)
        surveys.append(survey)
        raw_scores.append(scores)
        names.append(f"{label(number)} ({variant.name})")
    return {
        "id": playtest.id,
        "title": settings.title,
        "game": settings.game,
        "opponent": settings.opponent,
        "ends": settings.ends,
        "created": playtest.created,
        "show_variant": settings.show_variant,
        "questions": list(settings.questions),
        "variants": variants,
        "comparison": compare_variants(people, surveys, raw_scores, names)
        if len(variants) > 1
        else None,
        "bots_running": playtest.id in playtest_bots.RUNNING,
        "bots_failed": playtest_bots.FAILED.get(playtest.id),
        "bot_games": playtest_bots.BOT_GAMES,
        "bot": playtest_bots.self_play_bot(settings),
        "bots": playtest_bots.self_play_bots(),
        "games": [
            {
                "match": g.match_id,
                "variant": label(g.variant),
                "status": g.status,
                "results": list(g.results),
                "termination": g.termination,
                "turns": g.plies,
                "refused": len(g.refused),
            }
            for g in games
        ],
        "answers": [
            {
                "match": a.match_id,
                "variant": label(variant_of.get(a.match_id, 0)),
                "seat": a.seat,
                "scores": _scores(a.scores),
                "text": a.text,
                "at": a.at,
            }
            for a in answers
        ],
    }


def _seat_names(settings: Settings, number: int, games: list[Game]) -> tuple[str, ...]:
    if games:
        return games[0].seats
    return make(settings.game, **settings.variants[number].options).player_names


async def get_dashboard(request: Request) -> Response:
    """``GET /api/playtests/<id>/dashboard``: the designer's dashboard data."""
    playtest, settings = designer_of(request)
    return JSONResponse(await off_loop(_hub(request).store, playtest, settings, dashboard))


async def post_bots(request: Request) -> Response:
    """``POST /api/playtests/<id>/bots``: start the bots' self-play of every variant (202)."""
    playtest, settings = designer_of(request)
    body = await json_body(request)
    bot = body.get("bot", playtest_bots.self_play_bot(settings))
    playtest_bots.start(_hub(request).store, playtest.id, settings, bot)
    return JSONResponse({"running": True}, status_code=202)


def _download(body: str | bytes, media: str, name: str) -> Response:
    return Response(
        body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


async def get_answers_csv(request: Request) -> Response:
    """``GET /api/playtests/<id>/answers.csv``: every survey answer as entered."""
    playtest, settings = designer_of(request)
    data = await off_loop(_hub(request).store, playtest, settings, dashboard)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["match", "variant", "seat", *settings.questions, "text", "at"])
    for a in data["answers"]:
        scores = ["" if s is None else s for s in a["scores"]]
        writer.writerow([a["match"], a["variant"], a["seat"], *scores, a["text"], a["at"]])
    return _download(
        out.getvalue(), "text/csv; charset=utf-8", f"playtest-{playtest.id}-answers.csv"
    )


async def get_games_csv(request: Request) -> Response:
    """``GET /api/playtests/<id>/games.csv``: one row per match."""
    playtest, settings = designer_of(request)
    data = await off_loop(_hub(request).store, playtest, settings, dashboard)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["match", "variant", "status", "results", "termination", "turns", "refused"])
    for g in data["games"]:
        writer.writerow(
            [
                g["match"],
                g["variant"],
                g["status"],
                " ".join(g["results"]),
                g["termination"],
                g["turns"],
                g["refused"],
            ]
        )
    return _download(out.getvalue(), "text/csv; charset=utf-8", f"playtest-{playtest.id}-games.csv")


async def get_json(request: Request) -> Response:
    """``GET /api/playtests/<id>/export.json``: the whole dashboard as JSON."""
    playtest, settings = designer_of(request)
    data = await off_loop(_hub(request).store, playtest, settings, dashboard)
    return _download(json.dumps(data, indent=1), "application/json", f"playtest-{playtest.id}.json")


def records_zip(stored: Stored, playtest: Playtest, settings: Settings) -> bytes:
    """A zip of every finished game's record (one hiding nothing from onlookers)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for _, match in stored.matches:
            if match.summary.status != "finished":
                continue
            session = MatchSession(match)
            if session.over and not session.hides(session.state, SPECTATOR):
                archive.writestr(
                    f"{session.game.id}-{session.id}.txt", session.record_text(frozenset())
                )
    return out.getvalue()


async def get_records(request: Request) -> Response:
    """``GET /api/playtests/<id>/records.zip``: the finished games' records."""
    playtest, settings = designer_of(request)
    body = await off_loop(_hub(request).store, playtest, settings, records_zip)
    return _download(body, "application/zip", f"playtest-{playtest.id}-records.zip")


def report_html(stored: Stored, playtest: Playtest, settings: Settings) -> str:
    """The report page."""
    from boardlab.web.playtest_report import render_html  # Matplotlib: loaded when asked for

    return render_html(dashboard(stored, playtest, settings))


def report_png(stored: Stored, playtest: Playtest, settings: Settings) -> bytes:
    """The report's picture."""
    from boardlab.web.playtest_report import render_png  # Matplotlib: loaded when asked for

    return render_png(dashboard(stored, playtest, settings))


async def get_report_html(request: Request) -> Response:
    """``GET /api/playtests/<id>/report.html``: the report, a self-contained page."""
    playtest, settings = designer_of(request)
    page = await off_loop(_hub(request).store, playtest, settings, report_html)
    return _download(page, "text/html; charset=utf-8", f"playtest-{playtest.id}-report.html")


async def get_report_png(request: Request) -> Response:
    """``GET /api/playtests/<id>/report.png``: the report's main picture."""
    playtest, settings = designer_of(request)
    picture = await off_loop(_hub(request).store, playtest, settings, report_png)
    return _download(picture, "image/png", f"playtest-{playtest.id}-report.png")
