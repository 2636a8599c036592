"""A playtest with people, in real Chromium with a browser context per person (issue 42): a
designer makes a two-variant Carnyx playtest with the form; four playtesters open the shared
link, are paired from the waiting list, play to the end on the game page and answer the survey
there; a fifth plays a playtest made with ``boardlab playtest create`` against the bot; the
dashboard shows their games and answers, the bots' self-play beside them and the variant test,
and the answers CSV it downloads holds exactly what was typed.

Every variant caps a game at two plies (``max_plies=2``) so that a game takes one placement a
side. With ``BOARDLAB_PLAYTEST_PICTURES=DIR`` the pages are also saved there as PNG (the
pictures of ``docs/playtests.md``).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.web.browser_play import (
    WAIT_MS,
    bot_turn,
    engine_state,
    play_turn,
    resign,
    wait_for,
    wait_my_turn_or_end,
)
from tests.web.conftest import Server

PICTURES = os.environ.get("BOARDLAB_PLAYTEST_PICTURES")
WAITED: dict[Page, bool] = {}
"""Whether each playtester's page was told to wait for another playtester when it joined."""
TEXTS = [
    "Loved the merge rule. <b>bold?</b>",
    'Token felt swingy, "=SUM(1)" & more',
    "",
    "Too short to judge:\nanother line",
]


def picture(page: Page, name: str) -> None:
    """Save the page as ``playtest-<name>.png`` when pictures are asked for."""
    if PICTURES:
        page.screenshot(path=str(Path(PICTURES) / f"playtest-{name}.png"), full_page=True)


def make_playtest(context: BrowserContext, server: Server) -> tuple[str, str]:
    """The designer fills the form: the share link and the dashboard link it shows."""
    page = context.new_page()
    page.goto(f"{server.url}playtests/new")
    page.get_by_label("Title").fill("Carnyx: supply or token?")
    page.get_by_label("Game", exact=True).select_option("carnyx")
    page.get_by_label("Variant 1: your name for it").fill("Supply")
    page.locator("#variant-1-conversion").select_option("supply")
    page.locator("#variant-1-max_plies").fill("2")
    page.get_by_role("button", name="Add a variant").click()
    page.get_by_label("Variant 2: your name for it").fill("Token")
    page.locator("#variant-2-conversion").select_option("token")
    page.locator("#variant-2-max_plies").fill("2")
    picture(page, "new")
    page.get_by_role("button", name="Create the playtest").click()
    expect(page.get_by_role("heading", name="Your playtest is ready")).to_be_visible()
    share = page.locator("#share-link").get_attribute("href")
    dashboard = page.locator("#dashboard-link").get_attribute("href")
    assert share and dashboard and "#token=" in dashboard
    page.close()
    return share, dashboard


def join(
    browser: Browser, server: Server, share: str, shown: str | None = None
) -> tuple[BrowserContext, Page]:
    """A playtester's own browser opens the link and asks for a game (the pages saved as
    ``shown``-link and ``shown``-seated when pictures are asked for)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url.rstrip("/") + share)
    expect(page.get_by_role("link", name="the rules of Carnyx")).to_be_visible()
    if shown:
        picture(page, f"{shown}-link")
    page.get_by_role("button", name="Play a game").click()
    expect(page.locator("#seated")).to_be_visible()
    # Only a seat still waiting for others shows the waiting line (and leaves by itself).
    WAITED[page] = page.locator("#waiting").is_visible()
    if shown:
        picture(page, f"{shown}-seated")
    return context, page


def seat_of(page: Page) -> tuple[str, int, str]:
    """The match, seat and token this browser was given (it joined one playtest), read from
    its context's storage: a waiting page may be going to its game meanwhile, and a script in
    a page that navigates away fails."""
    storage = page.context.storage_state()
    kept = [
        item["value"]
        for origin in storage["origins"]
        for item in origin["localStorage"]
        if item["name"].startswith("boardlab:playtest-seat:")
    ]
    (answer,) = (json.loads(text) for text in kept)
    return answer["match"], answer["seat"], answer["token"]


def to_game(page: Page) -> None:
    """Follow the page to the game (a waiting page goes by itself once paired)."""
    if not WAITED.get(page, False):
        page.get_by_role("link", name="Go to your game").click()
    page.wait_for_url("**/match/**", timeout=WAIT_MS)
    page.wait_for_selector("body[data-ply]")


def answer_survey(page: Page, scores: list[int | None], text: str, shown: bool = False) -> None:
    """Fill the survey the game page shows at the end, and send it (the page saved before it
    is sent when ``shown`` and pictures are asked for)."""
    survey = page.locator("#survey")
    expect(survey).to_be_visible(timeout=WAIT_MS)
    for number, score in enumerate(scores):
        if score is not None:
            survey.locator("fieldset").nth(number).get_by_label(str(score), exact=True).check()
    survey.get_by_label("Anything else?", exact=False).fill(text)
    if shown:
        picture(page, "survey")
    survey.get_by_role("button", name="Send my answers").click()
    expect(page.locator("#survey-thanks")).to_have_text("Thank you: your answers were sent.")


def test_a_playtest_with_people_and_a_bot_from_link_to_dashboard(
    browser: Browser, shared_server: Server, tmp_path: Path
) -> None:
    server = shared_server
    designer = browser.new_context(accept_downloads=True)
    share, dashboard = make_playtest(designer, server)
    people = [join(browser, server, share, "people" if n == 0 else None) for n in range(4)]
    seats = [seat_of(page) for _, page in people]
    assert seats[0][0] == seats[1][0] != seats[2][0] == seats[3][0]
    for _, page in people:
        to_game(page)
    # The first match is played out (a placement each: the cap ends it in a draw); in the
    # second, the side to move resigns.
    first = {seat: page for (_, page), (_, seat, _) in zip(people[:2], seats[:2], strict=True)}
    for ply in range(2):
        # The mover's page must show the turn before it is played there (it is told live).
        state = engine_state(server, seats[0][0])
        mover = first[state.current_player]
        wait_for(mover, f"() => document.body.dataset.ply === '{ply}'")
        play_turn(mover, state, bot_turn(state, "random", 1))
    second = {seat: page for (_, page), (_, seat, _) in zip(people[2:], seats[2:], strict=True)}
    resign(second[0])
    scores: list[list[int | None]] = [[5, 4, 3, 2], [1, None, 5, 3], [3, 3, 3, 3], [4, 2, None, 1]]
    for number, ((_, page), score, text) in enumerate(zip(people, scores, TEXTS, strict=True)):
        wait_for(page, "() => document.body.dataset.status === 'finished'")
        answer_survey(page, score, text, shown=number == 1)

    # A playtest against the bot, made on the command line; one more person plays it.
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardlab",
            "playtest",
            "create",
            "carnyx",
            "--opponent",
            "random",
            "--variant",
            "Quick:max_plies=2",
            "--server",
            server.url,
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    against_bot = json.loads(made.stdout)
    context, page = join(browser, server, against_bot["link"], "bot")
    to_game(page)
    match, _, token = seat_of(page)
    wait_my_turn_or_end(page)  # the bot may have the first turn
    if page.get_attribute("body", "data-status") != "finished":
        state = engine_state(server, match, token)
        play_turn(page, state, bot_turn(state, "random", 2))
    wait_for(page, "() => document.body.dataset.status === 'finished'")
    answer_survey(page, [2, 2, 2, 2], "bot game")
    context.close()

    board = designer.new_page()
    board.goto(server.url.rstrip("/") + dashboard)
    expect(board.locator("#game-rows tr")).to_have_count(2)
    assert board.evaluate("() => location.hash") == ""  # the token leaves the address bar
    expect(board.locator(".texts li")).to_have_count(3)
    shown = board.locator(".texts li").all_text_contents()
    assert sorted(shown) == sorted(t for t in TEXTS if t)
    assert board.locator(".texts b").count() == 0
    board.get_by_role("button", name="Run the bots' self-play").click()
    expect(board.get_by_text("Bots (level:easy)").first).to_be_visible(timeout=60_000)
    expect(board.locator(".notes-list li")).to_have_count(2, timeout=60_000)
    expect(board.locator("#comparison-rows tr")).not_to_have_count(0)
    assert "first seat's edge" in board.locator("#comparison-rows").inner_text()
    expect(board.locator("#power")).to_contain_text("games")
    picture(board, "dashboard")
    with board.expect_download() as download:
        board.get_by_role("button", name="Answers (CSV)").click()
    path = tmp_path / "answers.csv"
    download.value.save_as(path)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert len(rows) == 5
    by_seat = {(row[0], int(row[2])): row for row in rows[1:]}
    for (match_id, seat_number, _), score, text in zip(seats, scores, TEXTS, strict=True):
        row = by_seat[(match_id, seat_number)]
        assert row[3:7] == ["" if s is None else str(s) for s in score]
        assert row[7] == text
    # A playtester's browser, holding seat tokens only, cannot read the dashboard.
    nosy = people[0][1]
    nosy.goto(server.url.rstrip("/") + dashboard.split("#")[0])
    expect(nosy.locator("#message")).to_contain_text("only the playtest's designer")
    for context, _ in people:
        context.close()
    designer.close()
