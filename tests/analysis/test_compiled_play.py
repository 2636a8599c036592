"""The lab, tournaments and matches give the same output on the compiled engine as on the
reference (issue 20: the ``fast`` extra makes them faster with identical results)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from boardlab.ai import make_bot
from boardlab.ai.random_bot import RandomBot
from boardlab.analysis.compiled import CompiledGame, Decisions, EngineMismatch, play_compiled
from boardlab.cli.main import main
from boardlab.core.engine import ENGINE_VARIABLE, kernel_for
from boardlab.core.game import Game
from boardlab.core.registry import make

pytest.importorskip("numba")

GAMES = ["carnyx", "murus-gallicus", "colosseum-offcuts", "anacund", "cyvasse"]
ON_KERNEL = [game for game in GAMES if game != "cyvasse"]
"""The games whose random self-play is on the kernel from the first decision; Cyvasse's bots
deploy by whole-army presets read from reference states, and its games go to the kernel once
the deployment is over."""
SMALL = {"colosseum-offcuts": ["--option", "no_capture_rounds=4"]}
"""Options that keep a game's random self-play short enough for a test."""
DATE = re.compile(r"^Date: .*$", re.MULTILINE)


def _seeded(game_id: str, seed: int, **options: object) -> Game:
    keys = make(game_id).options
    return make(game_id, **({"seed": seed} if "seed" in keys else {}), **options)


def _reference_decisions(game: Game, seeds: list[int]) -> list[int]:
    bots = [RandomBot(seed) for seed in seeds]
    state = game.new_initial_state()
    decisions = []
    while not state.is_terminal():
        seat = state.current_player
        action = bots[seat].choose(state.view_state(seat))
        decisions.append(action)
        state.apply_action(action)
    return decisions


@pytest.mark.parametrize("game_id", ON_KERNEL)
def test_the_random_bot_on_the_kernel_chooses_as_on_the_reference(game_id: str) -> None:
    for seed in range(4):
        game = _seeded(game_id, seed)
        seeds = [seed * 10 + seat for seat in range(game.num_players)]
        planned = play_compiled(
            game, game.new_initial_state(), [RandomBot(s) for s in seeds], False
        )
        assert isinstance(planned, CompiledGame), "the game must run on its kernel"
        assert planned.actions == _reference_decisions(game, seeds)
        assert planned.evals is None


@pytest.mark.parametrize("game_id", ["murus-gallicus", "anacund"])
def test_bots_that_drew_before_or_have_no_seed_choose_as_on_the_reference(game_id: str) -> None:
    """The kernel copies a used generator's whole state (a fresh one it seeds itself)."""
    game = _seeded(game_id, 7)
    for seeds in ([2**32 + 5, 3], [11, 12]):
        bots, twins = [RandomBot(s) for s in seeds], [RandomBot(s) for s in seeds]
        for bot, twin in zip(bots, twins, strict=True):
            for _ in range(seeds[1]):  # draws that move the generators on
                assert bot.choose_among([1, 2, 3]) == twin.choose_among([3, 1, 2])
        planned = play_compiled(game, game.new_initial_state(), bots, False)
        assert planned is not None
        state = game.new_initial_state()
        for action in planned.actions:
            seat = state.current_player
            assert twins[seat].choose(state.view_state(seat)) == action
            state.apply_action(action)
        assert state.is_terminal()


def test_a_game_with_other_bots_or_presets_stays_on_the_reference() -> None:
    game = make("murus-gallicus")
    greedy = make_bot("greedy", game, 2)
    assert greedy is not None
    bots = [RandomBot(1), greedy]
    assert play_compiled(game, game.new_initial_state(), bots, False) is None
    cyvasse = _seeded("cyvasse", 1)
    start = cyvasse.new_initial_state()
    assert play_compiled(cyvasse, start, [RandomBot(1), RandomBot(2)], False) is None


def test_cyvasse_goes_to_the_kernel_after_the_deployment_and_chooses_as_the_reference() -> None:
    for seed in range(3):
        game = _seeded("cyvasse", seed)
        seeds = [seed + 20, seed + 30]
        bots = [RandomBot(s) for s in seeds]
        source = Decisions(game, bots, False)
        state = game.new_initial_state()
        decisions: list[int] = []
        while not state.is_terminal():
            if source.planned(state, len(decisions)) is None:
                assert state.presets_ahead(), "the kernel takes over once the presets are over"
                action = bots[state.current_player].choose(state.view_state(state.current_player))
            else:
                action = source.action(len(decisions))
            decisions.append(action)
            state.apply_action(action)
        source.check_end(len(decisions))
        assert source.plan is not None and source.offset > 0
        assert decisions == _reference_decisions(game, seeds)


def test_a_replay_that_the_reference_ends_elsewhere_is_an_error() -> None:
    planned = CompiledGame([5, 6], [3, 3], None)
    assert planned.action(1) == 6
    with pytest.raises(EngineMismatch):
        planned.action(2)
    with pytest.raises(EngineMismatch):
        planned.check_end(1)


def _run(argv: list[str], engine: str | None, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> str:
    if engine is None:
        monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(ENGINE_VARIABLE, engine)
    assert main(argv) == 0
    out: str = capsys.readouterr().out
    return out


def _both(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> tuple[tuple[str, Path], tuple[str, Path]]:
    """``argv`` (with ``{out}`` for an output folder) on the compiled engine, then on the
    reference: each run's printed text and its folder."""
    runs = []
    for engine in (None, "python"):
        out = tmp_path / (engine or "compiled")
        args = [arg.replace("{out}", str(out)) for arg in argv]
        runs.append((_run(args, engine, monkeypatch, capsys).replace(str(out), "OUT"), out))
    return runs[0], runs[1]


def _files(folder: Path) -> dict[str, str]:
    """Every text file below ``folder`` by its relative path, dates and times left out."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".txt", ".html", ".csv", ".json", ".jsonl"):
            text = DATE.sub("Date: -", path.read_text())
            text = re.sub(r'"(cpu_)?seconds": ?[0-9.e-]+', '"seconds": -', text)
            found[str(path.relative_to(folder))] = text
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_lab_report_tournament_and_match_are_the_same_on_both_engines(
    game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    if game_id in ON_KERNEL:
        assert kernel_for(make(game_id)) is not None
    options = SMALL.get(game_id, [])
    lab = [
        "analyse",
        game_id,
        "--games",
        "6",
        "--player",
        "random",
        "--seed",
        "3",
        "--skill-games",
        "0",
    ]
    (text, out), (ref_text, ref_out) = _both(
        [*lab, *options, "--quiet", "--out", "{out}"], tmp_path / "lab", monkeypatch, capsys
    )
    assert text == ref_text
    report, ref_report = _files(out), _files(ref_out)
    assert "report.html" in report and report == ref_report

    seats = str(make(game_id).num_players)
    ranked = ["tournament", game_id, "--player", "random", "--player", "random", "--seats", seats]
    if seats != "2":
        ranked += ["--player", "random"] * (int(seats) - 1)
    (text, out), (ref_text, ref_out) = _both(
        [*ranked, *options, "--seed", "4", "--quiet", "--out", "{out}"],
        tmp_path / "tournament",
        monkeypatch,
        capsys,
    )
    assert text == ref_text and _files(out) == _files(ref_out)

    players = ["--player", "random"] * int(seats)
    (text, out), (ref_text, ref_out) = _both(
        [
            "match",
            game_id,
            *players,
            *options,
            "--games",
            "4",
            "--seed",
            "5",
            "--json",
            "--save-dir",
            "{out}",
        ],
        tmp_path / "match",
        monkeypatch,
        capsys,
    )
    assert '"games": 4' in text and text == ref_text
    assert len(_files(out)) == 4 and _files(out) == _files(ref_out)


def test_evaluations_come_from_the_compiled_evaluation_where_a_game_has_one() -> None:
    """Where a game has ``kernel_eval``, the traced evaluations are the compiled ones; they must
    equal the reference's (the lab test above compares them through the reports)."""
    from boardlab.core.engine import kernel_evaluation

    for game_id in ON_KERNEL:
        game = _seeded(game_id, 0)
        evaluate = kernel_evaluation(game)
        planned = play_compiled(
            game, game.new_initial_state(), [RandomBot(s) for s in range(game.num_players)], True
        )
        assert planned is not None
        assert (planned.evals is None) == (evaluate is None)
        if planned.evals is not None:
            state = game.new_initial_state()
            expected: list[float] = []
            for action in planned.actions:
                expected += state.heuristics()
                state.apply_action(action)
            assert planned.evals == expected


def test_a_negative_zero_evaluation_is_stored_as_zero_whatever_came_first() -> None:
    """-0.0 and 0.0 are one key of the rounding cache: without a rule, a trace would keep the
    sign of whichever the process met first, and two runs of one game could differ."""
    import math

    from boardlab.analysis.trace import _Rounded

    for first, second in ((0.0, -0.0), (-0.0, 0.0)):
        rounded = _Rounded()
        values = [rounded[first], rounded[second], rounded[-0.00001]]
        assert [math.copysign(1.0, value) for value in values] == [1.0, 1.0, 1.0]
