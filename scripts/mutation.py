"""Mutation testing of the critical areas with mutmut, one area at a time (docs/testing.md).

    .venv/bin/python scripts/mutation.py AREA [AREA ...]     # or --list
    .venv/bin/python scripts/mutation.py --survivors AREA    # the diffs of the survivors
    .venv/bin/python scripts/mutation.py --score AREA        # the last run's score again

Each area of ``[tool.boardlab.mutation]`` in ``pyproject.toml`` names the files to mutate, the
functions of them that matter (mutmut's mutant-name globs) and the tests that cover them. mutmut
runs in ``.mutation/AREA/``, a scratch folder whose ``pyproject.toml`` is the project's plus that
area's ``[tool.mutmut]`` table, with one worker under ``nice`` (the machine is shared), and
runs for each mutant only the tests of the area that reach the mutated function. The script
prints killed, survived and the rest, and the score over the mutants that are not listed as
equivalent in the area's ``equivalent`` list.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".mutation"
MUTMUT = [sys.executable, "-m", "mutmut"]


def areas() -> dict[str, dict[str, Any]]:
    """The areas of ``pyproject.toml``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: dict[str, dict[str, Any]] = project["tool"]["boardlab"]["mutation"]
    return found


def prepare(name: str, area: dict[str, Any]) -> Path:
    """The area's scratch folder: links to the code and tests, and its pyproject.toml."""
    folder = SCRATCH / name
    folder.mkdir(parents=True, exist_ok=True)
    for linked in ("boardlab", "tests"):
        link = folder / linked
        if not link.exists():
            link.symlink_to(ROOT / linked)
    settings = {
        "source_paths": ["boardlab"],
        "only_mutate": area["mutate"],
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-x"],
        "pytest_add_cli_args_test_selection": area["tests"],
        "timeout_multiplier": 2.0,
        "timeout_constant": 5.0,
    }
    table = "\n".join(f"{key} = {json.dumps(value)}" for key, value in settings.items())
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (folder / "pyproject.toml").write_text(f"{project}\n[tool.mutmut]\n{table}\n", "utf-8")
    return folder


def results(folder: Path) -> dict[str, str]:
    """Every mutant mutmut tried in ``folder`` and its status."""
    shown = subprocess.run(
        [*MUTMUT, "results", "--all", "true"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = {}
    for line in shown.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            found[name] = status
    return found


def wanted(name: str, area: dict[str, Any]) -> bool:
    """True for a mutant of one of the area's functions."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in area["functions"])


def run(name: str, area: dict[str, Any], niceness: int = 19) -> None:
    """Mutate the area afresh and print its score.

    mutmut keeps which tests reach which function and each mutant's result between runs, and
    does not notice tests added to a file it already knew; a run starts from nothing instead.
    """
    folder = prepare(name, area)
    shutil.rmtree(folder / "mutants", ignore_errors=True)
    mutmut = [*MUTMUT, "run", "--max-children", "1", *area["functions"]]
    command = ["nice", "-n", str(niceness), *mutmut]
    subprocess.run(command, cwd=folder, check=False, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    score(name, area)


def score(name: str, area: dict[str, Any]) -> None:
    """Print the score of the area's last run and the mutants it did not kill.

    The score is over the mutants the run tried: an interrupted run says how many it left.
    """
    found = {k: v for k, v in results(SCRATCH / name).items() if wanted(k, area)}
    equivalent = set(area.get("equivalent", []))
    counted = {k: v for k, v in found.items() if k not in equivalent and v != "not checked"}
    unrun = sum(v == "not checked" for v in found.values())
    killed = sum(v in ("killed", "timeout") for v in counted.values())
    survived = sorted(k for k, v in counted.items() if v not in ("killed", "timeout"))
    score = 100 * killed / len(counted) if counted else 100.0
    print(
        f"{name}: {len(found)} mutants, {len(found) - len(counted) - unrun} equivalent, "
        f"{unrun} not run, {killed} killed, {len(survived)} not killed: score {score:.1f}%"
    )
    for mutant in survived:
        print(f"  {counted[mutant]}: {mutant}")


def survivors(name: str, area: dict[str, Any]) -> None:
    """The diff of every mutant of the area that was tried and not killed."""
    folder = SCRATCH / name
    equivalent = set(area.get("equivalent", []))
    for mutant, status in sorted(results(folder).items()):
        counted = wanted(mutant, area) and mutant not in equivalent
        if counted and status not in ("killed", "timeout", "not checked"):
            print(f"# {status}", flush=True)
            subprocess.run([*MUTMUT, "show", mutant], cwd=folder, check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("areas", nargs="*", help="areas to mutate (default: every one)")
    parser.add_argument("--list", action="store_true", help="list the areas and stop")
    parser.add_argument("--survivors", action="store_true", help="show the last run's survivors")
    parser.add_argument("--score", action="store_true", help="the last run's score, no new run")
    parser.add_argument(
        "--nice", type=int, default=19, help="niceness of the run (default 19: a shared machine)"
    )
    args = parser.parse_args()
    known = areas()
    if args.list:
        for name, area in known.items():
            print(f"{name}: {', '.join(area['mutate'])} <- {' '.join(area['tests'])}")
        return 0
    unknown = [name for name in args.areas if name not in known]
    if unknown:
        parser.error(f"unknown area {unknown[0]!r}; areas: {', '.join(known)}")
    for name in args.areas or list(known):
        if args.survivors:
            survivors(name, known[name])
        elif args.score:
            score(name, known[name])
        else:
            run(name, known[name], args.nice)
    return 0


if __name__ == "__main__":
    sys.exit(main())
