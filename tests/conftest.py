"""Fixtures every test package may use: one Playwright driver and one Chromium per session.

Playwright's sync driver runs an event loop of its own, so a second driver started while one
is running fails; every browser test therefore shares these.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

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
