"""The mutants ``scripts/mutation.py`` makes where mutmut makes none (scripts/own_mutants.py)."""

from __future__ import annotations

from scripts.own_mutants import ALL, MISSING, mutants

SOURCE = b'''\
"""A module."""

LIMIT = 3


def clamp(x: int, low: int = 1) -> int:
    """Keep x within reach."""
    if x < low:
        return low
    return min(x, LIMIT)


@decorated
def compiled(a: int, b: int) -> int:
    while a and b:
        a -= 1
        break
    return max(a + b, not b)


class Clock:
    @property
    def left(self) -> int:
        return 2 * 3
'''


def changed(kinds: str) -> dict[str, str]:
    """Each mutant's name and the line it changes, as changed."""
    found = {}
    for mutant in mutants(SOURCE, "toy.py", "toy", kinds):
        lines = mutant.diff(SOURCE).splitlines()
        found[mutant.name] = "\n".join(line[1:].strip() for line in lines[3:] if line[0] == "+")
    return found


def test_outside_decorated_functions_only_the_kinds_mutmut_misses_are_made() -> None:
    made = changed(MISSING)
    clamp = {name: text for name, text in made.items() if "x_clamp" in name}
    assert sorted(clamp.values()) == sorted(
        ["if True:", "if False:", "pass", "return max(x, LIMIT)"]
    )
    assert all(name.startswith("toy.x_clamp__own_") for name in clamp)


def test_a_decorated_function_gets_every_kind_as_mutmut_would_give_it() -> None:
    made = changed(MISSING).values()
    for text in (
        "while a or b:",
        "a += 1",
        "a -= 2",
        "continue",
        "return min(a + b, not b)",
        "return max(a - b, not b)",
        "return max(a + b, b)",
    ):
        assert text in made, text
    assert "if x <= low:" not in made  # mutmut makes that one itself
    assert {"return 3 * 3", "return 2 * 4", "return 2 / 3"} <= set(made)


def test_every_kind_everywhere_and_module_constants_with_all() -> None:
    made = changed(ALL)
    assert made["toy.x_LIMIT__own_1"] == "LIMIT = 4"
    assert "if x <= low:" in made.values()


def test_docstrings_annotations_and_defaults_are_left_alone() -> None:
    made = " ".join(changed(ALL).values())
    assert "Keep" not in made and "low: int = 2" not in made and "int = 1" not in made


def test_every_mutant_compiles_and_changes_one_place() -> None:
    for mutant in mutants(SOURCE, "toy.py", "toy", ALL):
        changed_source = mutant.apply(SOURCE)
        compile(changed_source, "toy.py", "exec")
        assert changed_source != SOURCE
        assert changed_source[: mutant.start] == SOURCE[: mutant.start]
