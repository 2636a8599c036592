"""Human ratings (issue 41): OpenSkill's Plackett-Luce model, per account, game and speed.

A rated match (chosen at creation: ``boardlab.web.creation``) changes its players' ratings
once, when it ends with a result; an aborted match changes nothing. Its seats are ranked by
their results: the winners share the first place, every other seat the next one, and a draw
is a first place shared by all (OpenSkill's ties). With Colosseum Offcuts' 3 to 5 seats the
same holds: the seats that left or lost share the place after the winners.

The speed comes from the clock: a real-time clock (minutes + seconds) is ``realtime``; days
per move, or no clock at all, is ``correspondence``. Players read a rating on a scale like
Glicko's: ``1500 + 40 (mu - 25)`` points, with its uncertainty as ``± 2 sigma`` on that scale
(a new player is ``1500 ± 667``, as a Glicko player's ``1500 ± 2 RD`` is ``1500 ± 700``). A
rating is provisional (a ``?`` after it) until :data:`PROVISIONAL_GAMES` rated games are behind
it. The bots' level ratings (Davidson-Luce fits of bot tournaments, ``docs/bots.md``) are on
another scale and never shown beside these.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from boardlab.core.outcome import Outcome, Result
from boardlab.web.player_ratings_store import Skill, Speed
from boardlab.web.session import MatchSession
from boardlab.web.store import Store

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3)."""
START = Skill(MODEL.mu, MODEL.sigma, 0)
"""The rating of a player's first rated game in a game and speed."""
PROVISIONAL_GAMES = 10
"""A rating is provisional until this many rated games are behind it."""
SHOWN_SIGMAS = 2
"""A rating's uncertainty is shown as ``± SHOWN_SIGMAS`` sigma."""
CENTRE, POINTS_PER_MU = 1500, 40
"""The scale players read: ``CENTRE`` points at OpenSkill's starting mu, ``POINTS_PER_MU`` for
each unit of mu."""


def speed_of(clock: str) -> Speed:
    """The speed of a match's time control as the store keeps it (``180+2``, ``3d``, empty)."""
    return "realtime" if clock and not clock.endswith("d") else "correspondence"


def places(outcome: Outcome) -> list[int]:
    """Each seat's place (1 is best, equal places tie): winners and drawers first, the rest
    next."""
    return [2 if result is Result.LOSS else 1 for result in outcome.results]


def updated(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The players' skills after a match in which they took ``ranks`` (one team per seat)."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [
        Skill(team[0].mu, team[0].sigma, skill.games + 1)
        for team, skill in zip(after, before, strict=True)
    ]


def provisional(skill: Skill) -> bool:
    """Whether too few rated games are behind ``skill`` to trust it."""
    return skill.games < PROVISIONAL_GAMES


def points(skill: Skill) -> int:
    """The rating on the players' scale (:data:`CENTRE`, :data:`POINTS_PER_MU`)."""
    return round(CENTRE + POINTS_PER_MU * (skill.mu - MODEL.mu))


def interval(skill: Skill) -> int:
    """The rating's uncertainty on the players' scale: ``SHOWN_SIGMAS`` sigma."""
    return round(SHOWN_SIGMAS * POINTS_PER_MU * skill.sigma)


def shown(skill: Skill) -> str:
    """A rating as players read it: ``1605 ± 645``, with ``?`` while provisional."""
    text = f"{points(skill)} ± {interval(skill)}"
    return f"{text}?" if provisional(skill) else text


def rated_accounts(store: Store, session: MatchSession) -> list[str] | None:
    """The accounts of a rated match's seats in seat order, or None if the match is casual or
    a seat is not held by an account of its own (then it is not rated)."""
    if not session.config.rated:
        return None
    holders = store.seat_accounts(session.id)
    accounts = [holders.get(seat) for seat in range(len(session.config.seats))]
    if any(account is None for account in accounts) or len(set(accounts)) != len(accounts):
        return None
    return [account for account in accounts if account is not None]


def rate(store: Store, session: MatchSession, at: str) -> bool:
    """Rate the match if it is rated and ended with a result (once: False if it was rated
    already, is casual, or has no result)."""
    outcome = session.outcome
    if session.aborted or outcome is None:
        return False
    accounts = rated_accounts(store, session)
    if accounts is None:
        return False
    ranks = places(outcome)
    return store.rate_match(
        session.id,
        session.config.game,
        speed_of(session.config.clock),
        at,
        accounts,
        lambda before: updated(before, ranks),
        START,
    )
