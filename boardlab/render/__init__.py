"""Pictures of positions: the one SVG renderer that draws any game's render model.

>>> from boardlab.render import render_svg  # doctest: +SKIP
>>> svg = render_svg(state.render_model(), flip=False, highlights=["c3"])  # doctest: +SKIP
"""

from boardlab.render.svg import render_svg

__all__ = ["render_svg"]
