"""The Ray backend on a local Ray instance gives the games of the local runner.

Both runs are real ``boardlab analyse`` processes: Ray leaves threads behind in the process
that started it, and the test runner must stay free of them, because later tests fork workers.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from boardlab.analysis.store import read_rows
from tests.cli.processes import BOARDLAB

RUN = ["analyse", "carnyx", "--player", "random", "--games", "6", "--seed", "2"]
QUIET = ["--skill-games", "0", "--records", "1", "--quiet"]


def _games(folder: Path, *backend: str) -> list[dict[str, Any]]:
    """The stored games of a run with ``backend``'s options, without their timings, in order."""
    argv = [BOARDLAB, *RUN, *QUIET, *backend, "--out", str(folder)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    rows = [row | {"seconds": 0, "cpu_seconds": 0} for row in read_rows(folder)]
    return sorted(rows, key=lambda row: (row["series"], row["index"]))


def test_ray_plays_the_same_games_as_one_local_job(tmp_path: Path) -> None:
    on_ray = _games(tmp_path / "ray", "--backend", "ray", "--jobs", "2")
    local = _games(tmp_path / "local", "--jobs", "1")
    assert len(on_ray) == 6
    assert on_ray == local
    assert (tmp_path / "ray" / "records" / "base-1.txt").read_text().startswith("# Boardlab")
