"""Stop signals held while work that must not be cut in two is done (``stop_signals_held``: a
file written and renamed, a game stored and counted): Ctrl-C acts once the block ends, never
inside it, also while other threads run (a process pool's), to which the kernel hands a signal
that the main thread holds back."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from boardlab.core.files import stop_signals_held


@contextmanager
def ctrl_c_raises() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt in the block (a test runner in the background may
    ignore it)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def another_thread() -> Iterator[None]:
    """A second thread waiting in the process for as long as the block runs."""
    done = threading.Event()
    thread = threading.Thread(target=done.wait)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def test_ctrl_c_in_the_block_acts_when_the_block_ends() -> None:
    steps = []
    with ctrl_c_raises(), pytest.raises(KeyboardInterrupt), another_thread(), stop_signals_held():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.5)  # time for the signal to reach a thread, and for Python's handler
        steps.append("the block ended")
    assert steps == ["the block ended"]
    # The handlers are back: Ctrl-C acts at once after the block.
    with ctrl_c_raises(), pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
