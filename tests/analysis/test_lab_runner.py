"""Runners and lab runs: same seed, same games across job counts; resume after a kill."""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.analysis.lab import LabConfig, plan_series, run_lab, tasks
from boardlab.analysis.runner import IN_FLIGHT_PER_WORKER, run_tasks, worker_count
from boardlab.analysis.store import GAMES, read_rows
from boardlab.analysis.trace import GameTrace
from boardlab.core.errors import OptionError


def _square(x: int) -> int:
    return x * x


def _comparable(traces: list[GameTrace]) -> list[dict[str, object]]:
    """Traces without the wall time, the only field allowed to differ."""
    return [{**t.to_json(), "seconds": 0, "cpu_seconds": 0, "record": None} for t in traces]


def test_tasks_are_taken_lazily_and_every_result_comes_back() -> None:
    taken: list[int] = []

    def source() -> Iterator[int]:
        for x in itertools.count():
            taken.append(x)
            yield x

    results = run_tasks(_square, source(), jobs=2)
    first = sorted(next(results) for _ in range(3))
    assert all(r in {x * x for x in range(10)} for r in first)
    # Never the whole stream: the 3 results yielded, at most 3 more that finished in the same
    # batch as the third, and at most IN_FLIGHT_PER_WORKER tasks per worker in flight.
    assert len(taken) <= 3 + 3 + 2 * IN_FLIGHT_PER_WORKER
    results.close()
    assert sorted(run_tasks(_square, range(20), jobs=2, total=20)) == [x * x for x in range(20)]


def test_workers_are_capped_by_tasks_and_cpus() -> None:
    assert worker_count(64, 3) <= 3
    assert worker_count(1, None) == 1
    with pytest.raises(OptionError, match="jobs"):
        run_tasks(_square, [1], jobs=0)
    with pytest.raises(OptionError, match="backends are"):
        run_tasks(_square, [1], backend="slurm")


def test_same_seed_same_games_for_one_and_two_jobs(tmp_path: Path) -> None:
    config = LabConfig("colosseum-offcuts", 7, 6, players=("random",), records=1)
    one = run_lab(config, tmp_path / "one", jobs=1)
    two = run_lab(config, tmp_path / "two", jobs=2)
    assert _comparable(one) == _comparable(two)
    assert [t.index for t in one] == list(range(6))
    assert one[0].record == "records/base-1.txt" and one[1].record is None
    assert (tmp_path / "two" / "records" / "base-1.txt").exists()


def test_variants_share_seeds_and_seats_rotate() -> None:
    config = LabConfig(
        "anacund",
        3,
        4,
        players=("random",),
        variants=(("a", {}), ("b", {"bonus_points": "0"})),
    )
    series = plan_series(config)
    planned = list(tasks(config, series, skip={("a", 1)}))
    assert [(t.series, t.index) for t in planned[:3]] == [("a", 0), ("b", 0), ("b", 1)]
    by_key = {t.key: t for t in planned}
    assert by_key[("b", 2)].seed == by_key[("a", 2)].seed
    assert dict(by_key[("b", 2)].options)["seed"] == dict(by_key[("a", 2)].options)["seed"]
    assert by_key[("a", 2)].seating == (0, 1) and by_key[("a", 3)].seating == (1, 0)


KILLED_RUN = """
import sys
from boardlab.analysis.lab import LabConfig, run_lab
run_lab(LabConfig("murus-gallicus", 5, 150, players=("random",)), sys.argv[1], jobs=2)
"""


def test_a_killed_run_resumes_to_the_same_games(tmp_path: Path) -> None:
    out = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(out)])
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list(read_rows(out))) < 3:
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    stored = len((out / GAMES).read_text().splitlines())
    assert 3 <= stored < 150, "the kill must land mid-run"
    config = LabConfig("murus-gallicus", 5, 150, players=("random",))
    resumed = run_lab(config, out, jobs=1, resume=True)
    fresh = run_lab(config, tmp_path / "fresh", jobs=1)
    assert _comparable(resumed) == _comparable(fresh)
    assert len(list(read_rows(out))) == 150
