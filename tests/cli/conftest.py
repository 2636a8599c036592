"""Command-line test fixtures: the toy games registered as ``nim`` and ``hidden-nim``."""

from __future__ import annotations

import pytest

from tests.toy_games import register_toy_games


@pytest.fixture(autouse=True)
def nim_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the Nim fixtures as games ``nim`` and ``hidden-nim`` for one test."""
    register_toy_games(monkeypatch)
