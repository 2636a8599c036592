"""A playtest's settings: read from a designer's request (web or ``boardlab playtest create``),
checked as strictly as a match's, kept as JSON text, and the rules it plays by: which variant
a new playtester gets (at random among the least played) and how a survey answer is read.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from boardlab.core.registry import game_class, game_ids
from boardlab.web.clock import time_control
from boardlab.web.creation import bot_specs, make_game
from boardlab.web.errors import ApiError

PEOPLE = "people"
"""The opponent of a playtest whose playtesters play each other."""
MAX_VARIANTS = 4
MAX_VARIANT_NAME = 40
MAX_TITLE = 80
MAX_QUESTIONS = 8
MAX_QUESTION_CHARS = 200
MAX_TEXT_CHARS = 2000
"""A survey's free text, at most."""
MAX_DAYS = 366
DEFAULT_DAYS = 30
SCORES = range(1, 6)
DEFAULT_QUESTIONS = (
    "How much fun was the game? (1 = none, 5 = a lot)",
    "How clear were the rules? (1 = confusing, 5 = perfectly clear)",
    "How balanced did it feel between the sides? (1 = one-sided, 5 = even)",
    "How did its length feel? (1 = far too short, 3 = right, 5 = far too long)",
)
"""The survey the issue asks for: fun, clarity of the rules, felt balance, length."""
FIELDS = ("title", "game", "variants", "opponent", "clock", "questions", "show_variant", "ends")
PLAYTEST_ID = re.compile(r"[A-Za-z0-9_-]{16}")


@dataclass(frozen=True)
class Variant:
    """One rule variant: the designer's name for it and the options it sets (as text)."""

    name: str
    options: dict[str, str]


@dataclass(frozen=True)
class Settings:
    """What a designer chose: a title, the game, its variants, the opponent (``people`` or a
    bot spec), the time control as ``TimeControl`` writes it, the survey's questions,
    whether players see which variant they got, and the last day (UTC) new players join."""

    title: str
    game: str
    variants: tuple[Variant, ...]
    opponent: str
    clock: str
    questions: tuple[str, ...]
    show_variant: bool
    ends: str

    def to_text(self) -> str:
        """The settings as the store keeps them (JSON)."""
        return json.dumps(
            {
                "title": self.title,
                "game": self.game,
                "variants": [{"name": v.name, "options": v.options} for v in self.variants],
                "opponent": self.opponent,
                "clock": self.clock,
                "questions": list(self.questions),
                "show_variant": self.show_variant,
                "ends": self.ends,
            }
        )

    @classmethod
    def from_text(cls, text: str) -> Settings:
        """Settings written by :meth:`to_text`."""
        data = json.loads(text)
        return cls(
            data["title"],
            data["game"],
            tuple(Variant(v["name"], dict(v["options"])) for v in data["variants"]),
            data["opponent"],
            data["clock"],
            tuple(data["questions"]),
            bool(data["show_variant"]),
            data["ends"],
        )

    def open_on(self, today: date) -> bool:
        """Whether new playtesters may join on ``today`` (the end date included)."""
        return today <= date.fromisoformat(self.ends)


def label(index: int) -> str:
    """The neutral name players see: Variant A, Variant B, …"""
    return f"Variant {chr(ord('A') + index)}"


def _text(data: dict[str, Any], key: str, limit: int, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ApiError(400, f"'{key}' must be a non-empty text of at most {limit} characters")
    return value.strip()


def _variants(game_id: str, data: object) -> tuple[Variant, ...]:
    if data is None:
        data = [{"name": "As the rules stand", "options": {}}]
    if not isinstance(data, list) or not 1 <= len(data) <= MAX_VARIANTS:
        raise ApiError(400, f"'variants' must list 1 to {MAX_VARIANTS} variants")
    variants, seen = [], set()
    for number, entry in enumerate(data):
        if not isinstance(entry, dict) or not set(entry) <= {"name", "options"}:
            raise ApiError(400, "each variant must be an object with a 'name' and 'options'")
        name = _text(entry, "name", MAX_VARIANT_NAME, label(number))
        options = entry.get("options", {})
        players = options.get("players", 0) if isinstance(options, dict) else 0
        seats = _seats(game_id, players)
        game = make_game(game_id, options, seats)
        given = {key: value for key, value in game.option_items() if key in options}
        if (tuple(sorted(given.items())), game.num_players) in seen:
            raise ApiError(400, f"variant {name!r} plays the same rules as another variant")
        seen.add((tuple(sorted(given.items())), game.num_players))
        variants.append(Variant(name, given))
    return tuple(variants)


def _seats(game_id: str, players: object) -> int:
    """The seats of a variant: its ``players`` option where the game has one, else the
    game's own count."""
    if isinstance(players, int | str) and str(players).isdigit() and 2 <= int(players) <= 5:
        return int(players)
    return game_class(game_id)().num_players


def read_settings(body: dict[str, Any], today: date) -> Settings:
    """A designer's request as :class:`Settings` (400 naming what is wrong)."""
    game_id = body.get("game")
    if not isinstance(game_id, str) or game_id not in game_ids():
        raise ApiError(400, f"'game' must be one of: {', '.join(game_ids())}")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}")
    title = _text(body, "title", MAX_TITLE, f"{game_class(game_id)().name} playtest")
    variants = _variants(game_id, body.get("variants"))
    opponent = body.get("opponent", PEOPLE)
    if not isinstance(opponent, str) or (opponent != PEOPLE and opponent not in bot_specs()):
        raise ApiError(400, f"'opponent' must be {PEOPLE} or one of: {', '.join(bot_specs())}")
    clock = time_control(body.get("clock")).text
    questions = body.get("questions", list(DEFAULT_QUESTIONS))
    if not isinstance(questions, list) or not 1 <= len(questions) <= MAX_QUESTIONS:
        raise ApiError(400, f"'questions' must list 1 to {MAX_QUESTIONS} questions")
    for question in questions:
        if not isinstance(question, str) or not question.strip():
            raise ApiError(400, "each question must be a non-empty text")
        if len(question) > MAX_QUESTION_CHARS:
            raise ApiError(400, f"a question has at most {MAX_QUESTION_CHARS} characters")
    show = body.get("show_variant", True)
    if not isinstance(show, bool):
        raise ApiError(400, "'show_variant' must be true or false")
    return Settings(
        title,
        game_id,
        variants,
        opponent,
        clock,
        tuple(q.strip() for q in questions),
        show,
        _end_date(body.get("ends"), today),
    )


def _end_date(value: object, today: date) -> str:
    if value is None:
        return (today + timedelta(days=DEFAULT_DAYS)).isoformat()
    try:
        ends = date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        ends = None
    if ends is None or not today <= ends <= today + timedelta(days=MAX_DAYS):
        raise ApiError(
            400, f"'ends' must be a date (YYYY-MM-DD) from today to {MAX_DAYS} days from now"
        )
    return ends.isoformat()


def utc_today() -> date:
    """Today's date in UTC (a playtest ends at the end of its last day, UTC)."""
    return datetime.now(UTC).date()


def choose_variant(played: list[int], variants: int, rng: random.Random) -> int:
    """The variant of a new match: at random among those with the fewest matches so far
    (``played`` holds the variant of every match), so the counts never differ by more than
    one while every playtester finishes."""
    counts = [played.count(variant) for variant in range(variants)]
    fewest = min(counts)
    return rng.choice([variant for variant, count in enumerate(counts) if count == fewest])


def read_answer(body: dict[str, Any], questions: int) -> tuple[list[int | None], str]:
    """A survey answer: one score 1-5 (or null: skipped) per question, and the free text."""
    scores = body.get("scores")
    if not isinstance(scores, list) or len(scores) != questions:
        raise ApiError(400, f"'scores' must list {questions} answers (each 1 to 5, or null)")
    for score in scores:
        if score is not None and (
            not isinstance(score, int) or isinstance(score, bool) or score not in SCORES
        ):
            raise ApiError(400, "each score must be a whole number from 1 to 5, or null")
    text = body.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_TEXT_CHARS:
        raise ApiError(400, f"'text' must be a text of at most {MAX_TEXT_CHARS} characters")
    if all(score is None for score in scores) and not text.strip():
        raise ApiError(400, "the survey is empty: give at least one score or a comment")
    return scores, text.strip()
