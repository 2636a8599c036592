"""Runners: play independent tasks in parallel and hand back each result as it finishes.

:func:`run_tasks` is the one entry point. Backends:

* ``local`` (default): ``jobs == 1`` plays in this process; more jobs use a process pool whose
  workers ignore Ctrl-C (the parent decides) and die with their parent (Linux
  ``PR_SET_PDEATHSIG``), so a killed run leaves no orphan playing on;
* ``ray``: the tasks run as Ray remote functions on a local Ray instance or the cluster at
  ``address`` (needs the ``boardlab[ray]`` extra).

Guarantees, whatever the backend: tasks are taken from the iterable lazily (at most a few per
worker in flight, so memory stays flat for any number of tasks); results come back in the order
they finish, so a caller that needs an order sorts them; the number of workers is capped at
``min(jobs, tasks, CPUs)``. A task's result depends only on the task, which is what makes runs
reproducible across job counts and backends. On Ctrl-C or a failing task the workers are
stopped at once and the exception propagates: results already yielded are the caller's.
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from boardlab.core.errors import OptionError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
IN_FLIGHT_PER_WORKER = 2
"""Tasks queued per worker: enough to keep workers busy, few enough to keep memory flat."""
_PR_SET_PDEATHSIG = 1


def cpu_count() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(jobs: int, tasks: int | None) -> int:
    """``min(jobs, tasks, CPUs)``, at least 1; ``tasks`` None when unknown."""
    count = min(jobs, cpu_count())
    if tasks is not None:
        count = min(count, tasks)
    return max(1, count)


def run_tasks(
    play: Callable[[T], R],
    tasks: Iterable[T],
    jobs: int = 1,
    total: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Generator[R]:
    """Yield ``play(task)`` for every task, in the order the results finish.

    ``play`` must be a module-level function (workers import it); ``total`` is the number of
    tasks when known, to cap the workers. ``address`` is the Ray cluster to join (None: start
    a local Ray instance). Raises OptionError for bad arguments at once, and for a missing
    Ray when iteration starts. Closing the generator early stops the workers.
    """
    if jobs < 1:
        raise OptionError(f"bad --jobs {jobs}: it must be an integer >= 1")
    if backend == "ray":
        # A cluster's CPUs are not this machine's: there only the task count caps the jobs.
        workers = worker_count(jobs, total) if address is None else min(jobs, total or jobs)
        return _run_ray(play, tasks, max(1, workers), address)
    if backend != "local":
        raise OptionError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    if address is not None:
        raise OptionError("--address needs --backend ray")
    workers = worker_count(jobs, total)
    if workers == 1:
        return (play(task) for task in tasks)
    return _run_pool(play, tasks, workers)


def _run_pool(play: Callable[[T], R], tasks: Iterable[T], workers: int) -> Generator[R]:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
    pending: set[Future[R]] = set()
    source = iter(tasks)
    limit = workers * IN_FLIGHT_PER_WORKER
    try:
        pending.update(pool.submit(play, task) for task in islice(source, limit))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            pending.update(pool.submit(play, task) for task in islice(source, len(done)))
            for future in done:
                yield future.result()
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop at once rather than finish the tasks under way."""
    # The executor has no public way to end running workers before Python 3.14.
    processes: dict[int, BaseProcess] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent and die when the parent dies (even by SIGKILL)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits the parent's Python handlers; SIGTERM and SIGHUP must end it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return
    if os.getppid() == 1:  # the parent died before the request took effect
        os._exit(1)


def _run_ray(
    play: Callable[[T], R], tasks: Iterable[T], workers: int, address: str | None
) -> Generator[R]:
    try:
        import ray
    except ImportError:
        raise OptionError("--backend ray needs Ray: pip install 'boardlab[ray]'") from None
    started = not ray.is_initialized()
    if started and address is None:
        # A local instance stays on the loopback interface: nothing listens on the network.
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            log_to_driver=False,
            _node_ip_address="127.0.0.1",
        )
    elif started:
        ray.init(address=address, log_to_driver=False)
    remote: Any = ray.remote(play)
    source = iter(tasks)
    limit = workers * IN_FLIGHT_PER_WORKER
    pending = [remote.remote(task) for task in islice(source, limit)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            pending += [remote.remote(task) for task in islice(source, len(done))]
            for ref in done:
                yield ray.get(ref)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
