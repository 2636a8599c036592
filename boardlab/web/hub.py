"""The hub: every live match session, the only path by which a match changes, and its clients.

A change is checked by the session, committed to the store, applied to the session, and only
then queued for the clients, each in its own view. Changes to one match are serialised by the
session's lock; nothing under it ever waits on a client: each client has a bounded outbox that
its own sender task empties, and a client that does not keep up is dropped (it reconnects and
reads the view afresh). Bot turns are searched in worker processes and committed the same way.

The sessions in memory are a cache of the store: at most ``live_matches`` are kept, the least
recently used idle ones are dropped first and reloaded on demand. A request or a bot search
that started on a copy of a match that is no longer the live one is refused (409) and never
touches the live copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect

from boardlab.ai.players import timed_spec
from boardlab.core.registry import game_ids
from boardlab.web.abandoned import abandoned
from boardlab.web.account_cookie import live_since
from boardlab.web.bot_queue import BOTS, CLOCKED, PLAYER, BotQueue
from boardlab.web.bots import BotPool, bot_turn, worker_status
from boardlab.web.errors import ApiError
from boardlab.web.restore import load_session
from boardlab.web.session import MatchSession, to_json
from boardlab.web.store import (
    Event,
    MatchConfig,
    Store,
    StoreConflict,
    StoredMatch,
    StoreUnavailable,
    Summary,
)
from boardlab.web.tokens import seats_held, seats_of

if TYPE_CHECKING:
    from boardlab.web.sharing import Sharing

LOG = logging.getLogger("boardlab.web")
T = TypeVar("T")
Observer = Callable[[MatchSession, Event], None]
"""Told of each event this process commits, after it is stored, applied and sent."""
ACTIVE_SCAN_LIMIT = 1_000_000
DEFAULT_LIVE_MATCHES = 500
"""How many match sessions are kept in memory by default (``boardlab serve --live-matches``)."""
OUTBOX_MESSAGES = 16
"""Messages queued for one websocket client; a client this far behind is dropped."""
SEND_SECONDS = 5.0
"""How long one message may take to reach a client's socket before the client is dropped."""
STALE = "the match has changed meanwhile; reload it"
UNSTORED = "the server cannot store changes right now; nothing was changed: try again shortly"
UNAVAILABLE = 503
STORE_RETRY_SECONDS = 5.0
"""How long after the store refused a flag the hub tries again (and clients are told to)."""
PREPARING = "Preparing the bot (first start only)…"
READY_POLL_SECONDS = 0.2
"""How often the start asks the bot workers again whether all of them are ready."""
LIVE_TURNS = 50_000
"""Positions kept in memory at most, over all live sessions (each match keeps one per turn:
0.5-3.5 KB each, so at most about 175 MB); idle ones are dropped past it as past
``live_matches``."""
MAX_OWNERS = 100_000
"""Owners of matches remembered at most (a few MB)."""
RETRY_SECONDS = (5.0, 30.0, 120.0)
"""How long after each failed search the bot tries again; after the last, it stops."""


def now() -> str:
    """The time in the store's format (UTC, ISO 8601, microseconds so order is exact)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def search_class(session: MatchSession) -> int:
    """How urgent a bot search of ``session`` is (:mod:`boardlab.web.bot_queue`)."""
    if all(seat.kind == "bot" for seat in session.config.seats):
        return BOTS
    clocks = session.clocks
    return CLOCKED if clocks is not None and not clocks.control.days else PLAYER


class BotFailure(Exception):
    """A bot search that gave no turn; the message says why, in words for the players."""


@dataclass(eq=False)
class Client:
    """One open websocket, the hashes of the tokens it named and of its session cookie, and the
    messages waiting for it.

    The seats its tokens and its session's account hold are read again for every message (an
    invite link claimed since the socket opened holds nothing any more, nor a session signed
    out). ``None`` in the outbox tells its sender to stop:
    the client was dropped.
    """

    socket: WebSocket
    digests: tuple[str, ...]
    account: str | None = None
    """The digest of the session cookie its handshake carried (None: a guest)."""
    outbox: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(OUTBOX_MESSAGES)
    )


@dataclass
class Hub:
    """Live sessions (at most ``live_matches``), their websocket clients and their bots."""

    store: Store
    workers: int
    live_matches: int = DEFAULT_LIVE_MATCHES
    pool: BotPool = field(init=False)
    sessions: OrderedDict[str, MatchSession] = field(default_factory=OrderedDict)
    clients: dict[str, set[Client]] = field(default_factory=dict)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    prepare: bool = True
    """Whether bot workers load every game's compiled bots when they start (docs/bots.md)."""
    bots_ready: asyncio.Event = field(default_factory=asyncio.Event)
    bot_failures: int = 0
    """Bot searches that failed since the server started (``GET /api/health``)."""
    retries: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    queue: BotQueue = field(init=False)
    owners: dict[str, str] = field(default_factory=dict)
    """Who created each match created since the start (its client address): bot time is
    shared fairly between owners."""
    readiness: dict[str, str] = field(default_factory=dict)
    """Each game's bots: ``preparing``, ``ready`` or ``failed`` (``GET /api/health``)."""
    observers: list[Observer] = field(default_factory=list)
    """Called with the session and the event after every event this process commits (not for
    events committed elsewhere): ratings, notifications and playtests follow matches here."""
    sharing: Sharing | None = None
    """Set by :meth:`share` when other server processes use the same store."""

    def __post_init__(self) -> None:
        if self.live_matches < 1:
            raise ValueError("live_matches must be at least 1")
        self.pool = BotPool(self.workers, tuple(game_ids()) if self.prepare else ())
        self.queue = BotQueue(self.workers, bots_share=max(1, self.workers // 2))

    def share(self) -> None:
        """With a store that several server processes share (PostgreSQL), be one of them:
        catch up with their changes, share bot turns and flags (:mod:`boardlab.web.sharing`).
        Nothing for a store of this process alone (SQLite)."""
        if not self.store.shared:
            return
        from boardlab.web.postgres_store import PostgresStore
        from boardlab.web.sharing import Sharing

        assert isinstance(self.store, PostgresStore)
        self.sharing = Sharing(self)
        self.sharing.start(self.store.settings)

    def keep_task(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task of the hub (cancelled when it closes)."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- sessions -------------------------------------------------------------------------

    def session(self, match_id: str) -> MatchSession:
        """The live session of a match, loaded from the store on first use (404 if none)
        or caught up with the other processes' changes; a loaded match whose bot is to move
        starts its search."""
        session = self.sessions.get(match_id)
        if session is not None:
            self.sessions.move_to_end(match_id)
            if self.sharing is not None:
                self.sharing.catch_up(session)
            return session
        session = self._keep(load_session(self.store, match_id, now()))
        self.start_bot(session)
        self.watch_clock(session)
        if self.sharing is not None and self.sharing.told.get(match_id, session.version) != (
            session.version
        ):
            # Its clients here have not seen what another process committed meanwhile.
            self.broadcast(session)
        return session

    def _keep(self, session: MatchSession) -> MatchSession:
        """Make ``session`` the live copy of its match, dropping the least recently used idle
        ones while more than ``live_matches`` or ``LIVE_TURNS`` turns are kept."""
        self.sessions[session.id] = session
        self.sessions.move_to_end(session.id)
        excess = len(self.sessions) - self.live_matches
        turns = self.live_turns() - LIVE_TURNS
        for old in list(self.sessions.values()):
            if (excess <= 0 and turns <= 0) or old is session:
                break
            if self._idle(old):
                # Its websocket clients stay: they follow the match id, not this copy.
                del self.sessions[old.id]
                excess -= 1
                turns -= len(old.states)
        return session

    def live_turns(self) -> int:
        """The positions the live sessions keep (their memory grows with it)."""
        return sum(len(session.states) for session in self.sessions.values())

    @staticmethod
    def _idle(session: MatchSession) -> bool:
        """True when no bot searches for ``session`` and no change to it is under way."""
        return session.bot_task is None and not session.lock.locked()

    def is_live(self, session: MatchSession) -> bool:
        """True when ``session`` is the copy of its match that the hub serves."""
        return self.sessions.get(session.id) is session

    def held(
        self, session: MatchSession, tokens: list[str], account: str | None = None
    ) -> frozenset[int]:
        """The seats of ``session`` that ``tokens`` hold, and those that the account of the
        session whose cookie's digest is ``account`` holds (read now: a session signed out,
        expired or of a deleted account holds nothing)."""
        held = seats_held(tokens, [seat.token_hash for seat in session.config.seats])
        if account is None:
            return held
        return held | self.store.session_seats(account, session.id, live_since())

    def held_by(self, session: MatchSession, client: Client) -> frozenset[int]:
        """The seats of ``session`` that ``client``'s tokens and session hold now."""
        held = seats_of(client.digests, [seat.token_hash for seat in session.config.seats])
        if client.account is None:
            return held
        try:
            return held | self.store.session_seats(client.account, session.id, live_since())
        except StoreUnavailable:
            # Sent from a change already committed: the tokens' view until the next message.
            return held

    def create(
        self, config: MatchConfig, events: Sequence[Event] = (), owner: str | None = None
    ) -> MatchSession:
        """Store a new match, its first ``events`` already played (a match played on from an
        analysed position), and start its bot if a bot moves first; ``owner`` (the creator's
        address) shares the bot time with the other owners."""
        if owner is not None:
            if len(self.owners) >= MAX_OWNERS:
                self.owners.clear()  # a bound on memory; forgotten owners share as unknown
            self.owners[config.id] = owner
        # Built first, as a restart would build it: a match that cannot be is never stored.
        # The first events (a line played on from the analysis board) happened at its creation.
        events = tuple(event if event.at else replace(event, at=config.created) for event in events)
        session = MatchSession(StoredMatch(config, events, Summary("active", None, 0, now())))
        self.store.create(config, session.summary_now(config.created))
        for index, event in enumerate(session.events):
            self.store.append(config.id, index, event, session.summary_now(now()))
        self._keep(session)
        self.start_bot(session)
        self.watch_clock(session)
        return session

    def resume_bots(self) -> int:
        """Load every unfinished match whose bot is to move, which starts its search, and arm
        the timer of every running clock; returns how many searches were re-queued (a server
        killed mid-search resumes here).

        Read from the matches' lobby lines, not replayed: a match waiting for a person is
        loaded when someone opens it or its clock runs out, and an abandoned one (no change
        for ``ABANDONED_AFTER``) only when someone opens it.
        """
        count = 0
        for config, summary in self.store.list(status="active", limit=ACTIVE_SCAN_LIMIT):
            if abandoned(summary):
                continue
            seat = summary.to_move
            if seat is not None and not 0 <= seat < len(config.seats):
                seat = None  # a line the code did not write: load it to find out
            if seat is not None and config.seats[seat].kind != "bot":
                try:
                    if summary.deadline is not None:
                        self._arm(config.id, summary.deadline)
                    continue
                except ValueError:
                    pass  # a deadline the code did not write: load the match to find out
            try:
                session = self.session(config.id)
            except ApiError:
                continue  # set aside and logged: the other matches go on
            if session.bot_task is not None:
                count += 1
        return count

    # -- the one path of change -----------------------------------------------------------

    async def commit(self, session: MatchSession, event: Event) -> None:
        """Store ``event``, apply it, tell every client, and let a bot move if it is its turn.

        The caller holds ``session.lock`` and has checked the event. A session that is not
        the live copy (dropped from memory while the request waited) is adopted again if no
        other copy was loaded meanwhile, else the change is refused; the store refuses it too
        if the match has moved on.
        """
        live = self.sessions.get(session.id)
        if live is None:
            self._keep(session)
        elif live is not session:
            raise ApiError(409, STALE)
        index = session.version
        # Stamped as it is committed: the clocks charge the mover up to this moment.
        event = event if event.at else replace(event, at=now())
        session.apply(event)
        # Any change ends what was said of a bot that could not move (it searches afresh).
        retry = self.retries.pop(session.id, None)
        if retry is not None:
            retry.cancel()
        session.bot_state = session.bot_note = None
        session.bot_attempts = 0
        try:
            self.store.append(session.id, index, event, session.summary_now(now()))
        except StoreConflict as error:
            # Another copy of the match was committed first: this one is reloaded as stored.
            self.sessions.pop(session.id, None)
            raise ApiError(409, STALE) from error
        except Exception as error:
            # The store cannot take it (a full disk, a database gone): forget the session so
            # it is reloaded as stored, and say so; the change may be asked again.
            self.sessions.pop(session.id, None)
            LOG.error("match %s: the store refused a change: %s", session.id, error, exc_info=True)
            raise ApiError(503, UNSTORED, {"Retry-After": f"{STORE_RETRY_SECONDS:g}"}) from error
        except BaseException:
            # The store refused: forget the session so it is reloaded as stored.
            self.sessions.pop(session.id, None)
            raise
        self._keep(session)  # grown by a turn: the bound on turns kept is checked again
        self.start_bot(session)
        self.watch_clock(session)
        self.broadcast(session)
        self.tell_observers(session, event)

    def caught_up(self, session: MatchSession) -> None:
        """After events committed by another process were applied to ``session``: as after a
        commit here, but the observers are not told (the committing process told its own)."""
        retry = self.retries.pop(session.id, None)
        if retry is not None:
            retry.cancel()
        session.bot_state = session.bot_note = None
        session.bot_attempts = 0
        if self.sessions.get(session.id) is session:
            self._keep(session)
        self.start_bot(session)
        self.watch_clock(session)
        self.broadcast(session)

    def tell_observers(self, session: MatchSession, event: Event) -> None:
        """Call every observer with a committed event; one that fails is logged, and neither
        the change (already stored and sent) nor the other observers are affected."""
        for observer in self.observers:
            try:
                observer(session, event)
            except Exception:
                LOG.exception("match %s: an observer of committed events failed", session.id)

    # -- clocks ---------------------------------------------------------------------------

    async def flag_if_due(self, session: MatchSession) -> None:
        """Commit the flag of the seat to move if its time is up (the caller holds the lock,
        and checks a change next: with other processes, the session is caught up first)."""
        if self.sharing is not None:
            self.sharing.catch_up(session)
        flag = session.overdue(datetime.now(UTC))
        if flag is not None:
            await self.commit(session, flag)

    async def settle(self, session: MatchSession) -> None:
        """Commit a flag that is due, taking the match's lock only if one is."""
        if session.overdue(datetime.now(UTC)) is not None:
            async with session.lock:
                await self.flag_if_due(session)

    async def settled(self, session: MatchSession) -> MatchSession:
        """``session`` with a flag that is due committed, to be read; if the store cannot
        take the flag now, the match as stored (the flag's timer tries again)."""
        try:
            await self.settle(session)
        except ApiError as error:
            if error.status != UNAVAILABLE:
                raise
            return self.session(session.id)
        return session

    def watch_clock(self, session: MatchSession) -> None:
        """Check the match again when the running clock runs out (a flag is found without
        any request; after a restart, loading the match arms it again)."""
        old = self.timers.pop(session.id, None)
        if old is not None:
            old.cancel()
        deadline = session.clocks.deadline() if session.clocks else None
        if deadline is None or session.over:
            return
        self._arm(session.id, deadline.isoformat())

    def _arm(self, match_id: str, deadline: str) -> None:
        """Check the match when ``deadline`` (the store's time format) has passed."""
        when = datetime.fromisoformat(deadline)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        self._arm_after(match_id, (when - datetime.now(UTC)).total_seconds())

    def _arm_after(self, match_id: str, delay: float) -> None:
        """Check the match's clock in ``delay`` seconds."""
        old = self.timers.pop(match_id, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[match_id] = loop.call_later(max(0.0, delay), self._clock_ran_out, match_id)

    def _clock_ran_out(self, match_id: str) -> None:
        self.timers.pop(match_id, None)
        self.keep_task(self.flag(match_id))

    async def flag(self, match_id: str) -> None:
        """Commit the flag of the match if its clock ran out (else watch the clock again)."""
        try:
            session = self.session(match_id)
        except ApiError:
            return  # gone or set aside (logged): nothing to flag
        try:
            await self.settle(session)
        except ApiError as error:
            if error.status == UNAVAILABLE:
                # Logged by the commit: the flag falls once the store takes it.
                self._arm_after(match_id, STORE_RETRY_SECONDS)
            elif error.status == 409 and self.sharing is not None:
                # Another process committed first (its flag, or a move in time): read it.
                with contextlib.suppress(ApiError):
                    self.session(match_id)
            else:
                LOG.error("the flag in match %s was refused: %s", match_id, error)
            return
        if not session.over:
            # Woken a little early (or the turn changed meanwhile): wait for the clock again.
            self.watch_clock(session)

    # -- bots -----------------------------------------------------------------------------

    def start_workers(self, say: Callable[[str], None]) -> None:
        """Start the bot workers, which first prepare every game's compiled bots; bot turns
        wait for one of them, and their players are told why (``say`` tells the operator)."""
        task = asyncio.get_running_loop().create_task(self._start_workers(say))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _start_workers(self, say: Callable[[str], None]) -> None:
        games = game_ids()
        if not self.prepare:
            self.readiness = dict.fromkeys(games, "ready")
            self.bots_ready.set()
            return
        self.readiness = dict.fromkeys(games, "preparing")
        started = time.monotonic()
        say(
            "Preparing the bots of every game (after an install or an upgrade this compiles "
            "them once: up to a few minutes)…"
        )
        seen: dict[int, dict[str, str]] = {}
        while len(seen) < self.workers:
            # A worker takes a call only once it has prepared the bots: calls are sent until
            # every worker has answered one (one sent while none is idle starts a worker).
            calls = [self.run(worker_status) for _ in range(self.workers - len(seen))]
            for answer in await asyncio.gather(*calls, return_exceptions=True):
                if isinstance(answer, BrokenProcessPool):
                    seen.clear()  # a worker died preparing: the pool was renewed
                elif isinstance(answer, BaseException):
                    raise answer
                else:
                    seen[answer[0]] = answer[1]
            if len(seen) < self.workers:
                await asyncio.sleep(READY_POLL_SECONDS)
        states = list(seen.values())
        self.readiness = {
            game: "ready" if all(state.get(game) == "ready" for state in states) else "failed"
            for game in games
        }
        self.bots_ready.set()
        failed = [game for game, state in self.readiness.items() if state != "ready"]
        seconds = time.monotonic() - started
        if failed:
            LOG.error("the bots of %s could not be prepared (see above)", ", ".join(failed))
        say(f"The bots are ready ({seconds:.1f} s).")

    def start_bot(self, session: MatchSession) -> None:
        """Start the search of the bot to move in the live session, once per position (and
        with other processes, only in the one that holds the turn's lease)."""
        seat = session.bot_to_move()
        if (
            seat is None
            or session.bot_task is not None
            or session.searched == session.version
            or not self.is_live(session)
            or (self.sharing is not None and not self.sharing.lease(session))
        ):
            return
        session.searched = session.version
        session.thinking = seat
        task = asyncio.get_running_loop().create_task(
            self._bot_turn(session, seat, session.ply, session.version)
        )
        session.bot_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bot_turn(self, session: MatchSession, seat: int, ply: int, version: int) -> None:
        """Search and commit the turn of the bot in ``seat`` at ``ply``, the match's event
        index being ``version`` (a search that finds the match changed since is void)."""
        try:
            await self._bot_turn_at(session, seat, ply, version)
        finally:
            if self.sharing is not None:
                self.sharing.release(session.id, version)

    async def _bot_turn_at(self, session: MatchSession, seat: int, ply: int, version: int) -> None:
        if not self.bots_ready.is_set():
            self._note(session, "preparing", PREPARING)
            await self.bots_ready.wait()
        spec = session.config.seats[seat].bot or "random"
        self._note(session, "thinking", None)
        self.send_all(session, {"type": "thinking", "seat": seat})
        try:
            decisions: list[str] | None = await self._search(session, seat, spec)
            failure: BotFailure | None = None
        except BotFailure as error:
            decisions, failure = None, error
        async with session.lock:
            session.bot_task = None
            session.thinking = None
            if self.is_live(session):
                await self.flag_if_due(session)
            if not self.is_live(session):
                # A copy no longer served: the live copy runs its own search.
                return
            if session.version != version:
                # A takeback or a resignation meanwhile voids the search.
                self.start_bot(session)
                self.broadcast(session)
                return
            if decisions is not None:
                try:
                    event = session.check_turn(seat, ply, "+".join(decisions))
                except ApiError as error:
                    failure = BotFailure(f"it chose an illegal turn ({error.message})")
                else:
                    try:
                        await self.commit(session, event)
                    except ApiError as error:
                        if error.status == 409 and self.sharing is not None:
                            # Another process changed the match first: its copy is read again.
                            LOG.warning(
                                "match %s changed elsewhere during its bot's search", session.id
                            )
                            with contextlib.suppress(ApiError):
                                self.session(session.id)
                        else:
                            LOG.error("the bot turn in match %s was refused: %s", session.id, error)
                    return
            assert failure is not None
            self._bot_failed(session, spec, failure)

    def _bot_failed(self, session: MatchSession, spec: str, failure: BotFailure) -> None:
        """Tell the match's players that its bot could not move and try again later: a failed
        search never passes itself off as a move (no other bot moves in its place)."""
        self.bot_failures += 1
        attempt = session.bot_attempts
        session.bot_attempts += 1
        cause = str(failure)
        LOG.error(
            "bot %s could not move in match %s: %s",
            spec,
            session.id,
            cause,
            exc_info=failure.__cause__,
        )
        if attempt < len(RETRY_SECONDS):
            delay = RETRY_SECONDS[attempt]
            self._note(
                session,
                "failed",
                f"The bot could not move ({cause}); retrying in {delay:g} s. You may resign.",
            )
            loop = asyncio.get_running_loop()
            self.retries[session.id] = loop.call_later(delay, self._retry, session.id)
        else:
            self._note(
                session,
                "failed",
                f"The bot could not move ({cause}). It will try "
                "again when the server restarts. You may resign.",
            )

    def _retry(self, match_id: str) -> None:
        """Search again for the bot of a match whose last search failed."""
        self.retries.pop(match_id, None)
        session = self.sessions.get(match_id)
        if session is not None and session.bot_state == "failed":
            session.searched = None
            self.start_bot(session)

    def _note(self, session: MatchSession, state: str, note: str | None) -> None:
        """Set what the match's players are told about its bot, and tell them if the words
        changed (a search starting is told by the ``thinking`` message alone)."""
        changed = note != session.bot_note
        session.bot_state, session.bot_note = state, note
        if changed:
            self.broadcast(session)

    async def _search(self, session: MatchSession, seat: int, spec: str) -> list[str]:
        """The bot's turn from a worker process, once the match's turn at the workers has come
        (:mod:`boardlab.web.bot_queue`); a broken pool (a worker killed) is replaced. Raises
        BotFailure when there is none: nothing else moves in the bot's place."""
        turns = list(session.turns)
        seed = random.SystemRandom().randrange(2**31)
        game, options = session.game.id, session.config.options
        owner = self.owners.get(session.id, f"match {session.id}")
        async with self.queue.slot(search_class(session), owner):
            if session.clocks is not None:
                # The bot's thinking is charged to its clock: it gets a share of what is left
                # now that it starts (its wait for a worker was charged too).
                budget = session.clocks.bot_budget(datetime.now(UTC))
                spec = timed_spec(spec, session.game, budget)
            try:
                decisions = await self.run(bot_turn, game, options, turns, seat, spec, seed)
            except BrokenProcessPool as error:
                raise BotFailure("its worker process died") from error
            except Exception as error:
                # Whatever went wrong in the search, the server and the match go on.
                raise BotFailure(f"{type(error).__name__}: {error}") from error
        return decisions

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a bot worker; a pool found broken (a worker was killed) is
        replaced once, however many calls it failed, and the BrokenProcessPool raised."""
        pool = self.pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            if self.pool is pool:
                self.renew_pool()
            raise

    def renew_pool(self) -> None:
        """Replace a broken pool (a worker was killed) by new workers."""
        LOG.error("a bot worker died; starting new ones")
        self.pool.stop()
        self.pool = BotPool(self.workers, tuple(game_ids()) if self.prepare else ())

    # -- clients --------------------------------------------------------------------------

    def join(self, session: MatchSession, client: Client) -> None:
        """Follow a match: ``client`` gets its view now and after every change."""
        self.clients.setdefault(session.id, set()).add(client)
        held = self.held_by(session, client)
        if self.sharing is not None:
            self.sharing.joined(session, client, held)
        self.push(session.id, client, session.view_message(held))

    def leave(self, match_id: str, client: Client) -> None:
        """Stop following a match; a match nobody follows is dropped from memory."""
        followers = self.clients.get(match_id)
        if followers is not None:
            followers.discard(client)
            if self.sharing is not None:
                self.sharing.left(match_id, client, last=not followers)
            if not followers:
                del self.clients[match_id]
                session = self.sessions.get(match_id)
                if session is not None and self._idle(session):
                    # Kept forever, sessions (finished or abandoned) made every full garbage
                    # collection scan all their positions: pauses of 250-400 ms.
                    del self.sessions[match_id]

    def broadcast(self, session: MatchSession) -> None:
        """Queue for every client of the match its own fresh view."""
        if self.sharing is not None and session.id in self.clients:
            self.sharing.told[session.id] = session.version
        for client in list(self.clients.get(session.id, ())):
            self.push(session.id, client, session.view_message(self.held_by(session, client)))

    def followers(self, match_id: str) -> list[Client]:
        """The websocket clients following the match now."""
        return list(self.clients.get(match_id, ()))

    def send_all(self, session: MatchSession, message: dict[str, Any]) -> None:
        """Queue the same message for every client of the match."""
        text = to_json(message)
        for client in list(self.clients.get(session.id, ())):
            self.push(session.id, client, text)

    def push(self, match_id: str, client: Client, text: str) -> None:
        """Queue ``text`` for ``client``, or drop the client if it is too far behind."""
        try:
            client.outbox.put_nowait(text)
        except asyncio.QueueFull:
            LOG.warning("dropped a websocket client of match %s: it does not read", match_id)
            self.drop(match_id, client)

    def drop(self, match_id: str, client: Client) -> None:
        """Stop sending to ``client``: its queue is emptied and its sender told to stop."""
        self.leave(match_id, client)
        while not client.outbox.empty():
            client.outbox.get_nowait()
        client.outbox.put_nowait(None)

    async def pump(self, match_id: str, client: Client) -> None:
        """Send ``client`` its queued messages in order until it is dropped or gone; a send
        that takes longer than ``SEND_SECONDS`` drops it."""
        while (text := await client.outbox.get()) is not None:
            try:
                # A timeout scope, not wait_for: no extra task for every message sent.
                async with asyncio.timeout(SEND_SECONDS):
                    await client.socket.send_text(text)
            except TimeoutError:
                LOG.warning("dropped a websocket client of match %s: it is too slow", match_id)
                break
            except (WebSocketDisconnect, RuntimeError, OSError):
                # The connection went away: it re-reads the view when it reconnects.
                break
        self.leave(match_id, client)

    async def close(self) -> None:
        """Stop the bot searches (their turns are re-queued when the server starts again)."""
        if self.sharing is not None:
            self.sharing.stop()
        for timer in [*self.timers.values(), *self.retries.values()]:
            timer.cancel()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.pool.stop()


def preset_seed() -> int:
    """A seed for a preset such as Cyvasse's ``random`` lineup."""
    return secrets.randbelow(2**31)
