"""Fixtures every test package may use: one Playwright driver and one Chromium per session.

Playwright's sync driver runs an event loop of its own, so a second driver started while one
is running fails; every browser test therefore shares these.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from boardlab.core.engine import kernel_for
from boardlab.core.jit import compiled_dir
from boardlab.core.kernel_drivers import random_playouts, rollout
from boardlab.core.registry import game_ids, make
from tests.chromium import launch


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    """Playwright's sync driver for the session."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    """Headless Debian Chromium (no browser download), shared by the session."""
    chromium = launch(playwright_driver)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels() -> None:
    """Compile (or load from the disk cache) every game's kernel and drivers once, first.

    The servers and bot workers the tests start share the per-user cache, so no test's time
    limit depends on whether it happens to be the first to use a game's kernel; what the first
    use costs a user is measured by ``benchmarks/engine.py --startup`` (docs/engine.md). Test
    processes running side by side (``pytest -n``) compile one at a time: the next loads what
    the first wrote.
    """
    with (compiled_dir() / "tests-compiling.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _compile_every_kernel()


def _compile_every_kernel() -> None:
    for game_id in game_ids():
        game = make(game_id)
        kernel = kernel_for(game)
        if kernel is not None:
            state = kernel.encode(game.new_initial_state())
            random_playouts(kernel, state, 1, 0)
            rollout(kernel, state.copy(), 0, 4)
