"""Who wins Murus Gallicus: every way to win in a built position, no win for stones that stand
on a home row without reaching the enemy's, and who wins uniformly random games, against the
figures of independent engines."""

from __future__ import annotations

import math
import random
from statistics import fmean

import pytest

import boardlab
from boardlab.core.errors import IllegalMoveError
from boardlab.core.outcome import Outcome, Result, Termination
from boardlab.games.murus_gallicus.state import MurusGallicusState

ROMANS_WIN = (Result.WIN, Result.LOSS)
GAULS_WIN = (Result.LOSS, Result.WIN)


def after(text: str, move: str) -> MurusGallicusState:
    """The position ``text`` (8x7 board) after ``move``."""
    position = boardlab.make("murus-gallicus").state_from_text(text)
    assert isinstance(position, MurusGallicusState)
    assert not position.is_terminal()
    position.play(move)
    return position


def ended(position: MurusGallicusState) -> Outcome:
    assert position.outcome is not None, position.position_text()
    assert position.legal_actions() == []
    return position.outcome


@pytest.mark.parametrize(
    ("text", "move", "results"),
    [
        # A tower move's far stone lands on the enemy home row, even with the mover's own
        # walls standing on its own home row and the enemy's walls on theirs.
        ("g6g/8/2R5/8/8/8/r6r R 20", "c5-c7", ROMANS_WIN),
        ("g6g/8/8/8/3G4/8/r6r G 21", "d3-d1", GAULS_WIN),
        # Diagonally too.
        ("8/8/3R4/7G/8/8/8 R 20", "d5-f7", ROMANS_WIN),
        ("8/8/8/8/3G4/8/R7 G 21", "d3-b1", GAULS_WIN),
    ],
)
def test_a_stone_on_the_enemy_home_row_wins_at_once(
    text: str, move: str, results: tuple[Result, Result]
) -> None:
    outcome = ended(after(text, move))
    assert outcome.results == results
    assert outcome.termination is Termination.HOME_ROW


@pytest.mark.parametrize(
    ("text", "move", "results"),
    [
        # The Gauls' last tower, on a2, is walled in by Roman towers (no sacrifice: no Roman
        # wall next to it); the Gauls' walls on their own home row do not count.
        ("g6g/8/3R4/8/Rr6/GR6/8 R 20", "d5-b3", ROMANS_WIN),
        # The same for the Romans' last tower on a6, with Roman walls on row 1.
        ("8/RG6/Gg6/8/3G4/8/r6r G 20", "d3-b5", GAULS_WIN),
        # A sacrifice that leaves the other side without a tower (Test fact 7).
        ("8/8/8/8/4g3/3R4/8 R 10", "d2xe3", ROMANS_WIN),
    ],
)
def test_a_side_left_without_a_legal_action_loses(
    text: str, move: str, results: tuple[Result, Result]
) -> None:
    outcome = ended(after(text, move))
    assert outcome.results == results
    assert outcome.termination is Termination.STALEMATE


@pytest.mark.parametrize(
    ("text", "move"),
    [
        # Roman walls on row 1 and Gaul walls on row 7 are each on their own home row.
        ("g6g/8/8/4G3/8/8/rr2R3 G 9", "e4-e2"),
        ("g6g/8/8/4G3/8/8/rr2R3 R 9", "e1-e3"),
        # A move along a side's own home row leaves walls there, and the game goes on.
        ("G7/8/8/8/8/8/R7 R 9", "a1-c1"),
        ("G7/8/8/8/8/8/R7 G 9", "a7-c7"),
    ],
)
def test_stones_on_their_own_home_row_win_nothing(text: str, move: str) -> None:
    position = after(text, move)
    assert position.outcome is None
    assert position.legal_actions()


# Uniformly random play on the default 8x7 board, measured by independent engines: the Romans win
# 47.3% (+-0.4) of the games, which last 32.6 plies on average; draws are negligible.
ROMAN_SHARE, ROMAN_SHARE_ERROR = 0.473, 0.004
MEAN_PLIES = 32.6
GAMES = 2000
PLY_SPREAD = 8.0  # standard deviation of a game's length (7.9 measured over 3,000 games)
SIGMAS = 4.5  # a correct engine fails at most once in ~150,000 runs, whatever the seed


def test_random_games_are_won_as_independent_engines_find() -> None:
    """2,000 random games (0.4 s). The tolerances are 4.5 standard errors of the sample plus
    the reference's own uncertainty: a share within 0.054 of 47.3% and a mean length within
    0.9 plies of 32.6. A rules change that moves either by more fails; one that gave false
    Gaul wins (reading Roman walls as Gaul stones) makes the Romans win under 5%."""
    game = boardlab.make("murus-gallicus")
    rng = random.Random(2026)
    roman_wins = 0
    lengths = []
    for _ in range(GAMES):
        position = game.new_initial_state()
        while not position.is_terminal():
            position.apply_action(rng.choice(position.legal_actions()))
        assert position.outcome is not None
        roman_wins += position.outcome.winners == (0,)
        lengths.append(position.ply)
    share_tolerance = SIGMAS * math.sqrt(ROMAN_SHARE * (1 - ROMAN_SHARE) / GAMES)
    assert abs(roman_wins / GAMES - ROMAN_SHARE) <= share_tolerance + ROMAN_SHARE_ERROR
    length_tolerance = SIGMAS * PLY_SPREAD / math.sqrt(GAMES) + 0.1
    assert abs(fmean(lengths) - MEAN_PLIES) <= length_tolerance


@pytest.mark.parametrize(
    ("text", "results"),
    [
        ("8/8/8/8/8/8/G6R R 5", GAULS_WIN),  # a Gaul tower on row 1, the Romans to move
        ("8/8/8/8/8/8/g6R R 5", GAULS_WIN),  # a Gaul wall there
        ("6Rr/8/8/8/8/8/8 G 5", ROMANS_WIN),
    ],
)
def test_a_position_with_a_stone_already_on_the_goal_is_won(
    text: str, results: tuple[Result, Result]
) -> None:
    position = boardlab.make("murus-gallicus").state_from_text(text)
    assert isinstance(position, MurusGallicusState)
    assert ended(position).results == results


def test_a_cell_beyond_the_top_row_is_named_as_off_the_board() -> None:
    position = boardlab.make("murus-gallicus").state_from_text("8/8/8/8/8/8/R7 R 5")
    with pytest.raises(IllegalMoveError, match=r"^illegal move 'a8-a6': the board has rows 1 to 7"):
        position.play("a8-a6")
