"""Pictures from the command line: ``show --svg/--png/--format svg`` and ``replay --svg``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from boardlab.core.errors import OptionError
from boardlab.core.records import Record
from boardlab.core.render_model import SPECTATOR, ClickPath, RenderModel
from boardlab.core.state import State
from boardlab.render.files import PictureError, svg_to_png, write_picture
from boardlab.render.svg import render_svg


def add_show_options(parser: argparse.ArgumentParser) -> None:
    """The picture options of ``show``."""
    parser.add_argument("--svg", metavar="FILE", help="also write the board as an SVG picture")
    parser.add_argument(
        "--png", metavar="FILE", help="also write a PNG picture (needs the png extra)"
    )
    parser.add_argument(
        "--format",
        choices=("text", "svg"),
        default="text",
        help="print the board as text (default) or as an SVG document",
    )
    parser.add_argument(
        "--view", metavar="SEAT", help="draw what seat SEAT (a name, or 'spectator') may see"
    )
    parser.add_argument("--flip", action="store_true", help="turn the picture half round")


def model_of(
    state: State, view: int | None = None, last_turn: Sequence[ClickPath] = ()
) -> RenderModel:
    """The render model of ``state``, or a one-line error for a game that has none yet."""
    try:
        return state.render_model(view=view, last_turn=last_turn)
    except NotImplementedError as error:
        raise PictureError(f"{state.game.id} cannot be drawn yet: {error}") from error


def seat_of(state: State, name: str | None) -> int | None:
    """The seat named ``name`` (case-insensitive; ``spectator`` for nobody), None for none."""
    if name is None:
        return None
    names = state.game.player_names
    if name.lower() == "spectator":
        return SPECTATOR
    for seat, seat_name in enumerate(names):
        if seat_name.lower() == name.lower():
            return seat
    raise OptionError(f"unknown seat {name!r} for --view: choose {', '.join(names)} or spectator")


def show_pictures(state: State, args: argparse.Namespace) -> str | None:
    """Write the pictures ``show`` was asked for; returns the SVG when it goes to stdout."""
    view = seat_of(state, args.view)
    if args.svg is None and args.png is None and args.format == "text":
        return None
    svg = render_svg(model_of(state, view), flip=args.flip)
    if args.svg is not None:
        write_picture(args.svg, svg)
    if args.png is not None:
        write_picture(args.png, svg_to_png(svg))
    return svg if args.format == "svg" else None


def replay_pictures(record: Record, directory: str) -> int:
    """Write ``turn-N.svg`` for the start and after each turn, the last turn marked."""
    state = record.start_state()
    digits = max(3, len(str(len(record.turns))))
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise PictureError(f"cannot write pictures to {directory!r}: it is not a folder")
    write_picture(folder / f"turn-{0:0{digits}}.svg", render_svg(model_of(state)))
    for number, turn in enumerate(record.turns, 1):
        paths = []
        for decision in turn.decisions:
            action = state.parse_action(decision)
            paths.append(state.click_path(action))
            state.apply_action(action)
        svg = render_svg(model_of(state, last_turn=paths))
        write_picture(folder / f"turn-{number:0{digits}}.svg", svg)
    return len(record.turns) + 1
