"""What each compared metric means, in a designer's words: a plain name and one line.

The headlines name a difference by its plain name (``turns per game 120 → 223``); the
comparison table gives every metric its line of meaning beside the figures.
"""

from __future__ import annotations

PLAIN = {
    "first_seat_edge": (
        "first seat's edge",
        "its share of the games with a winner over its fair share 1/K: 1 is fair at any "
        "seat count, 1.2 wins a fifth more than fair",
    ),
    "draws": ("games without a single winner", "draws, and places shared at 3-5 seats"),
    "completion": ("games ending by the rules", "not stopped by a ply or no-capture cap"),
    "decisions": ("decisions per game", "how long a game is, counting every single choice"),
    "turns": ("turns per game", "how long a game is, in turns"),
    "branching": ("choices per decision", "legal decisions on average: how wide the game is"),
    "turn_branching": (
        "choices per whole turn",
        "the product of a turn's decisions' choices (geometric mean): how wide a turn is",
    ),
    "max_branching": ("most choices at a decision", "the widest moment of a game, on average"),
    "median_branching": (
        "median choices per decision",
        "a typical decision's width, unmoved by a few very wide ones",
    ),
    "lasting_lead_changes": (
        "lasting lead changes",
        "lead changes not undone at the very next decision (flickers left out)",
    ),
    "comeback": (
        "comebacks",
        "share of games with a winner in which the winner was once last in evaluation",
    ),
    "idle": (
        "losers sitting idle",
        "share of the game a losing seat waits after its last decision (eliminated early: long)",
    ),
    "tree_size": (
        "game-tree complexity",
        "log10 of the product of a game's choice counts: the digits of its number of lines",
    ),
    "forced": ("forced decisions", "share of a game's decisions with only one legal choice"),
    "lead_changes": ("lead changes per game", "how often the leading seat changes"),
    "drama": (
        "winner's deepest deficit",
        "how far behind (in evaluation) the eventual winner once was: comebacks",
    ),
    "decisiveness": (
        "point of no return",
        "share of the game after which the winner leads for good: low is decided early",
    ),
    "threshold": (
        "decisiveness threshold",
        "the best evaluation a seat that did not win reached: a lead up to this can be lost",
    ),
    "kingmaking": (
        "kingmaking",
        "3-5 seats: share of won games whose winner got the lead for good from a move of a "
        "seat then last and losing",
    ),
    "eliminated": (
        "seats knocked out early",
        "3-5 seats: losing seats per game with no turn in the last round: out before the end",
    ),
    "uniformity": (
        "outcome uniformity",
        "1 minus the spread of each seat's result (win +1, draw 0, loss -1): 0 when results "
        "vary most, 1 when every game ends alike",
    ),
    "stability": ("evaluation swings", "variance of each seat's evaluation: low is stable"),
    "coverage": ("board used", "share of the cells that ever held a piece (in snapshots)"),
    "margin": ("score margin", "the difference of the scores, in scored games"),
    "clarity": (
        "clarity (variance)",
        "how much a decision's options differ in evaluation: high is a clear choice",
    ),
    "narrowness": (
        "clarity (narrowness)",
        "share of a decision's options close to the best: low is a few good moves standing out",
    ),
    "uncertainty": (
        "uncertain decisions",
        "share of decisions whose best two options are evaluated almost alike",
    ),
    "shortfall": (
        "chosen move's shortfall",
        "how much worse, one move ahead, the move played is than the best one: the bots' slips",
    ),
    "search_clarity": (
        "clarity (MCTS's own values)",
        "how much the decisions an MCTS bot searched differ in its mean reward",
    ),
    "search_uncertainty": (
        "uncertain decisions (MCTS's own values)",
        "share of searched decisions whose best two options the search values almost alike",
    ),
    "search_shortfall": (
        "MCTS's choice below its best",
        "how far below the best mean reward its most visited, played option was",
    ),
    "repetition": (
        "situational repetition",
        "share of decisions in a position (side to move included) seen before in the game",
    ),
    "board_repetition": (
        "positional repetition",
        "share of decisions whose board alone was seen before in the game: shuffling back",
    ),
    "distance": ("move distance", "how far a move carries a piece, in cells"),
    "state_space": (
        "state-space estimate",
        "digits of the number of boards: cells x log10(contents seen + 1), an upper bound",
    ),
}
"""Per metric key: its plain name and what it means, in one line."""

GROUPS = {
    "decisions": "length",
    "turns": "length",
    "tree_size": "length",
    "branching": "width",
    "turn_branching": "width",
    "max_branching": "width",
    "median_branching": "width",
    "lead_changes": "lead",
    "lasting_lead_changes": "lead",
    "clarity": "clarity",
    "narrowness": "clarity",
    "search_clarity": "clarity",
    "repetition": "repetition",
    "board_repetition": "repetition",
}
"""Metrics that measure one thing several ways: a headline leads with one of each group."""
