"""The one place the web app turns a position into SVG (the shared renderer draws it)."""

from __future__ import annotations

import functools

from boardlab.core.render_model import RenderModel
from boardlab.render.svg import render_svg

PICTURES_KEPT = 512


@functools.lru_cache(maxsize=PICTURES_KEPT)
def picture(model: RenderModel) -> str:
    """The SVG of a render model (already made for the view of the client it goes to).

    Models are immutable values, so the same model (the same position seen the same way, e.g.
    by both seats of a game without hidden information) is drawn once.
    """
    return render_svg(model)
