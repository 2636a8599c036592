"""The hub: every live match session, the only path by which a match changes, and its clients.

A change is checked by the session, committed to the store, applied to the session, and only
then told to the clients, each in its own view. Changes to one match are serialised by the
session's lock. Bot turns are searched in worker processes and committed the same way.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from boardlab.web.bots import bot_pool, bot_turn
from boardlab.web.errors import ApiError
from boardlab.web.restore import load_session
from boardlab.web.session import MatchSession, to_json
from boardlab.web.store import Event, MatchConfig, Store, StoreConflict, StoredMatch, Summary
from boardlab.web.tokens import seats_held

LOG = logging.getLogger("boardlab.web")
ACTIVE_SCAN_LIMIT = 1_000_000


def now() -> str:
    """The time in the store's format (UTC, ISO 8601, microseconds so order is exact)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(eq=False)
class Client:
    """One open websocket and the seats its tokens hold."""

    socket: WebSocket
    held: frozenset[int]


@dataclass
class Hub:
    """Live sessions, their websocket clients and their bots."""

    store: Store
    workers: int
    pool: ProcessPoolExecutor = field(init=False)
    sessions: dict[str, MatchSession] = field(default_factory=dict)
    clients: dict[str, set[Client]] = field(default_factory=dict)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.pool = bot_pool(self.workers)

    # -- sessions -------------------------------------------------------------------------

    def session(self, match_id: str) -> MatchSession:
        """The live session of a match, loaded from the store on first use (404 if none)."""
        session = self.sessions.get(match_id)
        if session is None:
            session = load_session(self.store, match_id, now())
            self.sessions[match_id] = session
        return session

    def held(self, session: MatchSession, tokens: list[str]) -> frozenset[int]:
        """The seats of ``session`` that ``tokens`` hold."""
        return seats_held(tokens, [seat.token_hash for seat in session.config.seats])

    def create(self, config: MatchConfig) -> MatchSession:
        """Store a new match and start its bot if a bot moves first."""
        # Built first, as a restart would build it: a match that cannot be is never stored.
        session = MatchSession(StoredMatch(config, (), Summary("active", None, 0, now())))
        self.store.create(config, Summary("active", None, 0, config.created))
        self.sessions[config.id] = session
        self.start_bot(session)
        return session

    def resume_bots(self) -> int:
        """Load every unfinished match and re-queue the bot turns that were pending; returns
        how many were re-queued (a server killed mid-search resumes here)."""
        count = 0
        for config, _ in self.store.list(status="active", limit=ACTIVE_SCAN_LIMIT):
            try:
                session = self.session(config.id)
            except ApiError:
                continue  # set aside and logged: the other matches go on
            if session.bot_to_move() is not None:
                self.start_bot(session)
                count += 1
        return count

    # -- the one path of change -----------------------------------------------------------

    async def commit(self, session: MatchSession, event: Event) -> None:
        """Store ``event``, apply it, tell every client, and let a bot move if it is its turn.

        The caller holds ``session.lock`` and has checked the event.
        """
        index = len(session.events)
        session.apply(event)
        try:
            self.store.append(session.id, index, event, session.summary_now(now()))
        except StoreConflict as error:
            # Another copy of the session (see ``leave``) committed first: the loser reloads.
            self.sessions.pop(session.id, None)
            raise ApiError(409, "the match has changed meanwhile; reload it") from error
        except BaseException:
            # The store refused: forget the session so it is reloaded as stored.
            self.sessions.pop(session.id, None)
            raise
        self.start_bot(session)
        await self.broadcast(session)

    # -- bots -----------------------------------------------------------------------------

    def start_bot(self, session: MatchSession) -> None:
        """Start the search of the bot to move, unless one is already searching."""
        seat = session.bot_to_move()
        if seat is None or session.bot_task is not None:
            return
        session.thinking = seat
        task = asyncio.get_running_loop().create_task(self._bot_turn(session, seat))
        session.bot_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bot_turn(self, session: MatchSession, seat: int) -> None:
        ply, version = session.ply, len(session.events)
        spec = session.config.seats[seat].bot or "random"
        await self.send_all(session, {"type": "thinking", "seat": seat})
        decisions = await self._search(session, seat, spec)
        async with session.lock:
            session.bot_task = None
            session.thinking = None
            # Anything that happened meanwhile (a takeback, a resignation) voids the search.
            if self.sessions.get(session.id) is not session or len(session.events) != version:
                self.start_bot(session)
                await self.broadcast(session)
                return
            if decisions is not None:
                try:
                    event = session.check_turn(seat, ply, "+".join(decisions))
                except ApiError:
                    LOG.error("bot %s made an illegal turn in match %s", spec, session.id)
                else:
                    await self.commit(session, event)
                    return
            # The bot could not play: the match waits (logged) until the server restarts.
            await self.broadcast(session)

    async def _search(self, session: MatchSession, seat: int, spec: str) -> list[str] | None:
        """The bot's turn from a worker process; a failed search is tried once more with the
        random mover, and a broken pool (a worker killed) is replaced."""
        turns = [turn.text for turn in session.turns]
        loop = asyncio.get_running_loop()
        for player in (spec, "random"):
            seed = random.SystemRandom().randrange(2**31)
            try:
                decisions: list[str] = await loop.run_in_executor(
                    self.pool,
                    bot_turn,
                    session.game.id,
                    session.config.options,
                    turns,
                    seat,
                    player,
                    seed,
                )
                return decisions
            except BrokenProcessPool:
                LOG.error("a bot worker died; starting new ones")
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool = bot_pool(self.workers)
            except Exception:
                # Whatever went wrong in the search, the server and the match go on.
                LOG.exception("bot %s failed in match %s", player, session.id)
        return None

    # -- clients --------------------------------------------------------------------------

    def join(self, session: MatchSession, client: Client) -> None:
        """Follow a match: ``client`` gets its view after every change."""
        self.clients.setdefault(session.id, set()).add(client)

    def leave(self, session: MatchSession, client: Client) -> None:
        """Stop following a match; a match nobody follows is dropped from memory."""
        followers = self.clients.get(session.id)
        if followers is not None:
            followers.discard(client)
            if not followers:
                del self.clients[session.id]
                self._forget_if_idle(session)

    def _forget_if_idle(self, session: MatchSession) -> None:
        """Drop an unfollowed session with no bot searching and no change under way; it is
        reloaded from the store when asked for again. Kept forever, sessions (finished or
        abandoned) made every full garbage collection of the event loop scan all their
        positions: pauses of 250-400 ms with a few hundred matches.
        """
        if (
            session.bot_task is None
            and not session.lock.locked()
            and self.sessions.get(session.id) is session
        ):
            del self.sessions[session.id]

    async def broadcast(self, session: MatchSession) -> None:
        """Send every client of the match its own fresh view."""
        followers = list(self.clients.get(session.id, ()))
        await asyncio.gather(
            *(
                self._send(session, client, session.view_message(client.held))
                for client in followers
            )
        )

    async def send_all(self, session: MatchSession, message: dict[str, Any]) -> None:
        """Send the same message to every client of the match."""
        followers = list(self.clients.get(session.id, ()))
        text = to_json(message)
        await asyncio.gather(*(self._send(session, client, text) for client in followers))

    async def _send(self, session: MatchSession, client: Client, text: str) -> None:
        try:
            await client.socket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            # The connection went away: the change is committed all the same, and the other
            # clients are told; this one re-reads the view when it reconnects.
            self.leave(session, client)

    async def close(self) -> None:
        """Stop the bot searches (their turns are re-queued when the server starts again)."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)


def preset_seed() -> int:
    """A seed for a preset such as Cyvasse's ``random`` lineup."""
    return secrets.randbelow(2**31)
