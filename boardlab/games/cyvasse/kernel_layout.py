"""Where things sit in the Cyvasse kernel's parameter and state arrays (plain ints, no NumPy).

The compiled rules (:mod:`kernel_rules`) read these as compile-time constants; the Python half
(:mod:`kernel`) fills the arrays with them. Every slot is one ``int64``.
"""

from __future__ import annotations

from boardlab.games.cyvasse.board import NUM_HEXES

CELLS = 22
"""Cell codes 0..21: empty, Mountain, South units 2..11, North units 12..21 (units.py)."""
MAX_RAY = 10
"""The longest straight line from a hex to the board's edge (11 hexes a rank, minus one)."""
MAX_TARGETS = 36
"""Hexes within distance 3 of a hex: 6 + 12 + 18."""
TARGET_FIELDS = 6
"""Per shot target: hex, distance, two line+ hexes, two line- hexes (-1 where none)."""
MAX_ITEMS = 40

# -- parameters ------------------------------------------------------------------------------
P_NEIGHBOURS = 0  # 91 x 6, -1 padded
P_RAY_LEN = P_NEIGHBOURS + NUM_HEXES * 6  # 91 x 6
P_RAYS = P_RAY_LEN + NUM_HEXES * 6  # 91 x 6 x MAX_RAY
P_TARGET_COUNT = P_RAYS + NUM_HEXES * 6 * MAX_RAY  # 91
P_TARGETS = P_TARGET_COUNT + NUM_HEXES  # 91 x MAX_TARGETS x TARGET_FIELDS
P_ZONES = P_TARGETS + NUM_HEXES * MAX_TARGETS * TARGET_FIELDS  # 2 x 40
P_REFLECT = P_ZONES + 2 * MAX_ITEMS  # 91
P_RANK = P_REFLECT + NUM_HEXES  # 91
P_ORDER = P_RANK + NUM_HEXES  # MAX_ITEMS
P_WINS = P_ORDER + MAX_ITEMS  # 10 x 10
P_MOVEMENT = P_WINS + 100  # 10
P_RANGE = P_MOVEMENT + 10  # 10
P_ZOBRIST = P_RANGE + 10  # 91 x CELLS
P_Z_JUMP_FROM = P_ZOBRIST + NUM_HEXES * CELLS  # 91
P_Z_JUMP_TO = P_Z_JUMP_FROM + NUM_HEXES  # 91
P_Z_SIDE = P_Z_JUMP_TO + NUM_HEXES
P_Z_PASSED = P_Z_SIDE + 1
P_Z_DEPLOYING = P_Z_PASSED + 1
P_Z_JUMP_CAPTURED = P_Z_DEPLOYING + 1
P_ORDER_LEN = P_Z_JUMP_CAPTURED + 1
P_OPTIONAL_SECOND = P_ORDER_LEN + 1
P_SUICIDE = P_OPTIONAL_SECOND + 1
P_DRAGON_BLOCK = P_SUICIDE + 1
P_TIE_FIRST = P_DRAGON_BLOCK + 1  # the side moving first on a King tie (coin already tossed)
P_NO_CAPTURE_CAP = P_TIE_FIRST + 1
P_MAX_PLIES = P_NO_CAPTURE_CAP + 1
P_REPETITION = P_MAX_PLIES + 1
P_HISTORY_CAP = P_REPETITION + 1
PARAMS_SIZE = P_HISTORY_CAP + 1

# -- state -------------------------------------------------------------------------------------
S_BOARD = 0  # 91 cells
S_SIDE = NUM_HEXES
S_DEPLOYING = S_SIDE + 1
S_PLACED = S_DEPLOYING + 1
S_JUMP_FROM = S_PLACED + 1  # -1 at a turn start
S_JUMP_TO = S_JUMP_FROM + 1
S_JUMP_CAPTURED = S_JUMP_TO + 1
S_PASSED = S_JUMP_CAPTURED + 1
S_NO_CAPTURE = S_PASSED + 1
S_PLY = S_NO_CAPTURE + 1
S_VEILED = S_PLY + 1  # the side whose deployment a view hides, -1 for a real state
S_HIDDEN = S_VEILED + 1  # bit z set: zone z is hidden from the view (drawing only)
S_STATUS = S_HIDDEN + 1  # 0 playing, 1 over
S_WINNER = S_STATUS + 1  # -1 for a draw
S_TERMINATION = S_WINNER + 1  # index into kernel.TERMINATIONS
S_KEY = S_TERMINATION + 1
S_HISTORY_LEN = S_KEY + 1
S_HISTORY = S_HISTORY_LEN + 1  # P_HISTORY_CAP keys of turn starts since the last capture

T_KING_CAPTURED, T_FORCED_PASSES, T_REPETITION, T_NO_CAPTURE, T_PLY_CAP = range(5)
