"""Safe file writes: the one place that decides whether a target may be written, and how.

Every file Boardlab writes goes through :func:`write_atomic`: a temporary file in the same
folder, flushed to disk, then renamed over the target, so a reader (or a crash) sees either the
old file or the new one, never half of one. :func:`check_target` is asked before any work
starts (before the first move of a game, before the first game of a match), so a path that
cannot be written is reported at once, not after the work is done.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

from boardlab.core.errors import SaveError

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}


def _umask() -> int:
    # The process umask can only be read by setting it; set it straight back.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path``; on failure the old file (if any) is left untouched.

    The new file gets the permissions an ordinary ``open`` would give it (0666 less the
    umask), not the private mode of the temporary file it was written as. ``durable`` also
    flushes it to disk before the rename, so even a power cut keeps the old or the new file;
    without it the temporary file exists for microseconds only, which matters to writers that
    may be killed at any moment (a match saving many records).
    """
    # Through a symbolic link to the file it names, as an editor would, not over the link.
    target = Path(path).resolve() if Path(path).is_symlink() else Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Ctrl-C, a hang-up or SIGTERM waits until the file is whole: a stop signal arriving between
    # creating the temporary file and handling its failure would otherwise leave it behind.
    with stop_signals_held():
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            os.fchmod(handle, 0o666 & ~_umask())
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                if durable:
                    out.flush()
                    os.fsync(out.fileno())
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGHUP and SIGTERM (main thread only) until the block ends; then they act."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # The handlers are swapped for one that notes the signal, rather than the signals masked:
    # the kernel hands a signal the main thread masks to another thread (a process pool's),
    # and Python runs the handler in the main thread all the same.
    caught: list[int] = []
    held: dict[signal.Signals, Callable[[int, FrameType | None], object] | int] = {}
    try:
        for stop in STOP_SIGNALS:
            handler = signal.getsignal(stop)
            if handler is not None:  # None: set outside Python, left alone
                held[stop] = handler
                signal.signal(stop, lambda signum, frame: caught.append(signum))
        yield
    finally:
        for stop, handler in held.items():
            signal.signal(stop, handler)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


def check_target(path: str | Path, *, overwrite: bool) -> Path:
    """Check before any work that ``path`` can be written; returns it.

    Raises SaveError when the path is a folder or another non-file, when its folder does not
    exist (a mistyped folder is not created) or cannot be written (tried with a real temporary
    file), or when the file exists and ``overwrite`` is False.
    """
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise SaveError(f"cannot save to {str(target)!r}: there is no folder {str(folder)!r}")
    if target.is_dir():
        raise SaveError(f"cannot save to {str(target)!r}: it is a folder")
    if target.exists() and not target.is_file():
        # A device or pipe: renaming a file over it would replace it, not write to it.
        raise SaveError(f"cannot save to {str(target)!r}: it is not a regular file")
    if target.exists() and not overwrite:
        raise SaveError(
            f"{str(target)!r} already exists; use --force to overwrite it or choose another file"
        )
    check_folder(folder)
    return target


def check_folder(folder: str | Path) -> Path:
    """Create ``folder`` if needed and check that files can be written in it; returns it."""
    where = Path(folder)
    try:
        where.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".boardlab-probe.", dir=where)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        reason = error.strerror or str(error)
        raise SaveError(f"cannot write in {str(where)!r}: {reason}") from None
    return where
