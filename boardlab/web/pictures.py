"""The one place the web app turns a position into SVG (the shared renderer draws it)."""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.core.render_model import ClickPath
from boardlab.core.state import State
from boardlab.render.svg import render_svg


def picture(state: State, view: int, last_turn: Sequence[ClickPath] = ()) -> str:
    """``state`` as seat ``view`` (or the spectator) may see it, the last turn marked."""
    return render_svg(state.render_model(view=view, last_turn=last_turn))
