"""What each game's observation planes hold: its piece kinds, cell kinds, pools and phases.

The observation encoder (:mod:`boardlab.rl.observation`) is generic: it reads the render model
of a seat's view. What is game-specific is only this vocabulary, declared here as data from the
kinds each game's render model documents. A kind the vocabulary does not know makes the encoder
raise, so a test that plays random games through the encoder finds any gap.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Vocabulary:
    """The fixed names one game's render models use, in the order their planes take.

    ``pieces`` are the keys of pieces on cells: the kind, ``kind/face`` where the kind shows a
    face, or ``kind#label`` for kinds in ``labelled`` (an Anacund group's size); ``pooled`` the
    keys of pieces off the board (the same when empty). ``neutral`` keys belong
    to no seat (a Cyvasse mountain). ``cell_kinds`` are the special cell kinds (``normal`` is
    left out); those in ``seat_cell_kinds`` are tied to a seat (a home row, a deployment zone).
    ``pool_roles`` are the kinds of pool, found as a word of the pool's id, and, for pieces on
    cells off the fixed board (Anacund's captured pieces), that cell's kind. ``window`` is the
    side of the square window an unbounded board is seen through, per player count.
    """

    pieces: tuple[str, ...]
    phases: tuple[str, ...]
    pooled: tuple[str, ...] = ()
    neutral: frozenset[str] = frozenset()
    labelled: frozenset[str] = frozenset()
    cell_kinds: tuple[str, ...] = ()
    seat_cell_kinds: frozenset[str] = frozenset()
    pool_roles: tuple[str, ...] = ()
    cell_values: bool = False
    scores: bool = False
    window: dict[int, int] = field(default_factory=dict)

    @property
    def pool_keys(self) -> tuple[str, ...]:
        """The keys of pieces off the board."""
        return self.pooled or self.pieces


_CYVASSE_UNITS = (
    "king",
    "dragon",
    "elephant",
    "heavy-horse",
    "light-horse",
    "spearman",
    "rabble",
    "crossbowman",
    "catapult",
    "trebuchet",
)

VOCABULARIES: dict[str, Vocabulary] = {
    "carnyx": Vocabulary(
        pieces=("disc",),
        phases=("setup", "play", "over"),
        cell_kinds=("centre", "home"),
        seat_cell_kinds=frozenset({"home"}),
        pool_roles=("unplaced", "supply", "reserve"),
    ),
    "murus-gallicus": Vocabulary(
        pieces=("stone",),
        phases=("play", "over"),
        cell_kinds=("home",),
        seat_cell_kinds=frozenset({"home"}),
    ),
    "colosseum-offcuts": Vocabulary(
        pieces=(
            "board-piece/light",
            "board-piece/dark",
            "fortification/light",
            "fortification/dark",
        ),
        pooled=("board-piece/light", "fortification/light", "fortification"),
        phases=("setup", "play", "over"),
        pool_roles=("pool",),
        # The window of the game's action ids (4n + 2 cells a side, n players).
        window={players: 4 * players + 2 for players in range(2, 6)},
    ),
    "anacund": Vocabulary(
        pieces=("piece",),
        pooled=("piece", *(f"group#{size}" for size in range(1, 7))),
        phases=("play", "over"),
        labelled=frozenset({"group"}),
        cell_kinds=("bonus", "blocked"),
        pool_roles=("groups", "captured"),
        cell_values=True,
        scores=True,
    ),
    "cyvasse": Vocabulary(
        pieces=(*_CYVASSE_UNITS, "mountain"),
        pooled=(*_CYVASSE_UNITS, "mountain", "item"),
        phases=("deployment", "play", "over"),
        neutral=frozenset({"mountain"}),
        cell_kinds=("zone", "hidden"),
        seat_cell_kinds=frozenset({"zone", "hidden"}),
        pool_roles=("pool",),
    ),
}
"""The vocabulary of every registered game, by game id."""
