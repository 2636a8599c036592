"""Clocks, draw offers and takeback requests in real Chromium, two players in two browser
contexts on a real server: the clocks tick in both pages, a flag ends the game in both, and an
offer made in one page is answered in the other."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.browser_play import (
    WAIT_MS,
    banner_text,
    boxes,
    engine_state,
    open_link,
    open_match,
    ply,
    wait_for,
)
from tests.web.conftest import Server
from tests.web.test_browser_axe import violations


class Players(NamedTuple):
    """A Murus Gallicus match of two humans: the Romans' page and the Gauls' page (opened
    from the invite link, in another browser context)."""

    match_id: str
    romans: Page
    gauls: Page


@pytest.fixture
def players(
    browser: Browser, shared_server: Server, request: pytest.FixtureRequest
) -> Iterator[Players]:
    clock: dict[str, int] | None = getattr(request, "param", None)
    status, created = shared_server.post(
        "/api/matches",
        {
            "game": "murus-gallicus",
            "seats": [{"kind": "human"}, {"kind": "invite"}],
            "clock": clock,
        },
    )
    assert status == 201, created
    romans_context, gauls_context = browser.new_context(), browser.new_context()
    try:
        romans = open_match(
            romans_context, shared_server, created["id"], {0: created["seats"][0]["token"]}
        )
        gauls = open_link(gauls_context, shared_server, created["seats"][1]["link"])
        yield Players(created["id"], romans, gauls)
    finally:
        romans_context.close()
        gauls_context.close()


def play(server: Server, match_id: str, page: Page, text: str) -> None:
    """Play ``text`` by clicking its cells on ``page``, and wait until the page shows it."""
    state = engine_state(server, match_id)
    action = state.parse_action(text)
    before = ply(page)
    for target in state.click_path(action).targets:
        page.locator("#board").locator(f'[data-id="{target}"]').first.click()
    wait_for(page, "n => Number(document.body.dataset.ply) > n", before)


def clock_of(page: Page, seat: int) -> str:
    return page.locator(f'.clock[data-seat="{seat}"] .clock-time').inner_text()


def seconds(face: str) -> float:
    minutes, rest = face.split(":")
    return int(minutes) * 60 + float(rest)


@pytest.mark.parametrize("players", [{"base": 5, "increment": 0}], indirect=True)
def test_the_clocks_tick_in_both_pages_and_a_flag_ends_the_game(
    players: Players, shared_server: Server
) -> None:
    match_id, romans, gauls = players
    for page in (romans, gauls):
        expect(page.locator("#clocks")).to_contain_text("Time control 5 s+0")
        assert clock_of(page, 0) == clock_of(page, 1) == "0:05.0"
    play(shared_server, match_id, romans, "d1-d3")
    wait_for(gauls, "() => Number(document.body.dataset.ply) === 1")
    play(shared_server, match_id, gauls, "a7-a5")
    wait_for(romans, "() => Number(document.body.dataset.ply) === 2")
    # Both first turns were free: the Romans' clock runs now, in both pages.
    for page in (romans, gauls):
        expect(page.locator('.clock[data-seat="0"]')).to_have_class("clock running low")
    # A face shows the time at the page's last tick (every 0.1 s, later on a loaded machine),
    # in tenths: between the two readings it falls by the time between them, give or take that.
    started = time.monotonic()
    first = [seconds(clock_of(page, 0)) for page in (romans, gauls)]
    time.sleep(1.0)
    second = [seconds(clock_of(page, 0)) for page in (romans, gauls)]
    took = time.monotonic() - started
    for before, after in zip(first, second, strict=True):
        assert 0.5 < before - after < took + 0.6
    assert clock_of(romans, 1) == clock_of(gauls, 1) == "0:05.0"
    # Nobody does anything: the Romans run out of time and both pages say so.
    for page in (romans, gauls):
        assert banner_text(page) == "Gauls won."
        expect(page.locator("#banner .banner-reason")).to_have_text("Romans ran out of time.")
        expect(page.locator('.clock[data-seat="0"] .clock-time')).to_have_text("0:00.0")
        expect(page.locator('.clock[data-seat="0"]')).to_have_class("clock flagged")
    view = shared_server.get(f"/api/matches/{match_id}")[1]
    assert view["result"]["termination"] == "timeout"


def test_a_draw_offer_is_shown_to_both_and_accepted_in_the_other_page(
    players: Players, shared_server: Server
) -> None:
    match_id, romans, gauls = players
    expect(romans.locator("#clocks")).to_be_hidden()
    play(shared_server, match_id, romans, "d1-d3")
    wait_for(gauls, "() => Number(document.body.dataset.ply) === 1")
    romans.locator("#offer-draw").click()
    expect(romans.locator("#offer")).to_have_text("You offered a draw; waiting for the answer.")
    expect(romans.locator("#offer-draw")).to_be_hidden()
    expect(gauls.locator("#offer p")).to_have_text("Draw offered by Romans.", timeout=WAIT_MS)
    gauls.locator("#offer").get_by_role("button", name="Accept").click()
    for page in (romans, gauls):
        assert banner_text(page) == "Draw."
        expect(page.locator("#banner .banner-reason")).to_have_text("The players agreed to a draw.")
        expect(page.locator("#offer")).to_be_hidden()


def test_a_declined_draw_offer_is_not_offered_again_before_a_move(
    players: Players, shared_server: Server
) -> None:
    match_id, romans, gauls = players
    play(shared_server, match_id, romans, "d1-d3")
    wait_for(gauls, "() => Number(document.body.dataset.ply) === 1")
    romans.locator("#offer-draw").click()
    gauls.locator("#offer").get_by_role("button", name="Decline").click()
    expect(romans.locator("#offer")).to_be_hidden(timeout=WAIT_MS)
    # The server would refuse the same offer before the next move: the button is gone; the
    # other side may still offer.
    expect(romans.locator("#offer-draw")).to_be_hidden()
    expect(gauls.locator("#offer-draw")).to_be_visible()
    play(shared_server, match_id, gauls, "a7-a5")
    expect(romans.locator("#offer-draw")).to_be_visible(timeout=WAIT_MS)


def test_a_takeback_request_declined_then_accepted(players: Players, shared_server: Server) -> None:
    match_id, romans, gauls = players
    play(shared_server, match_id, romans, "d1-d3")
    wait_for(gauls, "() => Number(document.body.dataset.ply) === 1")
    # Only the side that made the last move may ask for it back.
    expect(gauls.locator("#ask-takeback")).to_be_hidden()
    romans.locator("#ask-takeback").click()
    offer = gauls.locator("#offer")
    expect(offer.locator("p")).to_have_text(
        "Takeback requested by Romans: undo their last move?", timeout=WAIT_MS
    )
    offer.get_by_role("button", name="Decline").click()
    expect(romans.locator("#offer")).to_be_hidden(timeout=WAIT_MS)
    assert ply(romans) == ply(gauls) == 1

    play(shared_server, match_id, gauls, "a7-a5")
    wait_for(romans, "() => Number(document.body.dataset.ply) === 2")
    play(shared_server, match_id, romans, "c1-c3")
    wait_for(gauls, "() => Number(document.body.dataset.ply) === 3")
    romans.locator("#ask-takeback").click()
    expect(offer.locator("p")).to_have_text(
        "Takeback requested by Romans: undo their last move?", timeout=WAIT_MS
    )
    offer.get_by_role("button", name="Accept").click()
    for page in (romans, gauls):
        wait_for(page, "() => Number(document.body.dataset.ply) === 2")
        expect(page.locator("#moves .move")).to_have_count(2)
        expect(page.locator("#offer")).to_be_hidden()
    # The Romans are to move again and play a different move.
    play(shared_server, match_id, romans, "b1-b3")
    view: dict[str, Any] = shared_server.get(f"/api/matches/{match_id}")[1]
    assert [move["turn"] for move in view["moves"]] == ["d1-d3", "a7-a5", "b1-b3"]


@pytest.mark.parametrize(
    ("choice", "label", "clock", "listed"),
    [
        ("3+2 (blitz)", "Time control 3+2", {"base": 180, "increment": 2, "days": 0}, "(3+2)"),
        ("3 days per move", "3 days per move", {"base": 0, "increment": 0, "days": 3}, "move due"),
    ],
)
def test_the_time_control_is_chosen_in_the_lobby_form(
    browser: Browser,
    shared_server: Server,
    choice: str,
    label: str,
    clock: dict[str, int],
    listed: str,
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(shared_server.url)
        page.get_by_role("button", name="New Murus Gallicus game").click()
        form = page.locator("#create")
        form.get_by_label("Gauls", exact=True).select_option("invite")
        form.get_by_label("Time control", exact=True).select_option(label=choice)
        form.get_by_role("button", name="Start the game").click()
        page.wait_for_url("**/match/**")
        page.wait_for_selector("body[data-ply]")
        expect(page.locator("#clocks .clock-control")).to_have_text(label)
        match_id = page.url.rsplit("/", 1)[1]
        view = shared_server.get(f"/api/matches/{match_id}")[1]
        assert {key: view["clock"][key] for key in clock} == clock
        page.goto(shared_server.url)
        row = page.locator(f'#matches tr[data-match="{match_id}"]')
        expect(row).to_contain_text(listed)
    finally:
        context.close()


def test_running_clocks_and_a_waiting_offer_have_no_serious_violation(
    browser: Browser, shared_server: Server
) -> None:
    status, created = shared_server.post(
        "/api/matches",
        {
            "game": "murus-gallicus",
            "seats": [{"kind": "human"}, {"kind": "invite"}],
            "clock": {"base": 600, "increment": 5},
        },
    )
    assert status == 201
    match_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    for done, text in enumerate(["d1-d3", "a7-a5", "c1-c3"]):
        body = {"seat": done % 2, "ply": done, "turn": text}
        answer = shared_server.post(f"/api/matches/{match_id}/turn", body, tokens[done % 2])
        assert answer[0] == 200
    offer = {"seat": 0, "kind": "draw"}
    assert shared_server.post(f"/api/matches/{match_id}/offer", offer, tokens[0])[0] == 200
    # The pages forbid inline scripts; axe is injected as one, by the test alone.
    context = browser.new_context(bypass_csp=True)
    try:
        page = open_match(context, shared_server, match_id, {1: tokens[1]})
        expect(page.locator('.clock[data-seat="1"]')).to_have_class("clock running")
        expect(page.locator("#offer .accept")).to_be_visible()
        assert violations(page) == []
    finally:
        context.close()


def test_on_a_phone_the_clocks_are_in_view_above_the_board(
    browser: Browser, shared_server: Server
) -> None:
    status, created = shared_server.post(
        "/api/matches",
        {
            "game": "murus-gallicus",
            "seats": [{"kind": "human"}, {"kind": "invite"}],
            "clock": {"base": 180, "increment": 2},
        },
    )
    assert status == 201
    match_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    for done, text in enumerate(["d1-d3", "a7-a5"]):
        body = {"seat": done % 2, "ply": done, "turn": text}
        answer = shared_server.post(f"/api/matches/{match_id}/turn", body, tokens[done % 2])
        assert answer[0] == 200
    phone = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = open_match(phone, shared_server, match_id, {1: tokens[1]})
        strip = page.locator("#clock-strip .strip-clock")
        expect(strip).to_have_count(2)
        expect(strip.nth(1)).to_contain_text("Gauls (you)")
        expect(strip.nth(0)).to_have_class("strip-clock running")
        # Both clocks are on screen as the page opens, above the board, without scrolling
        # (measured together: the strip is re-rendered as the running clock ticks).
        (board_top,), clocks = boxes(page, "#board", "#clock-strip .strip-clock")
        assert len(clocks) == 2
        for box in clocks:
            assert box["y"] >= 0 and box["y"] + box["height"] <= board_top["y"]
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        expect(strip.nth(1).locator(".clock-time")).to_have_text("3:00")
        expect(page.locator('.clock[data-seat="1"] .clock-time')).to_have_text("3:00")
        assert violations(page) == []
        # Not this browser's turn, so no cell takes the focus: the zoomed board's box does, and
        # its arrow keys scroll it (rather than step through the moves).
        page.locator("#board").focus()
        before = page.eval_on_selector("#board", "board => board.scrollLeft")
        page.keyboard.press("ArrowRight")
        wait_for(page, "n => document.querySelector('#board').scrollLeft > n", before)
        expect(page.locator("#review")).to_be_hidden()
        # On a laptop the panel beside the board holds the clocks; the strip is not shown.
        wide = open_match(laptop, shared_server, match_id, {1: tokens[1]})
        expect(wide.locator('.clock[data-seat="0"]')).to_be_visible()
        expect(wide.locator("#clock-strip")).to_be_hidden()
    finally:
        phone.close()
        laptop.close()
