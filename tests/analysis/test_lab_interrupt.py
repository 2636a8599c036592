"""Ctrl-C during a lab run: the count of stored games it reports is what the store holds, even
when the signal comes just as a game is stored (``boardlab analyse`` prints that count and
offers ``--resume``)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from boardlab.analysis.lab import LabConfig, run_lab
from boardlab.analysis.store import RunStore, read_rows
from tests.core.test_held_signals import ctrl_c_raises


def test_ctrl_c_as_a_game_is_stored_still_counts_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_game = RunStore.append

    def store_then_ctrl_c(self: RunStore, row: dict[str, Any], record: str | None = None) -> Any:
        stored = store_game(self, row, record)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)  # time for the signal to reach Python's handler
        return stored

    monkeypatch.setattr(RunStore, "append", store_then_ctrl_c)
    counted: list[int] = []
    config = LabConfig("murus-gallicus", 5, 4, players=("random",))
    with ctrl_c_raises(), pytest.raises(KeyboardInterrupt):
        run_lab(config, tmp_path / "run", progress=lambda done, total: counted.append(done))
    assert len(list(read_rows(tmp_path / "run"))) == counted[-1] == 1
