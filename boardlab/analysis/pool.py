"""The local process pool that plays a match's games: bounded in every direction.

* at most one worker per game and per CPU, whatever ``--jobs`` asks for;
* at most a few tasks queued per worker, so a match of a billion games needs no more memory
  than a match of ten;
* workers leave Ctrl-C and hang-ups to the parent, which ends them, and a worker whose parent
  has gone (even by SIGKILL) exits within a second instead of playing on or hanging.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing.process import BaseProcess as Process
from typing import TypeVar

R = TypeVar("R")

QUEUED_PER_WORKER = 2
"""Tasks submitted ahead per worker: enough to keep workers busy, few enough to stay small."""

ORPHAN_CHECK_SECONDS = 0.5


def cpu_count() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def worker_count(jobs: int, tasks: int) -> int:
    """Processes to start for ``tasks`` tasks when ``jobs`` are asked for."""
    return max(1, min(jobs, tasks, cpu_count()))


def imap_unordered(function: Callable[[int], R], tasks: int, jobs: int) -> Generator[R, None, None]:
    """``function(i)`` for i in ``range(tasks)``, in completion order, on up to ``jobs`` workers.

    ``function`` must be picklable (a module-level function or a partial of one). Closing the
    iterator early (or an exception in the caller's loop after ``close()``) ends the workers.
    """
    workers = worker_count(jobs, tasks)
    if workers <= 1:
        yield from map(function, range(tasks))
        return
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_worker_setup, initargs=(os.getpid(),)
    )
    indices = iter(range(tasks))
    pending: set[Future[R]] = set()
    try:
        for index in itertools.islice(indices, workers * QUEUED_PER_WORKER):
            pending.add(pool.submit(function, index))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for index in itertools.islice(indices, 1):
                    pending.add(pool.submit(function, index))
                yield future.result()
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop at once rather than finish the games under way."""
    # The executor has no public way to end running workers before Python 3.14.
    processes: dict[int, Process] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _worker_setup(parent: int) -> None:
    """Leave Ctrl-C to the parent, end at once on SIGTERM, and die with the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's Python handlers; SIGTERM must simply end it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(1)
