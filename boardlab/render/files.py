"""Writing pictures to files: SVG as text, PNG through the optional ``cairosvg`` library.

PNG export needs the ``png`` extra (``pip install 'boardlab[png]'``), which brings cairosvg;
it draws with the system's cairo library (Debian: ``libcairo2``) and needs no browser.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from boardlab.core.errors import BoardlabError

PNG_HINT = "PNG export needs cairosvg: pip install 'boardlab[png]'"


class PictureError(BoardlabError):
    """A picture cannot be made or written (no PNG library, an unwritable path)."""


def svg_to_png(svg: str, scale: float = 1.5) -> bytes:
    """The PNG image of an SVG document, ``scale`` times its own pixel size (1.5: crisp)."""
    try:
        cairosvg = importlib.import_module("cairosvg")
    except (ImportError, OSError) as error:
        # OSError: the package is there but the system's cairo library is not.
        raise PictureError(f"{PNG_HINT} ({error})") from error
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return png


def write_picture(path: str | Path, data: str | bytes) -> None:
    """Write an SVG text or PNG bytes atomically; a failure is a one-line PictureError."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # A plain open (not mkstemp) so the picture gets the usual permissions of new files.
        temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            temp.write_bytes(payload)
            os.replace(temp, target)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
    except OSError as error:
        reason = error.strerror or str(error)
        raise PictureError(f"cannot write {str(path)!r}: {reason}") from error
