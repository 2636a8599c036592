"""What ``boardlab analyse --deep`` costs: CPU milliseconds per traced game with and without the
deep trace (:mod:`boardlab.analysis.deep_trace`), board snapshots every 20 decisions as the lab
takes them, in alternating blocks so that the machine's load weighs on both alike, after a game
of each (compiling the engine's functions) that is not measured.

    PYTHONPATH=. python benchmarks/lab_deep_cost.py
"""

from __future__ import annotations

from boardlab.analysis.trace import BOARD_EVERY, GameTask, play_traced

CASES = (
    # game, seats, bot, games per block
    ("murus-gallicus", 2, "random", 100),
    ("murus-gallicus", 2, "level:easy", 20),
    ("colosseum-offcuts", 3, "level:easy", 5),
    ("cyvasse", 2, "level:easy", 5),
)


def cost(game: str, seats: int, bot: str, games: int, deep: bool) -> float:
    """CPU seconds of ``games`` traced games (each measures its own CPU time)."""
    options = (("players", str(seats)),) if game == "colosseum-offcuts" else ()
    entrants = tuple(range(seats))
    return sum(
        play_traced(
            GameTask(
                "b", i, game, options, (bot,) * seats, entrants, 1000 + i, False, BOARD_EVERY, deep
            )
        ).cpu_seconds
        for i in range(games)
    )


def main() -> None:
    """Print one row per case: plain and deep CPU ms per game, and their ratio."""
    print("| game | bot | plain: CPU ms per game | deep: CPU ms per game | x plain |")
    print("|---|---|---:|---:|---:|")
    for game, seats, bot, games in CASES:
        cost(game, seats, bot, 1, False)  # compile and load first: not measured
        cost(game, seats, bot, 1, True)
        plain = deep = 0.0
        for _ in range(2):
            plain += cost(game, seats, bot, games, False)
            deep += cost(game, seats, bot, games, True)
        plain, deep = 1000 * plain / (2 * games), 1000 * deep / (2 * games)
        name = f"{game} ({seats} seats)"
        print(f"| {name} | {bot} | {plain:.2f} | {deep:.2f} | {deep / plain:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
