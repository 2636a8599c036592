"""Option schemas: typed keys with defaults, parsed from text or Python values, validated."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from boardlab.core.errors import OptionError, shown

MAX_DIGITS = 30
"""Integer option values longer than this are refused before conversion."""

OptionValue = bool | int | str | None
Kind = Literal["bool", "int", "enum", "str"]


@dataclass(frozen=True)
class OptionSpec:
    """One option: its key, type, default and one-line meaning.

    ``default=None`` is allowed only for ``seed``-like ints that are drawn when the game is made.
    ``check`` validates free strings and returns an error message, or None when the value is fine.
    """

    key: str
    kind: Kind
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[str], str | None] | None = field(default=None, compare=False)

    def allowed(self) -> str:
        """Describe the allowed values, for error messages and ``boardlab games``."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "enum":
            return ", ".join(self.choices)
        if self.kind == "int":
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            if low and high:
                return f"an integer from {low} to {high}"
            if low:
                return f"an integer >= {low}"
            return "an integer"
        return "text"

    def parse(self, raw: object) -> OptionValue:
        """Convert ``raw`` (text or a Python value) to this option's type, or raise OptionError."""
        shown_raw = shown(raw) if isinstance(raw, str) else repr(raw)
        bad = OptionError(f"option {self.key}: bad value {shown_raw}; allowed: {self.allowed()}")
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if raw in ("true", "false"):
                return raw == "true"
            raise bad
        if self.kind == "int":
            if isinstance(raw, bool):
                raise bad
            if isinstance(raw, int):
                value = raw
            elif isinstance(raw, str) and _is_decimal(raw):
                value = int(raw)
            else:
                raise bad
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise bad
            return value
        if not isinstance(raw, str):
            raise bad
        if self.kind == "enum":
            if raw not in self.choices:
                raise bad
            return raw
        problem = self.check(raw) if self.check else None
        if problem:
            raise OptionError(f"option {self.key}: bad value {shown(raw)}: {problem}")
        return raw


def _is_decimal(text: str) -> bool:
    body = text[1:] if text.startswith("-") else text
    # Longer digit strings are far outside every option's range (and slow to convert).
    return body.isdigit() and body.isascii() and len(body) <= MAX_DIGITS


def format_value(value: OptionValue) -> str:
    """Write an option value as text, the inverse of :meth:`OptionSpec.parse`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def resolve_options(
    specs: Iterable[OptionSpec], given: Mapping[str, object]
) -> dict[str, OptionValue]:
    """Validate ``given`` against ``specs`` and fill in defaults; keys keep the schema's order."""
    by_key = {spec.key: spec for spec in specs}
    unknown = sorted(set(given) - set(by_key))
    if unknown:
        allowed = ", ".join(by_key) or "none"
        raise OptionError(f"unknown option {unknown[0]!r}; this game's options are: {allowed}")
    return {
        key: spec.parse(given[key]) if key in given else spec.default
        for key, spec in by_key.items()
    }


def parse_assignments(pairs: Iterable[str]) -> dict[str, str]:
    """Split ``KEY=VALUE`` strings, as given on the command line."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise OptionError(f"bad option {pair!r}: write it as KEY=VALUE")
        result[key] = value
    return result


REPETITION_DRAW = "repetition_draw"
MAX_PLIES = "max_plies"
SEED = "seed"


def repetition_option(default: int) -> OptionSpec:
    """The shared ``repetition_draw`` option (rules README §7)."""
    return OptionSpec(
        REPETITION_DRAW,
        "int",
        default,
        "Draw at the N-th occurrence of a position; 0 = off.",
        minimum=0,
    )


def max_plies_option(default: int) -> OptionSpec:
    """The shared ``max_plies`` option (rules README §7)."""
    return OptionSpec(
        MAX_PLIES,
        "int",
        default,
        "Draw when the ply counter reaches this value; 0 = off.",
        minimum=0,
    )


def seed_option(help_text: str) -> OptionSpec:
    """The shared ``seed`` option: drawn when the game is made if not given (rules README §4)."""
    return OptionSpec(SEED, "int", None, help_text)
