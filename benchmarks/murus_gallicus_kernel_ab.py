"""Two versions of the Murus Gallicus kernel raced in one process: random playouts, interleaved.

The kernel module of git revision ``--base`` and the working tree's are loaded side by side,
each with its own copy of the random-playout driver (the loop of
``boardlab/core/kernel_driver_template.py``), and play batches of ``--games`` games from the
start at default options in turn (the order alternating), ``--rounds`` times. Each batch's rate is
per CPU second; the figure is the median over the rounds of working / base, with its quartiles.
On a loaded machine these ratios of batches taken a moment apart hold where separate runs of
``benchmarks/engine.py`` (one process per version) differ by more than the change measured.

    python benchmarks/murus_gallicus_kernel_ab.py --base HEAD~1 --rounds 40 --games 20000
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import boardlab
from boardlab.core.engine import KernelArray

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "boardlab/games/murus_gallicus/kernel.py"
DRIVER = """

from boardlab.core.kernel_copy import copy_state as _copy_state
from boardlab.core.kernel_random import below as _below
from boardlab.core.kernel_random import next_state as _next_state
from boardlab.core.kernel_random import seeded as _seeded


@numba.njit(cache=True)
def _playouts(p, s, n, seed, max_legal):
    moves = np.empty(max_legal, dtype=np.int64)
    work = np.empty_like(s)
    x = _seeded(seed)
    decisions = 0
    for _ in range(n):
        _copy_state(work, s)
        while True:
            count = legal(p, work, moves)
            if count == 0:
                break
            x = _next_state(x)
            apply(p, work, moves[_below(x, count)])
            decisions += 1
    return decisions
"""


def load(source: str, name: str, folder: Path) -> ModuleType:
    """The kernel ``source`` with the driver appended, imported as module ``name``."""
    path = folder / f"{name}.py"
    path.write_text(source + DRIVER, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # Numba's cache finds the module by name
    spec.loader.exec_module(module)
    return module


def rate(
    module: ModuleType, params: KernelArray, start: KernelArray, games: int, seed: int
) -> float:
    """Playouts per CPU second of one batch."""
    begin = time.process_time()
    module._playouts(params, start, games, seed, module.MAX_LEGAL)
    return games / (time.process_time() - begin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="HEAD~1", help="git revision of the base kernel")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--games", type=int, default=20_000, help="games per batch")
    args = parser.parse_args()
    base_source = subprocess.run(
        ["git", "show", f"{args.base}:{KERNEL}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    game = boardlab.make("murus-gallicus")
    versions = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, source in (("base", base_source), ("working", (ROOT / KERNEL).read_text())):
            module = load(source, f"murus_gallicus_kernel_ab_{label}", Path(folder))
            kernel = module.make_kernel(game)
            start = kernel.encode(game.new_initial_state())
            module._playouts(kernel.params, start, 10, 0, module.MAX_LEGAL)  # compile first
            versions[label] = (module, kernel.params, start)
        rates: dict[str, list[float]] = {"base": [], "working": []}
        for round_ in range(args.rounds):
            order = ["base", "working"] if round_ % 2 == 0 else ["working", "base"]
            for label in order:
                module, params, start = versions[label]
                rates[label].append(rate(module, params, start, args.games, round_))
    ratios = [w / b for w, b in zip(rates["working"], rates["base"], strict=True)]
    quartiles = statistics.quantiles(ratios, n=4)
    print(
        f"base {args.base}: {statistics.median(rates['base']):,.0f} playouts/s; working tree: "
        f"{statistics.median(rates['working']):,.0f}; "
        f"working / base {statistics.median(ratios):.3f} "
        f"(quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}, {args.rounds} rounds of "
        f"{args.games:,} games)"
    )


if __name__ == "__main__":
    main()
