"""What the web pages tell a player about each game beyond its rules text: how a turn is
entered by clicks in each phase, and what each kind of piece in the legend is."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Guide:
    """One game's help: ``hints`` per phase (one line each), ``pieces`` per piece kind (or
    ``kind/face``), and ``notes``, paragraphs for the rules page."""

    hints: dict[str, str]
    pieces: dict[str, str]
    notes: tuple[str, ...] = field(default=())


GUIDES = {
    "carnyx": Guide(
        hints={
            "setup": "Click a marked square of your home rank to place a piece there.",
            "play": "Click one of your stacks, then where it goes; to bring in a reserve piece "
            "click R in your pool, then a square of your home rank. Hunker (H) and Pass are "
            "buttons under the board.",
        },
        pieces={
            "disc": "A piece. Pieces pile up into stacks; the top piece's owner controls the "
            "stack and the badge gives its height.",
        },
        notes=(
            "The pools beside the board hold each side's pieces still to place (unplaced), "
            "its pieces not yet earned (supply) and, once earned, the pieces it may bring in "
            "on its home rank (reserve).",
        ),
    ),
    "murus-gallicus": Guide(
        hints={
            "play": "Click one of your towers, then the far cell it moves to (it leaves one "
            "stone on each of the two cells), or an enemy wall next to it to sacrifice a stone "
            "on it.",
        },
        pieces={
            "stone": "A stone. One stone alone is a wall; two stacked stones are a tower (the "
            "badge shows 2). Only towers move.",
        },
        notes=(
            "Each side's home row is tinted. A side wins by getting a stone onto the other "
            "side's home row. A side that has no move on its turn loses.",
        ),
    ),
    "colosseum-offcuts": Guide(
        hints={
            "setup": "Click a marked cell to place your next counter (the pool beside the board "
            "shows what is left to place).",
            "play": "A turn is two actions. Click one of your counters, then where it goes; "
            "click a counter twice to flip it between Mobile (pale) and Attack (solid).",
        },
        pieces={
            "board-piece/light": "Moves anywhere along the edge of the group, taking its "
            "stack with it.",
            "board-piece/dark": "Steps one cell, also onto other counters.",
            "fortification/light": "Moves like a Board Piece. Lose all your Fortifications "
            "and you are out of the game.",
            "fortification/dark": "Steps one cell; stepping onto another player's "
            "Fortification captures it.",
        },
        notes=(
            "Every counter has two modes: Mobile (drawn pale) and Attack (drawn solid). "
            "Flipping a counter alone in its cell switches its mode and is one action; click "
            "the counter twice to flip it. A counter on top of another is always in Attack "
            "mode.",
            "The pools beside the board show, during setup, the counters each player still "
            "has to place, and then the Fortifications captured from each player.",
        ),
    ),
    "anacund": Guide(
        hints={
            "play": "A turn is three placements. Click one of your groups in the pool (its "
            "size is on it), then the track square where it goes.",
        },
        pieces={
            "group": "A group of pieces; the number is how many pieces it holds.",
        },
        notes=("The numbers on the track squares are their values; a bonus square is tinted.",),
    ),
    "cyvasse": Guide(
        hints={
            "deployment": "Click a hex of your tinted zone to place the unit the panel names "
            "next, or deploy a preset with one button.",
            "play": "Click one of your units, then where it moves, attacks or shoots; a second "
            "cavalry jump is another click, End and Pass are buttons under the board.",
        },
        pieces={
            "king": "Moves 2, strength 2. Lose it and you lose the game.",
            "dragon": "Flies any distance in a straight line over most units; strength 5.",
            "elephant": "Moves 3, strength 4.",
            "heavy-horse": "Cavalry: moves 2, then may jump 2 more; strength 3.",
            "light-horse": "Cavalry: moves 3, then may jump 2 more; strength 2.",
            "spearman": "Moves 2, strength 2; beats Light Horse whatever the strengths.",
            "rabble": "Moves 3, strength 1.",
            "crossbowman": "Shoots 2 hexes away; moves 1, strength 2, defends at 1; beats "
            "Elephants.",
            "catapult": "Shoots 3 hexes away; moves 2, strength 3, defends at 1; beats the Dragon.",
            "trebuchet": "Shoots 3 hexes away; never moves; strength 1, defends at 1; beats the "
            "Dragon.",
            "mountain": "A Mountain: blocks the hex; no unit may enter it.",
        },
        notes=(
            "Uppercase letters are South's units, lowercase North's. A hex is named by its "
            "letter and rank, e.g. e4; letters count within each rank from its left end, so the "
            "middle ranks reach letters g to k. Ranks are numbered at their left end, and the "
            "letter at a rank's right end names its last hex.",
            "During deployment each side sees only its own units: the other side's hexes "
            "show '?' until both have deployed.",
        ),
    ),
}
"""The help of every game of the registry."""


def piece_text(guide: Guide, kind: str, face: str) -> str:
    """What the legend says about a piece of ``kind`` with ``face`` (empty when unknown)."""
    return guide.pieces.get(f"{kind}/{face}") or guide.pieces.get(kind, "")


PLAIN_OPTIONS = frozenset({"players", "board"})
"""Options a new player chooses (seats, board size); the lobby folds the others away."""

OPTION_LABELS = {
    "players": "Number of players",
    "board": "Board",
    "max_plies": "Move limit (draw)",
    "repetition_draw": "Draw on repetition",
    "no_capture_plies": "Moves without a capture (draw)",
    "no_capture_rounds": "Rounds without a capture (draw)",
    "seed": "Random seed",
    "army": "Army",
    "layout": "Track values",
    "track": "Track shape",
    "bonus_points": "Bonus points",
    "tie": "Equal scores",
    "first_tie": "First move when tied",
    "hidden_setup": "Hide the other side's deployment",
    "cavalry_second_optional": "Second cavalry jump optional",
    "losing_attacks": "Losing attacks",
    "dragon_blocked_by_dragon": "Dragons block Dragons",
    "allow_merge": "Allow merging own stacks",
    "jump_own": "Jump own stacks",
    "no_return": "No going back",
    "conversion": "Captured pieces",
    "single_exit": "A single piece leaving",
    "connectivity_check": "Connection check",
    "exposed_edges_measured": "Edges counted",
    "mobile_move": "Mobile moves",
    "draw_ranking": "Capped game scoring",
}
"""Plain labels of the options in the new-game form (the help line under each explains it)."""
