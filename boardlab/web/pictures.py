"""The one place the web app turns a position into SVG (the shared renderer draws it)."""

from __future__ import annotations

from boardlab.core.render_model import RenderModel
from boardlab.render.svg import render_svg


def picture(model: RenderModel) -> str:
    """The SVG of a render model (already made for the view of the client it goes to)."""
    return render_svg(model)
