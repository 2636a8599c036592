"""The rules pages: one per game, linked from the lobby and the game page, with the legend of
the game's pieces drawn by the renderer, how a turn is entered, and the spec as HTML; the game
page shows the one-line hint for the turn it asks for."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from starlette.exceptions import HTTPException
from starlette.requests import Request

import boardlab
from boardlab.core.registry import game_ids
from boardlab.web import rules
from boardlab.web.guides import GUIDES
from boardlab.web.rules import render_markdown
from tests.web.browser_play import WAIT_MS, create_match, open_hot_seat, open_match
from tests.web.conftest import Server


def test_every_game_card_of_the_lobby_links_to_a_rules_page(
    browser: Browser, shared_server: Server
) -> None:
    context = browser.new_context()
    page = context.new_page()
    for game_id in game_ids():
        game = boardlab.make(game_id)
        page.goto(shared_server.url)
        page.locator(f'.game-card[data-game="{game_id}"]').get_by_role("link", name="Rules").click()
        expect(page.locator("h1")).to_have_text(f"{game.name}: rules", timeout=WAIT_MS)
        assert page.url.endswith(f"/rules/{game_id}")
        # The legend: every seat's colour and at least one piece drawn as SVG with its words.
        expect(page.locator(".legend-seats li")).to_have_count(game.min_players)
        pieces = page.locator(".legend-piece")
        assert pieces.count() >= 1
        assert pieces.locator("svg circle, svg rect, svg polygon").count() >= pieces.count()
        for hint in GUIDES[game_id].hints.values():
            expect(page.locator("#playing .hints")).to_contain_text(hint)
        # The spec, rendered: its sections as headings, its tables as tables.
        expect(page.locator("#rules h3").first).to_contain_text("Summary")
        assert page.locator("#rules table").count() >= 1
        expect(page.locator("#rules")).not_to_contain_text("Test facts")
    context.close()


def test_cyvasse_units_and_colosseum_modes_are_named_in_the_legend(
    browser: Browser, shared_server: Server
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{shared_server.url}rules/cyvasse")
    legend = page.locator("#legend")
    for unit in ("K: King", "D: Dragon", "H: Heavy horse", "B: Crossbowman", "T: Trebuchet"):
        expect(legend).to_contain_text(unit)
    expect(legend).to_contain_text("Mountain")
    page.goto(f"{shared_server.url}rules/colosseum-offcuts")
    legend = page.locator("#legend")
    for kind in ("Board piece", "Fortification"):
        for mode in ("Mobile mode (pale)", "Attack mode (solid)"):
            expect(legend).to_contain_text(f"{kind}, {mode}")
    expect(page.locator("#playing")).to_contain_text("click the counter twice to flip it")
    context.close()


def test_the_game_page_links_its_rules_and_hints_how_to_enter_the_turn(
    browser: Browser, shared_server: Server
) -> None:
    context, page = open_hot_seat(browser, shared_server, "cyvasse", {"seed": 1})[2:]
    link = page.get_by_role("link", name="Rules")
    expect(link).to_have_attribute("href", "/rules/cyvasse")
    expect(page.locator("#hint")).to_have_text(GUIDES["cyvasse"].hints["deployment"])
    link.click()
    expect(page.locator("h1")).to_have_text("Cyvasse: rules")
    context.close()

    created = create_match(shared_server, "murus-gallicus", [{"kind": "human"}] * 2)
    watcher = browser.new_context()
    page = open_match(watcher, shared_server, created["id"])
    expect(page.get_by_role("link", name="Rules")).to_have_attribute(
        "href", "/rules/murus-gallicus"
    )
    expect(page.locator("#hint")).to_be_hidden()  # a spectator enters no turn
    watcher.close()
    player = browser.new_context()
    page = open_match(player, shared_server, created["id"], {0: created["seats"][0]["token"]})
    expect(page.locator("#hint")).to_have_text(GUIDES["murus-gallicus"].hints["play"])
    player.close()


def test_an_unknown_game_has_no_rules_page(shared_server: Server) -> None:
    status, answer = shared_server.get("/rules/chess")
    assert status == 404
    assert answer == {"error": "there is no game named 'chess'"}


@pytest.mark.parametrize(
    ("markdown", "shows", "never"),
    [
        ("<script>alert(1)</script>", "&lt;script&gt;", "<script"),
        ('<img src=x onerror="alert(1)">', "&lt;img", "<img"),
        (
            "[spec](../rules/x.md) and [site](https://example.org)",
            'spec and <a href="https://example.org">site</a>',
            "x.md",
        ),
        ("[bad](javascript:alert(1))", "bad", "javascript:"),
        ("## Title", "<h3>Title</h3>", "<h2>"),
    ],
)
def test_the_markdown_of_the_docs_is_escaped(markdown: str, shows: str, never: str) -> None:
    html = render_markdown(markdown, 1)
    assert shows in html and never not in html, html


def test_without_the_docs_the_rules_page_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(rules, "DOCS", tmp_path)
    rules.rules_html.cache_clear()
    request = Request({"type": "http", "path_params": {"game": "carnyx"}, "query_string": b""})
    # Its own thread and event loop: Playwright's loop runs in this one.
    with ThreadPoolExecutor(1) as thread, pytest.raises(HTTPException) as refused:
        thread.submit(asyncio.run, rules.rules_page(request)).result()
    assert refused.value.status_code == 404
    assert refused.value.detail == "the rules pages need the docs of a source checkout"
    rules.rules_html.cache_clear()


def test_a_variants_rules_page_lists_its_options_and_what_each_changes(
    browser: Browser, shared_server: Server
) -> None:
    page = browser.new_page()
    try:
        page.goto(f"{shared_server.url}rules/carnyx?conversion=token&max_plies=300")
        box = page.locator("#variant")
        expect(box).to_be_visible()
        # Only what differs from the rules as they stand, with its meaning from the options.
        items = box.locator("li")
        expect(items).to_have_count(1)
        help_text = next(s.help for s in boardlab.make("carnyx").OPTIONS if s.key == "conversion")
        expect(items.first).to_have_text(f"conversion = token: {help_text}")
        page.goto(f"{shared_server.url}rules/carnyx")
        expect(page.locator("#rules-title")).to_be_visible()
        expect(page.locator("#variant")).to_have_count(0)
    finally:
        page.close()


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("colour=blue", "unknown option"),
        ("conversion=%3Cscript%3E", "option conversion: bad value"),
        ("max_plies=1&max_plies=2", "each option may be given once"),
    ],
)
def test_a_rules_page_with_an_option_the_game_lacks_is_refused(
    shared_server: Server, query: str, error: str
) -> None:
    status, answer = shared_server.get(f"/rules/carnyx?{query}")
    assert status == 400
    assert error in answer["error"]  # JSON, never a page: a value in it is not markup
