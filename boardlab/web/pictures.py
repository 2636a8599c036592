"""The one place the web app turns a position into SVG (the shared renderer draws it)."""

from __future__ import annotations

from boardlab.core.render_model import RenderModel
from boardlab.render.svg import render_svg


def picture(model: RenderModel) -> str:
    """The SVG of a render model (already made for the view of the client it goes to).

    Not kept here: a session keeps the pictures of its current position (``MatchSession.
    drawing``), and the renderer keeps the drawing of each cell. Kept models would hold tens
    of thousands of objects that every full garbage collection of the event loop scans.
    """
    return render_svg(model)
