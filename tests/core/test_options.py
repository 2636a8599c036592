"""Option schemas: parsing from text and Python values, defaults, and the errors for bad input."""

from __future__ import annotations

import pytest

from boardlab.core.errors import OptionError
from boardlab.core.options import OptionSpec, parse_assignments, resolve_options

SPECS = (
    OptionSpec("flag", "bool", True, "a flag"),
    OptionSpec("count", "int", 3, "a count", minimum=0, maximum=9),
    OptionSpec("mode", "enum", "a", "a mode", choices=("a", "b_c")),
    OptionSpec("text", "str", "x", "free text", check=lambda v: None if v else "empty"),
)


def test_defaults_fill_every_key_in_schema_order() -> None:
    assert resolve_options(SPECS, {}) == {"flag": True, "count": 3, "mode": "a", "text": "x"}


def test_values_parse_from_text_and_from_python() -> None:
    given = {"flag": "false", "count": "9", "mode": "b_c", "text": "yes"}
    assert resolve_options(SPECS, given) == {
        "flag": False,
        "count": 9,
        "mode": "b_c",
        "text": "yes",
    }
    assert resolve_options(SPECS, {"flag": False, "count": 0})["count"] == 0


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("flag", "yes", "true or false"),
        ("count", "10", "from 0 to 9"),
        ("count", "-1", "from 0 to 9"),
        ("count", "3.5", "integer"),
        ("count", True, "integer"),
        ("mode", "c", "a, b_c"),
        ("text", "", "empty"),
    ],
)
def test_bad_values_name_what_is_allowed(key: str, value: object, allowed: str) -> None:
    with pytest.raises(OptionError, match=allowed):
        resolve_options(SPECS, {key: value})


def test_unknown_keys_are_errors_that_list_the_known_ones() -> None:
    with pytest.raises(OptionError, match="flag, count, mode, text"):
        resolve_options(SPECS, {"colour": "red"})


def test_command_line_assignments() -> None:
    assert parse_assignments(["a=1", "b=x=y"]) == {"a": "1", "b": "x=y"}
    with pytest.raises(OptionError, match="KEY=VALUE"):
        parse_assignments(["novalue"])
