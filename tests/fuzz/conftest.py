"""On a failed fuzz test, the seed that replays the run (its inputs are fresh on every run)."""

from __future__ import annotations

from collections.abc import Generator

import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    seed = getattr(getattr(item, "module", None), "FUZZ_SEED", None)
    if report.failed and seed is not None:
        report.sections.append(
            ("fuzz seed", f"replay with: BOARDLAB_FUZZ_SEED={seed} pytest '{item.nodeid}'")
        )
    return report
