"""Every game's start and a mid-game position, drawn by a real headless Chromium.

The screenshots are kept under ``tests/artifacts/render/`` (git-ignored) for people to look at;
the test checks they are not blank: many pixels differ from the page colour and the picture
has many colours (cells, pieces, labels).
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser

from boardlab.render import render_svg
from boardlab.render.palette import PAGE, rgb
from tests.render.positions import GAMES, make_game, mid_game

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "render"


def screenshot(browser: Browser, svg: str) -> bytes:
    """A PNG of the SVG as Chromium draws it, 700 pixels wide."""
    page = browser.new_page(viewport={"width": 760, "height": 1000})
    try:
        page.set_content(svg)
        png: bytes = page.locator("svg").screenshot()
        return png
    finally:
        page.close()


def not_blank(png: bytes) -> tuple[float, int]:
    """The share of pixels that differ from the page colour, and the number of colours."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    page = rgb(PAGE)
    assert page is not None
    drawn = 0
    colours = set()
    for count, pixel in image.getcolors(1 << 24) or []:
        assert isinstance(pixel, tuple)
        red, green, blue = pixel[:3]
        if max(abs(red - page[0]), abs(green - page[1]), abs(blue - page[2])) > 24:
            drawn += count
        colours.add((red >> 4, green >> 4, blue >> 4))
    return drawn / (image.width * image.height), len(colours)


def test_every_game_draws_in_chromium(browser: Browser) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name in GAMES:
        game = make_game(name)
        pictures = {
            "start": game.new_initial_state().render_model(),
            "mid": mid_game(game, plies=30, seed=3),
        }
        for moment, model in pictures.items():
            png = screenshot(browser, render_svg(model, width=700))
            (ARTIFACTS / f"{name.replace(':', '-')}-{moment}.png").write_bytes(png)
            share, colours = not_blank(png)
            assert share > 0.15, f"{name} {moment}: only {share:.0%} of the picture is drawn"
            assert colours >= 12, f"{name} {moment}: only {colours} colours"
