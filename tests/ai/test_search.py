"""The compiled alpha-beta: the minimax value of a plain search, forced wins, budgets, seeds.

Every game with a compiled evaluation (``boardlab.games.<game>.kernel_eval``) is checked; the
others are skipped until they have one (their bots search with the reference engine).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.ai import Bot, make_bot
from boardlab.ai.alphabeta import AlphaBetaBot
from boardlab.core.engine import KernelArray
from boardlab.core.game import Game
from boardlab.core.registry import game_ids
from boardlab.core.state import State

pytest.importorskip("numba")

from boardlab.ai.search import WIN, CompiledSearch, compiled_search
from boardlab.core.engine import kernel_evaluation
from tests.ai.test_mcts_compiled import _cycled


def _minimax(state: State, depth: int, root: int, ply: int) -> float:
    """The plain minimax value from ``root``'s view: no table, no pruning, no ordering."""
    if state.is_terminal():
        reward = state.returns()[root]
        return reward * (WIN - ply) if reward else 0.0
    if depth == 0:
        return state.heuristic(root)
    values = [_minimax(state.child(a), depth - 1, root, ply + 1) for a in state.legal_actions()]
    return max(values) if state.current_player == root else min(values)


def _kernel_minimax(
    search: CompiledSearch, s: KernelArray, depth: int, root: int, ply: int
) -> float:
    """The plain minimax value over the kernel's functions (called from Python, one by one)."""
    kernel = search.kernel
    p = kernel.params
    if kernel.is_over(p, s):
        rewards = np.zeros(kernel.game.num_players)
        kernel.returns(p, s, rewards)
        return float(rewards[root]) * (WIN - ply)
    if depth == 0:
        return float(search.evaluate(p, s, root))
    moves = np.empty(kernel.max_legal, dtype=np.int64)
    values = []
    for action in moves[: kernel.legal(p, s, moves)]:
        child = s.copy()
        kernel.apply(p, child, action)
        values.append(_kernel_minimax(search, child, depth - 1, root, ply + 1))
    return max(values) if kernel.player(p, s) == root else min(values)


def _random_positions(game: Game, seed: int, count: int) -> list[State]:
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            positions.append(state)
    return positions


def _bot(spec: str, game: Game, seed: int = 1) -> Bot:
    bot = make_bot(spec, game, seed)
    assert bot is not None
    return bot


SETUPS = [(game_id, 2) for game_id in game_ids()] + [
    ("colosseum-offcuts", 3),
    ("colosseum-offcuts", 5),
]


@pytest.mark.parametrize(("game_id", "seats"), SETUPS)
def test_the_value_is_the_plain_minimax_value(game_id: str, seats: int) -> None:
    """At depths 1 and 2 the table and ordering change the work, not the value (the paranoid
    search with more seats: the rivals all minimise the root player's value)."""
    game = boardlab.make(game_id, **({"players": seats} if seats > 2 else {}))
    if kernel_evaluation(game) is None:
        pytest.skip(f"{game_id} has no compiled evaluation")
    search = compiled_search(game)
    assert search is not None
    for state in _random_positions(game, 5, 12):
        moves = state.legal_actions()
        root = state.current_player
        for depth in (1, 2):
            search.clear()
            result = search.run(
                search.kernel.encode(state), moves, [0.0] * len(moves), depth, None, None
            )
            expected = max(_minimax(state.child(a), depth - 1, root, 1) for a in moves)
            assert result.value == pytest.approx(expected, abs=1e-9), (state.position_text(), depth)


# Positions where a null window fails high and only the search again gives the exact value
# (without it the value found at the depth given differs from the plain minimax value).
FAIL_HIGH = {
    "3G2G1/gG1g2G1/1gg2grg/g5R1/grr2r1r/1rr3r1/1RR1R3 R 14": 4,
    "1g2gg2/1G1Gg2g/G1G1gr1g/g3rr2/r5Rr/r2rrrrr/2Rr4 G 25": 5,
}


def test_deeper_values_are_the_plain_minimax_values() -> None:
    """At depths 3 to 5 null windows fail high and are searched again: the values stay exact
    (the plain search runs on the kernel here, whose rules and evaluation equal the reference's)."""
    game = boardlab.make("murus-gallicus")
    search = compiled_search(game)
    assert search is not None
    cases = [(state, depth) for state in _random_positions(game, 13, 4) for depth in (3, 4)]
    cases += [(game.state_from_text(text), depth) for text, depth in FAIL_HIGH.items()]
    for state, depth in cases:
        s = search.kernel.encode(state)
        moves = state.legal_actions()
        search.clear()
        result = search.run(s, moves, [0.0] * len(moves), depth, None, None)
        expected = _kernel_minimax(search, s, depth, state.current_player, 0)
        assert result.value == pytest.approx(expected, abs=1e-9), (state.position_text(), depth)


def test_the_reference_engine_has_the_same_value() -> None:
    game = boardlab.make("murus-gallicus")
    for state in _random_positions(game, 9, 8):
        root = state.current_player
        for depth in (2, 3):
            bot = _bot(f"alphabeta:depth={depth},compiled=false", game)
            bot.choose(state)
            assert bot.stats()["compiled"] == 0.0
            expected = max(
                _minimax(state.child(a), depth - 1, root, 1) for a in state.legal_actions()
            )
            assert bot.stats()["value"] == pytest.approx(expected, abs=1e-9)


# Murus Gallicus positions where exactly one move forces a win two decisions later (and none
# wins at once); found by a random walk, each checked by brute force below.
FORCED_WINS = {
    "3g3g/2G1g1gG/2g1g1g1/1grG2rr/rr1rg1r1/1r1R3r/4rrrr G 35": "d4-f2",
    "1g4G1/gg4G1/1gr1Gg1g/G1rr1rg1/grrrrrr1/2rrr1R1/5r2 G 25": "a4-a2",
    "2g2gg1/4g1g1/gggG1rg1/rggG1r2/rrrg3r/2r1RRr1/r3r1r1 G 27": "d4-d2",
}


def _wins_at_once(state: State, action: int, player: int) -> bool:
    child = state.child(action)
    return child.is_terminal() and child.returns()[player] > 0


def _forces_a_win(state: State, action: int, player: int) -> bool:
    """After ``action`` every reply lets ``player`` win at once (or the game is won)."""
    child = state.child(action)
    if child.is_terminal():
        return child.returns()[player] > 0
    for reply in child.legal_actions():
        after = child.child(reply)
        if after.is_terminal() or not any(
            _wins_at_once(after, a, player) for a in after.legal_actions()
        ):
            return False
    return True


@pytest.mark.parametrize("text", sorted(FORCED_WINS))
@pytest.mark.parametrize("spec", ["alphabeta:depth=3", "alphabeta:nodes=20000,noise=0.3"])
def test_finds_the_forced_win(text: str, spec: str) -> None:
    game = boardlab.make("murus-gallicus")
    state = game.state_from_text(text)
    player = state.current_player
    actions = state.legal_actions()
    assert not any(_wins_at_once(state, a, player) for a in actions)
    forcing = [a for a in actions if _forces_a_win(state, a, player)]
    assert [state.action_to_str(a) for a in forcing] == [FORCED_WINS[text]]
    for seed in (1, 2, 3):
        bot = _bot(spec, game, seed)
        assert bot.choose(state) == forcing[0]
        assert bot.stats()["compiled"] == 1.0
        assert bot.stats()["value"] == WIN - 3  # the win comes on the third decision


@pytest.mark.parametrize("text", sorted(FORCED_WINS))
def test_the_loser_delays_the_loss(text: str) -> None:
    """After the forcing move every reply loses; the search says so, from the loser's view."""
    game = boardlab.make("murus-gallicus")
    state = game.state_from_text(text)
    state.play(FORCED_WINS[text])
    bot = _bot("alphabeta:depth=4", game)
    assert bot.choose(state) in state.legal_actions()
    assert bot.stats()["value"] == -(WIN - 2)


def test_a_node_cap_stops_the_search_and_repeats_for_a_seed() -> None:
    game = boardlab.make("murus-gallicus")
    state = game.new_initial_state()
    uncapped = _bot("alphabeta:depth=5", game)
    uncapped.choose(state)
    assert uncapped.stats()["nodes"] > 3000
    plays = []
    for _ in range(2):
        bot = _bot("alphabeta:nodes=3000,noise=0.2", game, seed=7)
        probe = state.clone()
        moves = []
        for _ in range(8):
            action = bot.choose(probe)
            assert bot.stats()["nodes"] <= 3000
            moves.append(action)
            probe.apply_action(action)
        plays.append(moves)
    assert plays[0] == plays[1]
    # Another seed jitters the root differently: the games part somewhere.
    other = _bot("alphabeta:nodes=3000,noise=0.2", game, seed=8)
    probe = state.clone()
    moves = []
    for _ in range(8):
        moves.append(other.choose(probe))
        probe.apply_action(moves[-1])
    assert moves != plays[0]


def test_depth_grows_with_the_node_budget() -> None:
    game = boardlab.make("murus-gallicus")
    state = _random_positions(game, 3, 1)[0]
    depths = []
    for nodes in (300, 30_000, 1_000_000):
        bot = _bot(f"alphabeta:nodes={nodes}", game)
        bot.choose(state)
        depths.append(bot.stats()["depth"])
    assert depths[0] < depths[1] < depths[2]


def test_the_reference_engine_serves_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    game = boardlab.make("murus-gallicus")
    text = sorted(FORCED_WINS)[0]
    state = game.state_from_text(text)
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    bot = _bot("alphabeta:depth=3", game)
    assert bot.choose(state) == state.parse_action(FORCED_WINS[text])
    assert bot.stats()["compiled"] == 0.0


@pytest.mark.parametrize("plies", [120, 108])
def test_a_long_history_is_searched_on_the_kernel(plies: int) -> None:
    """120 plies: past what the kernel's state once held; 108: past it during the search. The
    kernel holds every legal game now: the compiled search plays, with no engine in its place."""
    state = _cycled(plies)
    bot = _bot("alphabeta:depth=6", state.game)
    assert bot.choose(state) in state.legal_actions()
    assert bot.stats()["compiled"] == 1.0


def test_root_jitter_picks_the_best_value_plus_jitter() -> None:
    """The root's noise shifts each root move's window: the choice is the true argmax of
    value + jitter, in both engines, and the value reported is the chosen move's own."""
    game = boardlab.make("murus-gallicus")
    search = compiled_search(game)
    assert search is not None
    rng = random.Random(4)
    for state in _random_positions(game, 17, 10):
        moves = state.legal_actions()
        root = state.current_player
        values = [_minimax(state.child(a), 1, root, 1) for a in moves]
        jitter = [rng.uniform(-0.3, 0.3) for _ in moves]
        scores = [v + j for v, j in zip(values, jitter, strict=True)]
        top = max(range(len(moves)), key=scores.__getitem__)
        search.clear()
        result = search.run(search.kernel.encode(state), moves, jitter, 2, None, None)
        assert result.best == moves[top]
        assert result.value == pytest.approx(values[top], abs=1e-9)
        bot = AlphaBetaBot(depth=2, compiled=False)
        bot._root_player = root
        assert bot._choose_reference(state, moves, jitter, True) == moves[top]
        assert bot.stats()["value"] == pytest.approx(values[top], abs=1e-9)


@pytest.mark.parametrize("spec", ["alphabeta:nodes=40000", "alphabeta:depth=4,compiled=false"])
def test_an_announced_win_comes_closer(spec: str) -> None:
    """The tables persist between decisions and store wins relative to their node: once a bot
    sees a forced win in k decisions, two decisions later it sees one in at most k - 2, and it
    wins within the k decisions it announced."""
    game = boardlab.make("murus-gallicus")
    announced = 0
    for seed in range(6):
        bots = [_bot(spec, game, seed), _bot(spec, game, seed + 100)]
        state = game.new_initial_state()
        last: list[float | None] = [None, None]
        deadline: list[int | None] = [None, None]  # the ply by which a seat said it wins
        while not state.is_terminal():
            seat = state.current_player
            action = bots[seat].choose(state)
            value = bots[seat].stats().get("value")
            before = last[seat]
            if value is not None and before is not None and before > WIN / 2:
                announced += 1
                assert value >= before + 2, state.position_text()
            if value is not None and value > WIN / 2 and deadline[seat] is None:
                deadline[seat] = state.ply + round(WIN - value)
            last[seat] = value
            state.apply_action(action)
        for seat, ply in enumerate(deadline):
            if ply is not None:
                assert state.returns()[seat] > 0
                assert state.ply <= ply
    assert announced >= 3
