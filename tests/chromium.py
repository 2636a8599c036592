"""How every browser test starts Debian's Chromium: headless, sandbox off, no network chatter."""

from __future__ import annotations

from playwright.sync_api import Browser, Playwright, expect

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]


EXPECT_MS = 20_000
"""How long Playwright's ``expect`` waits for a page to show something (its default, 5 s, is
short for a page answering through a server on a loaded two-core machine)."""


def launch(playwright: Playwright) -> Browser:
    """A headless Chromium (Debian's, never a downloaded browser); ``expect`` waits EXPECT_MS."""
    expect.set_options(timeout=EXPECT_MS)
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
