"""Typed exceptions: every kind of bad input has its own class and a message for the user."""

SHOWN = 200
"""At most this many characters of a user's input are echoed back in a message."""


def shown(text: str, limit: int = SHOWN) -> str:
    """``repr(text)``, cut to about ``limit`` characters so hostile input never floods a message."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text)} characters)"


def one_line(message: str, limit: int = 2 * SHOWN) -> str:
    """The first line of ``message``, cut to about ``limit`` characters, for the user to read."""
    stripped = message.strip()
    line = stripped.splitlines()[0] if stripped else "failed"
    return line if len(line) <= limit else f"{line[:limit]}…"


class BoardlabError(Exception):
    """Base class of every error Boardlab raises for bad input; its message is user-facing."""


class UnknownGameError(BoardlabError, KeyError):
    """No game is registered under the requested id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class OptionError(BoardlabError, ValueError):
    """An option key is unknown or its value is outside its allowed range."""


class NotationError(BoardlabError, ValueError):
    """A move string is not a well-formed decision in the game's notation."""


class IllegalMoveError(BoardlabError, ValueError):
    """A well-formed decision that is not legal in the current position."""


class PositionError(BoardlabError, ValueError):
    """A position text is malformed, not canonical or inconsistent."""


class RecordError(BoardlabError, ValueError):
    """A game record file is corrupt or holds an illegal move."""


class BotError(BoardlabError, RuntimeError):
    """A bot could not choose a decision (its search failed); no other move stands in."""


class SaveError(BoardlabError):
    """A file cannot be written where the user asked (checked before any work is done)."""
