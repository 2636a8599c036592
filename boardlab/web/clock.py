"""Time controls of web matches: real-time clocks (base + increment) and days per move.

The server keeps the clocks: each event is stored with the time it was committed, and a match's
clocks are those times replayed, so a restarted server has them exactly and a client can
neither stop nor add to its clock. The seat to move is charged from the start of its turn to
the event that ends it; a real-time clock adds the increment after each timed turn. Each seat's
first turn on a real-time clock is not timed (as on lichess: a game starts once both sides are
there); with days per move every turn, the first included, must come within the days.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from boardlab.web.errors import ApiError

MAX_BASE_SECONDS = 3 * 3600
MAX_INCREMENT_SECONDS = 180
MAX_DAYS = 30
DAY = 86400.0
_TEXT = re.compile(r"(\d{1,5})\+(\d{1,3})|(\d{1,2})d")
_BOT_SHARE = 20
"""A bot may spend a twentieth of its remaining time (plus most of its increment) on a turn."""


@dataclass(frozen=True)
class TimeControl:
    """A match's time control: ``base`` seconds plus ``increment`` per turn, or ``days`` per
    move, or neither (no clock)."""

    base: int = 0
    increment: int = 0
    days: int = 0

    @property
    def kind(self) -> str:
        """``realtime``, ``correspondence`` or ``none``."""
        if self.days:
            return "correspondence"
        return "realtime" if self.base else "none"

    @property
    def text(self) -> str:
        """As the store keeps it: ``180+2``, ``3d``, or empty."""
        if self.days:
            return f"{self.days}d"
        return f"{self.base}+{self.increment}" if self.base else ""

    @property
    def label(self) -> str:
        """For players: ``3+2`` (minutes + seconds, as on lichess), ``3 days per move``."""
        if self.days:
            return f"{self.days} day{'s' if self.days > 1 else ''} per move"
        if not self.base:
            return "no clock"
        minutes = self.base / 60
        return (
            f"{minutes:g}+{self.increment}" if minutes >= 1 else f"{self.base} s+{self.increment}"
        )

    @property
    def allowance(self) -> float:
        """Seconds a seat starts with: the days of one move, or the real-time base."""
        return self.days * DAY if self.days else float(self.base)

    @classmethod
    def from_text(cls, text: str) -> TimeControl:
        """The control as ``text`` writes it (ValueError for anything else)."""
        if not text:
            return cls()
        found = _TEXT.fullmatch(text)
        if found is None:
            raise ValueError(f"bad time control {text!r}")
        base, increment, days = found.groups()
        if days is not None:
            return cls(days=int(days))
        return cls(int(base), int(increment))


def time_control(data: object) -> TimeControl:
    """The ``clock`` of a create request (400 with the reason for anything else).

    ``null`` or absent: no clock; ``{"base": S, "increment": S}``: a real-time clock in
    seconds; ``{"days": N}``: N days per move.
    """
    if data is None:
        return TimeControl()
    shape = '\'clock\' must be null, {"base": seconds, "increment": seconds} or {"days": days}'
    if not isinstance(data, dict) or not data or not set(data) <= {"base", "increment", "days"}:
        raise ApiError(400, shape)
    if "days" in data:
        if len(data) > 1:
            raise ApiError(400, shape)
        return TimeControl(days=_whole(data, "days", 1, MAX_DAYS))
    base = _whole(data, "base", 1, MAX_BASE_SECONDS)
    increment = _whole(data, "increment", 0, MAX_INCREMENT_SECONDS) if "increment" in data else 0
    return TimeControl(base, increment)


def _whole(data: dict[str, object], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(400, f"the clock's '{key}' must be a whole number from {low} to {high}")
    return value


def moment(stamp: str) -> datetime:
    """A time in the store's format as a datetime."""
    return datetime.fromisoformat(stamp)


class Clocks:
    """Every seat's remaining time and whose clock runs since when, replayed from events.

    ``remaining[seat]`` is the time left at the start of the current turn; ``running`` is the
    seat whose time runs now (None when the game is over or the turn is not timed) and
    ``since`` when its turn began.
    """

    def __init__(self, control: TimeControl, seats: int, created: str) -> None:
        self.control = control
        self.remaining = [control.allowance] * seats
        self.running: int | None = None
        self.since = moment(created)

    def turn_begins(self, seat: int | None, timed: bool, at: datetime) -> None:
        """A new turn of ``seat`` (None: the game is over) begins at ``at``; ``timed`` says
        whether its clock runs."""
        self.since = at
        self.running = seat if timed and seat is not None else None
        if self.running is not None and self.control.days:
            self.remaining[self.running] = self.control.allowance

    def turn_ends(self, at: datetime, moved: bool) -> None:
        """The running turn ends at ``at``: its seat is charged, and if it ``moved`` (a
        whole turn, not a takeback or an end) a real-time clock adds the increment."""
        seat = self.running
        if seat is None:
            return
        spent = (at - self.since).total_seconds()
        left = max(0.0, self.remaining[seat] - spent)
        if moved and not self.control.days:
            left += self.control.increment
        self.remaining[seat] = left

    def left(self, now: datetime) -> float:
        """Seconds the running seat has left at ``now`` (infinite when no clock runs)."""
        if self.running is None:
            return math.inf
        return self.remaining[self.running] - (now - self.since).total_seconds()

    def deadline(self) -> datetime | None:
        """When the running seat runs out of time, if a clock runs."""
        if self.running is None:
            return None
        return self.since + timedelta(seconds=self.remaining[self.running])

    def bot_budget(self, now: datetime) -> float | None:
        """The most a bot to move may think now, within its clock (None: no limit)."""
        left = self.left(now)
        if math.isinf(left) or self.control.days:
            return None
        share = left / _BOT_SHARE + 0.8 * self.control.increment
        return max(0.05, min(share, left / 2))
