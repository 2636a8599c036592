"""Colours of the pictures: seats, board cells, marks and text.

Seat colours come from the Okabe-Ito palette, which stays distinct under the common kinds of
colour blindness; a model may name its own (``RenderModel.seat_colours``).
"""

from __future__ import annotations

from boardlab.core.render_model import RenderModel

SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#F0E442")
"""Okabe-Ito blue, vermillion, bluish green, reddish purple and yellow, by seat."""

NEUTRAL = "#8C8273"
"""Pieces that belong to no seat (a Cyvasse mountain, an eliminated seat's counters)."""

PAGE = "#FBF8F1"
FRAME = "#6E5637"
GRID = "#A08B66"
INK = "#2A2420"
MUTED = "#6B5D45"
OUTLINE = "#1F1B17"
LAST = "#F5B700"
HIGHLIGHT = "#111111"
ARROW = "#1B3A57"

TONES = ("#EEE2C8", "#E2D1AE", "#D6C196")
"""Fills of normal cells; neighbouring cells take different tones where the grid allows."""

KIND_FILLS = {
    "centre": "#D9BC72",
    "bonus": "#F2CF63",
    "blocked": "#6F675C",
    "mountain": "#A89C8A",
    "hidden": "#B9B6B0",
    "zone": "#EEE2C8",
    "home": "#EEE2C8",
}
"""Fills of the special cell kinds; a kind not listed is drawn as a normal cell."""

_NAMED = {"black": (0, 0, 0), "white": (255, 255, 255)}


def seat_colour(model: RenderModel, owner: int | None) -> str:
    """The fill of a piece of ``owner`` (None: neutral)."""
    if owner is None:
        return NEUTRAL
    if owner < len(model.seat_colours):
        return model.seat_colours[owner]
    return SEAT_COLOURS[owner % len(SEAT_COLOURS)]


def rgb(colour: str) -> tuple[int, int, int] | None:
    """The red, green and blue of a ``#rgb``/``#rrggbb`` colour or a few names, else None."""
    text = colour.strip().lower()
    if text in _NAMED:
        return _NAMED[text]
    if text.startswith("#") and len(text) in (4, 7):
        digits = text[1:] if len(text) == 7 else "".join(c * 2 for c in text[1:])
        try:
            value = int(digits, 16)
        except ValueError:
            return None
        return value >> 16, (value >> 8) & 0xFF, value & 0xFF
    return None


def is_dark(colour: str) -> bool | None:
    """Whether text on ``colour`` should be light (None: the colour is not understood)."""
    channels = rgb(colour)
    if channels is None:
        return None

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in channels)
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    # The luminance where black and white text contrast equally with the fill.
    return luminance < 0.179


def text_on(colour: str) -> str:
    """A text colour that reads on a ``colour`` fill (white when the fill is unknown)."""
    return "#FFFFFF" if is_dark(colour) in (True, None) else INK
