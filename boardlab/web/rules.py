"""The rules pages: ``GET /rules/<game>``, built on the server from the game's spec
(``docs/rules/<game>.md``) and the docs' readings of it (``docs/games/<game>.md``), with a
legend of the game's pieces drawn by the renderer and how a turn is entered by clicks.

The Markdown is rendered by markdown-it-py with raw HTML off, so every character of the
documents is escaped; links into the repository (which the app does not serve) become plain
text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from html import escape
from pathlib import Path

from markdown_it import MarkdownIt
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from boardlab.ai.players import make_bot
from boardlab.core.errors import OptionError
from boardlab.core.game import Game
from boardlab.core.registry import game_class, game_ids, make
from boardlab.core.render_model import Piece, RenderModel
from boardlab.render.geometry import num
from boardlab.render.palette import seat_colour
from boardlab.render.pieces import piece_svg
from boardlab.web.guides import GUIDES, piece_text

DOCS = Path(__file__).resolve().parents[2] / "docs"
"""The repository's documents (the rules pages need a source checkout)."""

SPEC_LEFT_OUT = re.compile(r"Position text|Test facts")
"""Spec sections for programs, not players."""
READINGS = re.compile(r"Options|Interpretations|Spec notes")
"""The sections of ``docs/games/<game>.md`` a player may want."""
LOCAL_LINK = re.compile(r"(!?)\[([^\]]*)\]\((?!https?://)[^)]*\)")
FACES = {"light": "Mobile mode (pale)", "dark": "Attack mode (solid)"}
"""Words for the faces a piece shows (Colosseum Offcuts' two modes)."""
LEGEND_PLIES = 300
"""Plies of a seeded random game searched for piece kinds the start position lacks."""

VARIANT_MARK = "<!-- variant -->"
"""Where a rules page asked for with options lists them (:func:`variant_html`)."""

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def sections(text: str) -> list[tuple[str, str]]:
    """A Markdown document cut at its ``## `` headings: (title, body with its heading)."""
    parts = re.split(r"(?m)^(?=## )", text)
    return [(part.splitlines()[0][3:].strip(), part) for part in parts if part.startswith("## ")]


def render_markdown(text: str, shift: int = 0) -> str:
    """``text`` as HTML, raw HTML escaped, local links as their text, headings ``shift``
    levels down (the page has its own ``h1``)."""
    text = LOCAL_LINK.sub(lambda m: "" if m.group(1) else m.group(2), text)
    if shift:
        text = re.sub(r"(?m)^(#{1,5}) ", lambda m: "#" * (len(m.group(1)) + shift) + " ", text)
    html: str = _MARKDOWN.render(text)
    return html


def legend_pieces(game: Game) -> tuple[RenderModel, list[Piece]]:
    """The start position's model and one piece of every kind and face the game shows (seat
    0's where a kind belongs to seats), found in the start position and a seeded random game."""
    state = game.new_initial_state()
    model = state.render_model()
    bot = make_bot("random", game, 0)
    found: dict[tuple[str, str], Piece] = {}
    for _ in range(LEGEND_PLIES):
        drawn = state.render_model()
        pieces = [p for cell in drawn.cells for p in cell.stack]
        pieces += [p for pool in drawn.pools for p in pool.pieces]
        for piece in pieces:
            if piece.hidden or (piece.owner not in (None, 0)):
                continue
            found.setdefault((piece.kind, piece.face), piece)
        if state.is_terminal() or bot is None:
            break
        state.apply_action(bot.choose(state))
    return model, [
        Piece(p.owner, p.kind, p.label, p.face, shape=p.shape) for _, p in sorted(found.items())
    ]


def legend_html(game: Game) -> str:
    """The legend: each seat's colour, then each kind of piece drawn with what it is."""
    guide = GUIDES[game.id]
    model, pieces = legend_pieces(game)
    seats = "".join(
        f'<li><span class="swatch" style="background:{seat_colour(model, seat)}"></span>'
        f"{escape(name)}</li>"
        for seat, name in enumerate(model.players)
    )
    rows = []
    for piece in pieces:
        picture = "".join(piece_svg(model, piece, 0.0, 0.0, 0.8))
        name = piece.kind.replace("-", " ").capitalize()
        if piece.label:
            name = f"{piece.label}: {name}"
        if piece.face:
            name += f", {FACES.get(piece.face, piece.face)}"
        rows.append(
            f'<li class="legend-piece" data-kind="{escape(piece.kind)}">'
            f'<svg viewBox="{num(-1)} {num(-1)} {num(2)} {num(2)}" width="48" height="48" '
            f'role="img" '
            f'aria-label="{escape(name)}">{picture}</svg>'
            f"<div><strong>{escape(name)}</strong><br>"
            f"{escape(piece_text(guide, piece.kind, piece.face))}</div></li>"
        )
    return (
        '<h3>Colours</h3><ul class="legend-seats">' + seats + "</ul>"
        '<h3>Pieces</h3><ul class="legend">' + "".join(rows) + "</ul>"
    )


@cache
def rules_html(game_id: str) -> str:
    """The whole rules page of ``game_id`` (built once per server)."""
    game = make(game_id)
    guide = GUIDES[game_id]
    name = escape(game.name)
    spec = (DOCS / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
    readings = (DOCS / "games" / f"{game_id}.md").read_text(encoding="utf-8")
    rules = "".join(
        render_markdown(body, 1)
        for title, body in sections(spec)
        if not SPEC_LEFT_OUT.search(title)
    )
    notes = "".join(
        render_markdown(body, 1) for title, body in sections(readings) if READINGS.match(title)
    )
    hints = "".join(
        f"<li><strong>{escape(phase.capitalize())}:</strong> {escape(text)}</li>"
        for phase, text in guide.hints.items()
    )
    about = "".join(f"<p>{escape(text)}</p>" for text in guide.notes)
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Boardlab: {name} rules</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
  <script type="module" src="/static/account-nav.js"></script>
</head>
<body class="rules-page" data-game="{escape(game_id)}">
  <header class="top">
    <a class="brand" href="/">Boardlab</a>
    <h1>{name}: rules</h1>
    <a id="account-link" class="account-link" href="/account">Sign in</a>
  </header>
  <main class="rules">
    <p class="lead">{escape(game.summary)}</p>
    {VARIANT_MARK}
    <nav class="rules-nav" aria-label="On this page">
      <a href="#playing">Playing here</a> · <a href="#legend">Legend</a> ·
      <a href="#rules">Rules</a> · <a href="#readings">Readings and options</a> ·
      <a href="/">Lobby</a>
    </nav>
    <section id="playing" aria-labelledby="playing-title">
      <h2 id="playing-title">Playing here</h2>
      <ul class="hints">{hints}</ul>
      {about}
    </section>
    <section id="legend" aria-labelledby="legend-title">
      <h2 id="legend-title">Legend</h2>
      {legend_html(game)}
    </section>
    <section id="rules" class="markdown" aria-labelledby="rules-title">
      <h2 id="rules-title">Rules</h2>
      <p class="muted">The full specification this app plays by.</p>
      {rules}
    </section>
    <section id="readings" class="markdown" aria-labelledby="readings-title">
      <h2 id="readings-title">Readings and options</h2>
      <p class="muted">How this implementation reads the rules where they are unclear, and the
        options of the new-game form.</p>
      {notes}
    </section>
  </main>
</body>
</html>
"""


def variant_html(game: Game, given: Iterable[str]) -> str:
    """The box naming the ``given`` options of ``game`` that differ from the rules as they
    stand, each with its meaning (empty when none does)."""
    texts = dict(game.option_items())
    rows = "".join(
        f"<li><code>{escape(spec.key)} = {escape(texts[spec.key])}</code>: {escape(spec.help)}</li>"
        for spec in game.OPTIONS
        if spec.key in given and game.options[spec.key] != spec.default
    )
    if not rows:
        return ""
    return (
        '<section id="variant" class="variant-rules" aria-labelledby="variant-title">'
        '<h2 id="variant-title">This game\'s variant</h2>'
        "<p>These options change the rules below for the game you were sent here from:</p>"
        f"<ul>{rows}</ul></section>"
    )


async def rules_page(request: Request) -> Response:
    """``GET /rules/<game>``: the rules page of a game; options in the query string (a
    playtest's variant) are listed at the top, with what each changes (400 if one is not an
    option of the game or its value is not allowed)."""
    game_id = request.path_params["game"]
    if game_id not in game_ids():
        raise HTTPException(404, f"there is no game named {game_id!r}")
    query = request.query_params
    given = query.multi_items()
    if len(given) > len(game_class(game_id).OPTIONS) or len(given) != len(set(query)):
        raise HTTPException(400, "each option may be given once")
    try:
        variant = variant_html(make(game_id, **dict(query)), set(query))
    except OptionError as error:
        raise HTTPException(400, str(error)) from None
    try:
        page = rules_html(game_id)
    except FileNotFoundError:
        # An installed package has no docs/: the pages exist only in a source checkout.
        raise HTTPException(404, "the rules pages need the docs of a source checkout") from None
    return HTMLResponse(page.replace(VARIANT_MARK, variant, 1))
