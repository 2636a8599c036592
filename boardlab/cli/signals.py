"""Hang-ups and termination requests as exceptions, so they stop a command as cleanly as Ctrl-C."""

from __future__ import annotations

import signal
from collections.abc import Callable
from types import FrameType
from typing import Any

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None

STOP_SIGNALS = (signal.SIGHUP, signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """The terminal hung up (SIGHUP) or the process was asked to end (SIGTERM).

    It is a KeyboardInterrupt, so every place that already stops cleanly on Ctrl-C (saving
    the game, printing the partial match summary, ending worker processes) does so here too.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


def install_stop_handlers() -> dict[int, Handler]:
    """Turn SIGHUP and SIGTERM into :class:`Stopped`; returns the handlers to restore."""
    previous: dict[int, Handler] = {}
    for signum in STOP_SIGNALS:
        try:
            previous[signum] = signal.signal(signum, _stop)
        except ValueError:
            # Not the main thread (main() called from a worker thread): leave them be.
            break
    return previous


def restore_handlers(previous: dict[int, Handler]) -> None:
    """Put back the handlers :func:`install_stop_handlers` replaced."""
    for signum, handler in previous.items():
        signal.signal(signum, handler)
