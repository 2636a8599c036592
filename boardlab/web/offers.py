"""Draw offers and takeback requests between the two human players of a match.

A seat offers (``offer`` event), the other seat accepts (a ``draw`` event, or the ``takeback``
that undoes exactly the asker's last turn) or declines (``decline``). An offer waits until it is
answered or anything else happens to the match: a move, a takeback, a resignation or a flag
ends it. A declined offer is not made again by the same seat before the next move. Against a
bot the existing takeback (``POST .../takeback``) applies instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardlab.web.errors import ApiError
from boardlab.web.store import Event

if TYPE_CHECKING:
    from boardlab.web.session import MatchSession

OFFER_KINDS = ("draw", "takeback")
KEEPS_OFFER = ("offer", "rematch")
"""Events after which an offer still waits (every other event ends it)."""


@dataclass(frozen=True)
class Offer:
    """What ``seat`` offers: a ``draw`` or a ``takeback`` of its last turn."""

    kind: str
    seat: int


class Offers:
    """The offer waiting for an answer, and the offers declined since the last move."""

    def __init__(self) -> None:
        self.pending: Offer | None = None
        self.declined: set[Offer] = set()

    def apply(self, event: Event) -> None:
        """Follow an event of the match."""
        if event.kind == "offer":
            self.pending = Offer(event.text, event.seat)
            return
        if event.kind == "decline" and self.pending is not None:
            self.declined.add(self.pending)
        if event.kind in ("turn", "takeback"):
            self.declined.clear()
        if event.kind not in KEEPS_OFFER:
            self.pending = None

    def view(self) -> dict[str, object] | None:
        """The waiting offer as the view shows it."""
        if self.pending is None:
            return None
        return {"kind": self.pending.kind, "seat": self.pending.seat}


def _between_humans(session: MatchSession, held: frozenset[int]) -> None:
    """Refuse (409) unless the match is two human seats and the caller holds only one."""
    if session.over:
        raise ApiError(409, "the game is over")
    seats = session.config.seats
    if len(seats) != 2 or any(seat.kind == "bot" for seat in seats):
        raise ApiError(409, "draw offers and takeback requests are only between two human players")
    if len(held) > 1:
        raise ApiError(409, "you hold both seats: there is nobody to ask")


def offer_kind(value: object) -> str:
    """The ``kind`` field of an offer or an answer (400 otherwise)."""
    if value not in OFFER_KINDS:
        raise ApiError(400, "'kind' must be draw or takeback")
    return str(value)


def check_offer(session: MatchSession, seat: int, held: frozenset[int], kind: str) -> Event:
    """The event of ``seat`` offering ``kind``, or an ApiError saying why not."""
    _between_humans(session, held)
    offers = session.offers
    if offers.pending is not None:
        raise ApiError(409, "an offer is already waiting for an answer")
    if Offer(kind, seat) in offers.declined:
        raise ApiError(409, f"your {kind} offer was declined; you may ask again after a move")
    if kind == "takeback":
        if not any(turn.seat == seat for turn in session.turns):
            raise ApiError(409, f"{session.names[seat]} has no turn to take back")
        if session.turns[-1].seat != seat:
            raise ApiError(
                409, "only your last turn can be taken back, and the other side has moved since"
            )
        session.check_no_reveal_since(len(session.turns) - 1)
    return Event("offer", seat, kind)


def allowed_offers(session: MatchSession, held: frozenset[int]) -> list[str]:
    """The kinds of offer the holder of ``held`` may make now (what ``check_offer`` accepts),
    so the page shows only the buttons the server would not refuse."""
    if len(held) != 1:
        return []
    (seat,) = held
    allowed = []
    for kind in OFFER_KINDS:
        try:
            check_offer(session, seat, held, kind)
        except ApiError:
            continue
        allowed.append(kind)
    return allowed


def check_answer(
    session: MatchSession, seat: int, held: frozenset[int], kind: str, ply: int, accept: bool
) -> Event:
    """The event of ``seat`` accepting or declining the waiting ``kind`` offer, made when
    ``ply`` turns were played."""
    pending = session.offers.pending
    if not session.over and pending is not None and pending.seat in held:
        raise ApiError(409, "you cannot answer your own offer")
    _between_humans(session, held)
    if ply != session.ply:
        raise ApiError(
            409, f"the position has changed (you sent ply {ply}, it is {session.ply}); reload it"
        )
    if pending is None or pending.kind != kind or pending.seat == seat:
        raise ApiError(409, f"there is no {kind} offer to answer")
    if not accept:
        return Event("decline", seat, kind)
    if kind == "draw":
        return Event("draw", seat, "")
    # The offer ends with any move, so the asker's turn is still the last one.
    session.check_no_reveal_since(len(session.turns) - 1)
    return Event("takeback", pending.seat, str(len(session.turns) - 1))
