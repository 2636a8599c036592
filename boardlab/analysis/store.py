"""The run store: a run directory that loses nothing when a run is stopped, however abruptly.

Layout of a run directory::

    config.json     what determines the run's games (written once, atomically)
    games.jsonl     one JSON object per finished game, appended by one write per game
    records/        the game records, one file per game that kept one (atomic writes)

Guarantees:

* a game is in the store once its line is written: each line is handed to the operating
  system by one ``write(2)`` as the game ends (no buffer in this process), so Ctrl-C or SIGKILL
  of the run loses at most the games still being played (a line torn by a kill mid-write is
  cut off when the store is reopened); the file is also fsynced at least every
  ``SYNC_SECONDS`` and on close, so a crash of the machine itself (a power cut) loses at most
  the last few seconds (an fsync per game would cost more than a short game);
* :meth:`RunStore.open` refuses to mix runs: an existing run is only continued with
  ``resume=True`` and the same configuration (``games`` may grow: a resumed run continues to
  the new count); a mismatch is an :class:`~boardlab.core.errors.OptionError` naming the keys;
* no temporary file is left behind: records are written through a temporary file and a rename,
  and the temporary files of a killed run are removed on reopening.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from boardlab.core.errors import OptionError
from boardlab.core.files import write_atomic

CONFIG = "config.json"
GAMES = "games.jsonl"
RECORDS = "records"
SYNC_SECONDS = 5.0
GROWABLE = frozenset({"games"})
"""Config keys a resumed run may change: more games extend the same series."""


class RunStore:
    """An open run directory; use :meth:`open`, append rows with :meth:`append`, then close."""

    def __init__(
        self, path: Path, config: dict[str, Any], games: int, line: Callable[[object], bytes]
    ) -> None:
        self.path = path
        self.config = config
        self._games = games  # the games file's descriptor, opened for appending
        self._line = line  # a row as one JSON line, newline included
        self._synced = time.monotonic()

    @classmethod
    def open(cls, path: str | Path, config: Mapping[str, Any], resume: bool = False) -> RunStore:
        """Create the run at ``path``, or continue it when ``resume`` and the configs agree.

        ``config`` must be JSON data; it is stored as given (with ``games`` updated on resume).
        """
        try:
            # A run's games are stored faster than the standard library writes JSON (a fast
            # game's line took a tenth of its time); only runs need it, so it is not core.
            import orjson
        except ImportError:
            raise OptionError(
                "runs need the lab extra (orjson is missing): pip install 'boardlab[lab]'"
            ) from None
        root = Path(path)
        wanted = json.loads(json.dumps(config))
        config_path = root / CONFIG
        if config_path.exists():
            if not resume:
                raise OptionError(
                    f"{root} already holds a run; add --resume to continue it, "
                    "or choose another output directory"
                )
            stored = _read_config(config_path)
            differing = sorted(
                key
                for key in set(stored) | set(wanted)
                if key not in GROWABLE and stored.get(key) != wanted.get(key)
            )
            if differing:
                raise OptionError(
                    f"cannot resume {root}: its run differs in {', '.join(differing)}; "
                    "resume with the same settings, or choose another output directory"
                )
        elif root.exists() and any(root.iterdir()) and not resume:
            raise OptionError(f"{root} is not empty and holds no run; choose another directory")
        root.mkdir(parents=True, exist_ok=True)
        write_atomic(config_path, json.dumps(wanted, indent=2, sort_keys=True) + "\n")
        games = root / GAMES
        _cut_torn_line(games)
        _remove_temporaries(root)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
        line = functools.partial(orjson.dumps, option=orjson.OPT_APPEND_NEWLINE)
        return cls(root, wanted, os.open(games, flags, 0o666), line)

    def rows(self) -> list[dict[str, Any]]:
        """Every stored game, in the order they finished."""
        return list(read_rows(self.path))

    def append(self, row: dict[str, Any], record: str | None = None) -> str | None:
        """Store one finished game durably; ``record`` (a record's text) is saved first.

        The row's ``record`` field becomes the record file's path relative to the run, which
        is returned (None without a record).
        """
        if record is not None:
            name = f"{RECORDS}/{row['series']}-{int(row['index']) + 1}.txt"
            write_atomic(self.path / name, record)
            row = {**row, "record": name}
        line = self._line(row)
        written = os.write(self._games, line)
        while written < len(line):  # only a signal can cut a write to a regular file short
            written += os.write(self._games, line[written:])
        if time.monotonic() - self._synced >= SYNC_SECONDS:
            self._sync()
        return row.get("record")

    def _sync(self) -> None:
        os.fsync(self._games)
        self._synced = time.monotonic()

    def close(self) -> None:
        """Sync and close the games file."""
        try:
            self._sync()
        finally:
            os.close(self._games)

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_rows(path: str | Path) -> Iterator[dict[str, Any]]:
    """The game rows of the run at ``path``, skipping a torn last line; read-only."""
    games = Path(path) / GAMES
    if not games.exists():
        return
    with games.open(encoding="utf-8") as handle:
        for line in handle:
            if not line.endswith("\n"):
                return
            yield json.loads(line)


def read_config(path: str | Path) -> dict[str, Any]:
    """The stored configuration of the run at ``path``."""
    return _read_config(Path(path) / CONFIG)


def _read_config(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise OptionError(f"cannot read the run configuration {path}: {error}") from error
    if not isinstance(data, dict):
        raise OptionError(f"{path} is not a run configuration")
    return data


def _cut_torn_line(games: Path) -> None:
    """Cut a last line that a kill left half-written, so appends start on a fresh line."""
    if not games.exists():
        return
    with games.open("rb+") as handle:
        data = handle.read()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            handle.truncate(end)


def _remove_temporaries(root: Path) -> None:
    """Remove the temporary files of atomic writes that a kill interrupted."""
    for folder in (root, root / RECORDS):
        if folder.is_dir():
            for item in folder.glob(".*.*"):
                if item.is_file():
                    item.unlink()
