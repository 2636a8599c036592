"""The lab report opens in headless Chromium without errors and without the network."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from boardlab.analysis.lab import LabConfig, plan_series, run_lab
from boardlab.analysis.report import write_report
from boardlab.analysis.summary import summarize_run


def test_report_renders_in_chromium(tmp_path: Path, browser: Browser) -> None:
    config = LabConfig(
        "anacund",
        5,
        8,
        players=("random",),
        variants=(("ring", {}), ("open", {"track": "open"})),
        skill_games=4,
        skill_rungs=("random", "level:easy"),
        records=1,
    )
    traces = run_lab(config, tmp_path)
    page_path = write_report(tmp_path, summarize_run(config, plan_series(config), traces), traces)
    errors: list[str] = []
    requests: list[str] = []
    page = browser.new_page()
    try:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda request: requests.append(request.url))
        page.goto(page_path.as_uri())
        assert page.title() == "Playtest report: Anacund"
        assert page.locator("svg").count() >= 7
        assert page.locator("h2", has_text="Variants compared").count() == 1
        headlines = page.locator(".headlines li").all_inner_texts()
        assert headlines[0].startswith("Warning: random bots play these games")
        assert headlines[1].startswith("ring: of 8 games (none drawn), the seats win A")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.locator("a", has_text="records/ring-1.txt").click()
        page.wait_for_load_state()
        assert "# Boardlab game record" in page.content()
    finally:
        page.close()
    assert errors == []
    assert all(url.startswith("file://") for url in requests)
