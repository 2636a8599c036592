"""The Ray backend on a local Ray instance gives the games of the local runner."""

from __future__ import annotations

from pathlib import Path

from boardlab.analysis.lab import LabConfig, run_lab


def test_ray_plays_the_same_games_as_one_local_job(tmp_path: Path) -> None:
    config = LabConfig("carnyx", 2, 6, players=("random",), records=1)
    on_ray = run_lab(config, tmp_path / "ray", jobs=2, backend="ray")
    local = run_lab(config, tmp_path / "local", jobs=1)
    assert [t.to_json() | {"seconds": 0, "cpu_seconds": 0} for t in on_ray] == [
        t.to_json() | {"seconds": 0, "cpu_seconds": 0} for t in local
    ]
    assert (tmp_path / "ray" / "records" / "base-1.txt").read_text().startswith("# Boardlab")
