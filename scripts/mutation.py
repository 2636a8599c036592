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

mutmut leaves out decorated functions (Numba kernels, properties) and some kinds of change;
``scripts/own_mutants.py`` makes those, runs the area's tests against each in a copy of the
package and adds them to the score. An area whose code mutmut cannot reach at all (compiled
kernels, templates run from a copy) sets ``tool = "own"``; ``env`` sets environment variables
for its tests (``NUMBA_DISABLE_JIT = "1"`` for compiled code) and ``sample`` draws that many of
its own mutants (a fixed random sample; mutmut's all run) where trying all would take hours.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

from own_mutants import ALL, MISSING, Mutant, mutants

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
    if area.get("tool", "mutmut") == "mutmut":
        mutmut = [*MUTMUT, "run", "--max-children", "1", *area["functions"]]
        command = ["nice", "-n", str(niceness), *mutmut]
        env = {**os.environ, **area.get("env", {}), "PYTHONUNBUFFERED": "1"}
        subprocess.run(command, cwd=folder, check=False, env=env)
    run_own(name, area, niceness)
    score(name, area)


def own_mutants(area: dict[str, Any]) -> list[Mutant]:
    """The area's mutants that mutmut does not make (all of them for ``tool = "own"``): of its
    functions, not listed as equivalent, ``sample`` of them at most."""
    kinds = ALL if area.get("tool", "mutmut") == "own" else MISSING
    equivalent = set(area.get("equivalent", []))
    made = []
    for path in area["mutate"]:
        module = path.removesuffix(".py").replace("/", ".")
        found = mutants((ROOT / path).read_bytes(), path, module, kinds)
        made += [m for m in found if wanted(m.name, area) and m.name not in equivalent]
    if "sample" in area and len(made) > area["sample"]:
        made = sorted(random.Random(38).sample(made, area["sample"]), key=lambda m: m.name)
    return made


def _own_tests(folder: Path, area: dict[str, Any], niceness: int, timeout: float) -> str:
    """Run the area's tests in ``folder`` (a copy of the package): ``killed``, ``survived``
    or ``timeout``."""
    command = ["nice", "-n", str(niceness), sys.executable, "-m", "pytest"]
    command += ["-x", "-p", "no:cacheprovider", *area["tests"]]
    env = {**os.environ, **area.get("env", {}), "PYTHONPATH": str(folder)}
    if env.get("NUMBA_DISABLE_JIT") == "1":
        # Each mutant is a new digest of the compiled sources: its copies of the templates go
        # to a cache of the run's own, not one directory per mutant in the user's.
        env["XDG_CACHE_HOME"] = str(folder / "cache")
    try:
        done = subprocess.run(
            command, cwd=folder, env=env, capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if done.returncode == 0 else "killed"


def run_own(name: str, area: dict[str, Any], niceness: int) -> None:
    """Run each of the area's own mutants (:func:`own_mutants`) against the area's tests, in a
    copy of the package under ``.mutation/AREA/own``; the statuses and the diffs of the mutants
    not killed go to ``.mutation/AREA/own.json``."""
    made = own_mutants(area)
    folder = SCRATCH / name / "own"
    shutil.rmtree(folder, ignore_errors=True)
    skipped = shutil.ignore_patterns("__pycache__", "*.pyc", "artifacts")
    for part in ("boardlab", "tests"):
        shutil.copytree(ROOT / part, folder / part, ignore=skipped)
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    found: dict[str, dict[str, str]] = {}
    record = SCRATCH / name / "own.json"
    # The first run fills the copy's caches (Numba's, keyed on the source paths); the second
    # is what a mutant's run takes.
    for _ in range(2):
        started = time.monotonic()
        if _own_tests(folder, area, niceness, 3600.0) != "survived":
            raise SystemExit(f"{name}: the area's tests fail without a mutant (in {folder})")
    timeout = 3 * (time.monotonic() - started) + 30.0  # a hang, not a loaded machine
    print(f"{name}: {len(made)} own mutants, {timeout:.0f} s each at most", flush=True)
    for number, mutant in enumerate(made, 1):
        target = folder / mutant.path
        source = target.read_bytes()
        target.write_bytes(mutant.apply(source))
        try:
            status = _own_tests(folder, area, niceness, timeout)
        finally:
            target.write_bytes(source)
        found[mutant.name] = {"status": status, "diff": mutant.diff(source)}
        print(f"  {number}/{len(made)} {status}: {mutant.name}", flush=True)
        record.write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")
    record.write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")


def own_results(name: str) -> dict[str, dict[str, str]]:
    """The last run's own mutants of the area: status and diff of each."""
    record = SCRATCH / name / "own.json"
    if not record.exists():
        return {}
    found: dict[str, dict[str, str]] = json.loads(record.read_text(encoding="utf-8"))
    return found


def score(name: str, area: dict[str, Any]) -> None:
    """Print the score of the area's last run and the mutants it did not kill.

    The score is over the mutants the run tried: an interrupted run says how many it left.
    """
    found = {}
    if area.get("tool", "mutmut") == "mutmut":
        found = {k: v for k, v in results(SCRATCH / name).items() if wanted(k, area)}
    found |= {k: v["status"] for k, v in own_results(name).items()}
    found |= {k: "equivalent" for k in area.get("equivalent", [])}
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
    if area.get("tool", "mutmut") == "mutmut":
        for mutant, status in sorted(results(folder).items()):
            counted = wanted(mutant, area) and mutant not in equivalent
            if counted and status not in ("killed", "timeout", "not checked"):
                print(f"# {status}", flush=True)
                subprocess.run([*MUTMUT, "show", mutant], cwd=folder, check=False)
    for mutant, found in sorted(own_results(name).items()):
        if mutant not in equivalent and found["status"] == "survived":
            print(f"# survived\n{found['diff']}\n", flush=True)


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
