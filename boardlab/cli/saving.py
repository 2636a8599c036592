"""Where a terminal game's record goes, and what of it may be written.

The keeper decides every write of a game in progress: the save target is checked before the
first move, an existing file is only replaced with consent, and while something is hidden
from a human seat only the last version every human could see is written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from boardlab.core.errors import SaveError
from boardlab.core.files import check_target
from boardlab.core.records import Record
from boardlab.core.state import State

Ask = Callable[[str], str]
"""Asks the person at the terminal a question; returns the answer."""

YES = ("y", "yes")


class RecordKeeper:
    """Saves one game's record: after every turn to the save target, and on request."""

    def __init__(self, record: Record, hiding: bool) -> None:
        self.record = record
        self.path: Path | None = None
        self.shareable = record.copy(0 if hiding else None)
        """The record as it stood when nothing was last hidden from any human seat."""

    def target(self, path: str, force: bool, ask: Ask | None) -> None:
        """Check ``path`` before the first move; an existing file needs ``force`` or a yes
        from ``ask`` (None when nobody can be asked)."""
        target = Path(path)
        if target.exists() and not target.is_dir() and not force:
            question = f"{target} already exists. Overwrite it? [y/N] "
            if ask is None or ask(question).strip().lower() not in YES:
                check_target(target, overwrite=False)
        self.path = check_target(target, overwrite=True)

    def seen(self, hiding: bool) -> None:
        """Note the record's current turns as writable unless something is hidden now."""
        if not hiding:
            self.shareable = self.record.copy()

    def autosave(self, state: State, hiding: bool) -> str | None:
        """Rewrite the save target (if any); returns a problem to tell the player, or None."""
        if self.path is None:
            return None
        try:
            self.write(self.path, state, hiding)
        except OSError as error:
            return f"cannot save to {self.path}: {error.strerror or error}"
        return None

    def write(self, path: Path, state: State, hiding: bool) -> None:
        """Write to ``path`` everything every human may see."""
        if hiding:
            self.shareable.resigned = self.record.resigned
            self.shareable.save(path)
        else:
            self.record.save(path, state)

    def save_to(self, path: str, state: State, hiding: bool, ask: Ask) -> tuple[bool, str]:
        """Save on request to ``path``, asking before replacing another file.

        Returns whether it was saved and a line saying what happened.
        """
        target = Path(path)
        try:
            if target.exists() and target != self.path and not target.is_dir():
                answer = ask(f"{target} already exists. Overwrite it? [y/N] ")
                if answer.strip().lower() not in YES:
                    return False, "not saved"
            check_target(target, overwrite=True)
            self.write(target, state, hiding)
        except (OSError, SaveError) as error:
            reason = error.strerror if isinstance(error, OSError) else str(error)
            return False, f"cannot save to {path}: {reason or error}"
        return True, f"saved the record to {path}"
