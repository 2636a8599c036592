"""The greedy bot on the compiled engine makes the reference greedy bot's decisions.

Both score the same candidates in the same shuffled order with the same random draws, and the
compiled evaluation equals the reference heuristic, so for a seed the choices are the same:
checked at every decision of seeded games (each seat a greedy bot, with and without noise), for
every game with a compiled evaluation and Colosseum Offcuts at every seat count; and the
scores themselves, those of finished games included, at every position of seeded random games;
and without Numba the bot still plays, on the reference, the same move.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

pytest.importorskip("numba")

from boardlab.ai.greedy import GreedyBot, compiled_scorer, reference_scores
from boardlab.core.engine import ENGINE_VARIABLE
from boardlab.core.registry import game_ids, make

CASES: list[tuple[str, dict[str, object]]] = [
    (game_id, {}) for game_id in game_ids() if game_id != "colosseum-offcuts"
] + [("colosseum-offcuts", {"players": players}) for players in (2, 3, 4, 5)]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=repr)
@pytest.mark.parametrize("noise", [0.0, 0.3])
def test_compiled_and_reference_greedy_choose_alike(
    game_id: str, options: dict[str, object], noise: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make(game_id, **options)
    if compiled_scorer(game) is None:
        pytest.skip(f"{game_id} has no compiled evaluation on this branch")
    seats = range(game.num_players)
    decisions = 0
    # Another game with other seeds while fewer than 20 decisions were compared (a sharp greedy
    # ends a two-seat Colosseum Offcuts game in under 20).
    for first_seed in (10, 20, 30):
        compiled = [GreedyBot(seed=first_seed + seat, noise=noise) for seat in seats]
        reference = [GreedyBot(seed=first_seed + seat, noise=noise) for seat in seats]
        state = game.new_initial_state()
        while not state.is_terminal() and decisions < 120:
            seat = state.current_player
            view = state.view_state(seat)
            chosen = compiled[seat].choose(view)
            with monkeypatch.context() as forced:
                forced.setenv(ENGINE_VARIABLE, "python")
                expected = reference[seat].choose(view)
            assert chosen == expected, f"decision {decisions}: {view.position_text()}"
            state.apply_action(chosen)
            decisions += 1
        if decisions >= 20:
            break
    assert decisions >= 20


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=repr)
def test_compiled_scores_equal_the_reference(game_id: str, options: dict[str, object]) -> None:
    game = make(game_id, **options)
    scorer = compiled_scorer(game)
    if scorer is None:
        pytest.skip(f"{game_id} has no compiled evaluation on this branch")
    # Each game is played to its end, so its last position has children that end it.
    for index in range(2 if game.num_players < 4 else 1):
        rng = random.Random(index)
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            player = state.current_player
            expected = reference_scores(state, actions, player)
            assert scorer(state, actions, player) == pytest.approx(expected, abs=1e-9, rel=0)
            state.apply_action(rng.choice(actions))


def test_without_numba_the_reference_greedy_plays_the_same_moves() -> None:
    """Where ``import numba`` fails (as when it is not installed) the bot does not reach for
    the compiled evaluations; it plays on the reference, and the same moves."""
    script = (
        "import sys; sys.modules['numba'] = None\n"  # makes `import numba` raise ImportError
        "from boardlab.ai.greedy import GreedyBot\n"
        "from boardlab.core.registry import make\n"
        "for game_id in sys.argv[1:]:\n"
        "    state = make(game_id).new_initial_state()\n"
        "    bot = GreedyBot(seed=3)\n"
        "    while not state.is_terminal() and state.ply < 12:\n"
        "        state.apply_action(bot.choose(state.view_state(state.current_player)))\n"
        "    print(state.position_text())\n"
    )
    games = ["carnyx", "colosseum-offcuts"]  # no seeded options: the same game in both processes
    done = subprocess.run(
        [sys.executable, "-c", script, *games], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    expected = []
    for game_id in games:
        state = make(game_id).new_initial_state()
        bot = GreedyBot(seed=3)
        while not state.is_terminal() and state.ply < 12:
            state.apply_action(bot.choose(state.view_state(state.current_player)))
        expected.append(state.position_text())
    assert done.stdout.splitlines() == expected
