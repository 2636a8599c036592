"""The store interface: what the web app keeps of a match and of an account, and the calls that
keep them.

A match is its configuration (game, options in force, seats, time control) and an append-only
list of events (a turn in notation, a resignation, a takeback, a rematch link, a flag, a draw
or takeback offer and its answer), each with the time it was committed. Replaying the events
rebuilds the match exactly, so the store never holds game positions. An account is a name and
a password hash, its sessions (each kept only as a SHA-256) and the seats it holds: a seat is
held by its token, and also by the one account recorded for it. Any backend with these
calls can replace SQLite (see ``docs/web.md`` for what a multi-process deployment needs).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

from boardlab.web.accounts_store import PasswordStore
from boardlab.web.archive_store import ArchiveStore
from boardlab.web.leases import SharedStore
from boardlab.web.notifications_store import NotificationStore
from boardlab.web.open_pages_store import OpenPageStore
from boardlab.web.player_ratings_store import RatingStore
from boardlab.web.playtest_store import PlaytestStore
from boardlab.web.seeks_store import SeekStore

SeatKind = Literal["human", "invite", "bot"]
EventKind = Literal[
    "turn", "resign", "takeback", "rematch", "flag", "offer", "decline", "draw", "abort"
]
Channel = Literal["players", "spectators"]
Status = Literal["active", "finished"]


class StoreConflict(Exception):
    """An append lost a race: the match already has an event at that index."""


class StoreUnavailable(Exception):
    """The store cannot be reached now (its database server is down, restarting or refusing
    connections); calls succeed again once it is back, without reopening the store. A call
    that fails so changed nothing, except one that lost its connection while committing,
    which may have been applied: reload the match to know. The web layer answers 503."""


class SetAside(Exception):
    """The match was set aside: it could not be loaded (the message says why)."""


@dataclass(frozen=True)
class SeatConfig:
    """One seat: who plays it, the SHA-256 of its token (None for a bot seat), and for an
    invite seat whether its link was claimed."""

    kind: SeatKind
    bot: str | None
    token_hash: str | None
    claimed: bool = False


@dataclass(frozen=True)
class MatchConfig:
    """What a match is made from: the game, every option in force as text, the seats, and
    the time control as ``boardlab.web.clock.TimeControl`` writes it (empty: no clock);
    ``rated`` when its end changes its players' ratings (``boardlab.web.player_ratings``)."""

    id: str
    game: str
    options: dict[str, str]
    seats: tuple[SeatConfig, ...]
    created: str
    clock: str = ""
    rated: bool = False


@dataclass(frozen=True)
class Event:
    """One change to a match, by ``seat``.

    ``text`` is the turn in notation (``turn``), the number of turns kept (``takeback``), the
    new match's id (``rematch``), what is offered or declined (``offer``, ``decline``: ``draw``
    or ``takeback``), or empty (``resign``, ``flag``: ``seat`` ran out of time, ``draw``: the
    draw offered to ``seat`` is accepted, ``abort``: ``seat`` ended the match with no
    result). ``at`` is when it happened (the store's time format; empty in events stored
    before times were kept).
    """

    kind: EventKind
    seat: int
    text: str
    at: str = ""


@dataclass(frozen=True)
class Summary:
    """The lobby's line of a match, rewritten with every event; ``deadline`` is when the
    seat to move runs out of time (None without a running clock); ``to_move`` is the seat to
    move (None once the match is over, and in a line written before it was kept)."""

    status: Status
    result: str | None
    plies: int
    updated: str
    deadline: str | None = None
    to_move: int | None = None


@dataclass(frozen=True)
class ChatLine:
    """One line of a match's chat: number ``index`` of the match's lines, said in ``channel``
    by ``seat`` (None: a spectator) under ``name``, at ``at``. Kept beside the events, never
    in them: a chat line is no part of the game or its record."""

    index: int
    channel: Channel
    seat: int | None
    name: str
    text: str
    at: str


@dataclass(frozen=True)
class Account:
    """A player's account: ``name`` as they wrote it, ``name_key`` its lower case (unique),
    ``password`` the password's hash (argon2id, PHC string format), ``created`` when."""

    id: str
    name: str
    name_key: str
    password: str
    created: str


@dataclass(frozen=True)
class StoredMatch:
    """A match as the store holds it."""

    config: MatchConfig
    events: tuple[Event, ...]
    summary: Summary


class Store(
    RatingStore,
    ArchiveStore,
    PlaytestStore,
    SeekStore,
    NotificationStore,
    PasswordStore,
    SharedStore,
    OpenPageStore,
    Protocol,
):
    """Where matches live. Every call is durable when it returns."""

    def create(self, config: MatchConfig, summary: Summary) -> None:
        """Add a new match with no events."""

    def load(self, match_id: str) -> StoredMatch | None:
        """The match with this id, or None; raises SetAside for a match set aside."""

    def append(self, match_id: str, index: int, event: Event, summary: Summary) -> None:
        """Add ``event`` as event number ``index`` (0-based) and set the summary, atomically.

        Raises StoreConflict if the match already has an event ``index``.
        """

    def claim_seat(self, match_id: str, seat: int, was: str, now: str) -> bool:
        """Replace seat ``seat``'s token hash ``was`` by ``now``, atomically; False (nothing
        changed) if the seat's hash is no longer ``was``: an invite is claimed once."""

    def list(
        self, game: str | None = None, status: Status | None = None, limit: int = 50
    ) -> list[tuple[MatchConfig, Summary]]:
        """Matches, most recently updated first, optionally only one game or status; never
        one set aside (a row that cannot be read is set aside here)."""

    def set_aside(self, match_id: str, reason: str, when: str) -> None:
        """Keep the match out of every listing and load from now on, noting why and when."""

    def set_aside_matches(self) -> tuple[tuple[str, str, str], ...]:
        """The matches set aside: ``(id, reason, when)``, oldest first."""

    def create_account(self, account: Account) -> bool:
        """Add ``account``; False (nothing added) if its ``name_key`` is taken."""

    def account_named(self, name_key: str) -> Account | None:
        """The account whose name is ``name_key`` in lower case, or None."""

    def set_password(self, account_id: str, password: str) -> None:
        """Replace the account's password hash and end every session of it."""

    def delete_account(self, account_id: str) -> None:
        """Remove the account, its sessions and its seats (their tokens still hold them)."""

    def open_session(self, digest: str, account_id: str, when: str, since: str) -> None:
        """Start a session of the account, kept as the SHA-256 ``digest`` of its id, at
        ``when``; sessions of any account not seen since ``since`` are removed."""

    def session_account(self, digest: str, since: str, when: str) -> Account | None:
        """The account of the session ``digest`` if it was seen since ``since`` (None
        otherwise), noting it as seen at ``when`` (at least to the hour)."""

    def close_session(self, digest: str) -> None:
        """End the session ``digest`` (nothing if there is none)."""

    def hold_seats(
        self, account_id: str, match_id: str, seats: Iterable[int], take: bool = False
    ) -> None:
        """Record ``seats`` of the match as held by the account; a seat another account holds
        stays that account's unless ``take`` (an invite claimed moves it)."""

    def session_seats(self, digest: str, match_id: str, since: str) -> frozenset[int]:
        """The seats of the match held by the account of session ``digest`` (none if the
        session was not seen since ``since``)."""

    def seat_accounts(self, match_id: str) -> dict[int, str]:
        """The match's seats that accounts hold: seat to account id."""

    def account_matches(self, account_id: str, limit: int) -> dict[str, frozenset[int]]:
        """The matches the account holds seats in (most recently updated first, at most
        ``limit``, none set aside) and its seats in each."""

    def add_chat(
        self, match_id: str, channel: Channel, seat: int | None, name: str, text: str, at: str
    ) -> ChatLine:
        """Keep a chat line of the match, numbered after its last one; returns it."""

    def chat(
        self, match_id: str, channels: Iterable[Channel], limit: int
    ) -> builtins.list[ChatLine]:
        """The last ``limit`` lines of the match's chat in ``channels``, oldest first."""

    def close_spectator_chat(self, match_id: str, seat: int | None, when: str) -> None:
        """Turn the spectators' chat of the match off (by ``seat``), or on again (None)."""

    def spectator_chat_closed(self, match_id: str) -> bool:
        """True when the players turned the match's spectators' chat off."""

    def close(self) -> None:
        """Release the store's resources."""
