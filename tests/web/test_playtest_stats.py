"""The playtest's evidence as pure functions, on hand-made games and answers: variants drawn
evenly, outcomes by seat, survey spreads and means within the scale, the notes where people and
bots disagree, and the variants compared with one Benjamini-Hochberg family."""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys

import pytest

from boardlab.analysis.stats import adjust
from boardlab.cli.serve import cmd_serve
from boardlab.core.errors import BoardlabError
from boardlab.web.playtest import choose_variant
from boardlab.web.playtest_games import Decision, Game
from boardlab.web.playtest_stats import (
    bot_summary,
    compare_variants,
    disagreements,
    people_summary,
    survey_summary,
)

SEATS = ("Dark", "Light")


def games(first_wins: int, second_wins: int, draws: int = 0, plies: int = 30) -> list[Game]:
    results = [("win", "loss")] * first_wins + [("loss", "win")] * second_wins
    results += [("draw", "draw")] * draws
    return [
        Game(f"{n:016d}", 0, SEATS, (0, 1), "finished", r, "all_captured", plies + n % 3)
        for n, r in enumerate(results)
    ]


@pytest.mark.parametrize("variants", [2, 3, 4])
def test_variants_are_drawn_at_random_among_the_least_played(variants: int) -> None:
    rng = random.Random(variants)
    played: list[int] = []
    for _ in range(41):
        played.append(choose_variant(played, variants, rng))
        counts = [played.count(v) for v in range(variants)]
        assert max(counts) - min(counts) <= 1
    firsts = {choose_variant([], variants, random.Random(seed)) for seed in range(40)}
    assert firsts == set(range(variants))  # at random, not always the first


def test_outcomes_by_seat_lengths_endings_status_and_time() -> None:
    found = games(6, 2, draws=2)
    found[0].decisions = [Decision(1, 3, "c1-c3", 40.0), Decision(0, 4, None, 5.0)]
    found[1].refused = [(0, "zz", "malformed"), (1, "zz", "malformed"), (1, "a9", "illegal")]
    found.append(Game("w" * 16, 0, SEATS, (0, 1), "waiting"))
    summary = people_summary(found, SEATS)
    assert (summary["games"], summary["decided"]) == (10, 8)
    dark, light = summary["seats"]
    assert (dark["wins"], light["wins"]) == (6, 2)
    assert dark["decided_share"]["value"] == 0.75 and dark["edge"]["value"] == 1.5
    assert 0.4 < dark["decided_share"]["low"] < 0.75 < dark["decided_share"]["high"] < 1
    assert summary["draws"]["value"] == 0.2
    assert summary["endings"] == {"all captured": 10}
    assert summary["status"] == {"finished": 10, "waiting": 1}
    assert summary["time"]["longest"][0] == {
        "match": found[0].match_id,
        "seat": "Light",
        "ply": 3,
        "turn": "c1-c3",
        "seconds": 40.0,
    }
    assert summary["time"]["longest"][1]["turn"] is None  # hidden from onlookers
    assert summary["refused"]["count"] == 3
    assert summary["refused"]["reasons"][0] == {"reason": "malformed", "count": 2}
    assert summary["refused"]["typed"][0] == {"turn": "zz", "count": 2}


def test_a_survey_counts_each_score_and_keeps_its_mean_on_the_scale() -> None:
    survey = survey_summary(["fun?", "clear?"], [[5, None], [5, 1], [4, 1]], ["", "<b>x</b>"])
    fun, clear = survey["questions"]
    assert fun["spread"] == [0, 0, 0, 1, 2] and fun["answers"] == 3
    assert clear["spread"] == [2, 0, 0, 0, 0] and clear["mean"]["value"] == 1.0
    assert 1.0 <= fun["mean"]["low"] <= fun["mean"]["value"] <= fun["mean"]["high"] <= 5.0
    assert fun["mean"]["high"] == 5.0  # the t interval reaches past 5: clamped
    assert survey["texts"] == ["<b>x</b>"]


def test_people_and_bots_disagreeing_on_the_first_seat_is_said_in_words() -> None:
    people = people_summary(games(19, 1), SEATS)
    bots = bot_summary([(g.results, g.termination, g.plies) for g in games(10, 10)], SEATS)
    (note,) = disagreements(people, bots, SEATS)
    assert note.startswith("People find the first seat (Dark) stronger than bots do: it won 95%")
    assert note.endswith(": a real difference.")
    close = people_summary(games(6, 4), SEATS)
    hint = disagreements(close, bots, SEATS)[0]
    assert "this is a hint, not yet a real difference" in hint


def test_variants_are_compared_as_one_corrected_family() -> None:
    base, other = (
        people_summary(games(10, 10), SEATS),
        people_summary(games(18, 2, plies=80), SEATS),
    )
    questions = ["fun?"]
    scores = [[[2], [2], [3], [2]], [[5], [4], [5], [5]]]
    surveys = [survey_summary(questions, s, []) for s in scores]
    compared = compare_variants([base, other], surveys, scores, ["Variant A", "Variant B"])
    rows = {row["metric"]: row for row in compared["rows"]}
    assert set(rows) == {
        "first seat's edge (share of decided games ÷ fair share)",
        "games with no single winner",
        "length (turns)",
        "survey: fun?",
    }
    raw = [row["p"] for row in compared["rows"]]
    assert [row["p_adjusted"] for row in compared["rows"]] == [round(p, 6) for p in adjust(raw)]
    edge = rows["first seat's edge (share of decided games ÷ fair share)"]
    assert edge["diff"] == pytest.approx(0.8) and edge["verdict"].startswith("a real difference")
    assert rows["length (turns)"]["diff"] == pytest.approx(50.0)
    assert (
        rows["games with no single winner"]["verdict"] == "not enough games or answers to compare"
        or rows["games with no single winner"]["p_adjusted"] >= 0.05
    )
    assert compared["power"].startswith("With 20 games a seat's edge must exceed about")


def test_the_web_app_starts_without_loading_scipy_or_matplotlib() -> None:
    """The playtest statistics and plots (seconds to import under load) are loaded when a
    dashboard is first asked for, not by every server start."""
    code = (
        "import sys, boardlab.web.app; "
        "print(sorted(m for m in ('scipy', 'matplotlib') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_server_without_scipy_refuses_to_start_with_one_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loaded only when a dashboard is asked for, the statistics' absence is still found at
    start: the server refuses to start and names the extra."""
    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "scipy" else found(name, *a)
    )
    with pytest.raises(BoardlabError, match=r"needs the 'web' extra \(scipy is missing\)"):
        cmd_serve(argparse.Namespace())
