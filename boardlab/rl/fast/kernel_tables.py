"""What every compiled observation encoder's tables start with (plain Python, built once).

A compiled encoder (``kernel_<game>.py`` beside this file, used by :mod:`boardlab.rl.vector`)
reads two arrays made from the game's fast encoder: integers (offsets, channels, places) and
float32 planes. Both begin with what every game shares: the header slots below, then the
templates, one per (seat, phase, seat to move or not, turn start or not) holding every plane
that does not depend on the position, so an observation starts as one copy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardlab.core.engine import Kernel, KernelArray
from boardlab.rl.fast.base import FastEncoder

# Header slots of the integer table.
O_SIZE, O_AREA, O_CAP, O_PLY, O_PHASES = range(5)
HEADER = 5
"""Game-specific integer slots start here."""


def common_tables(
    kernel: Kernel, encoder: FastEncoder, phases: Sequence[str]
) -> tuple[list[int], KernelArray]:
    """The header of the integer table and the templates (flat float32, template ``t`` at
    ``t * size``, ``t = ((seat * len(phases) + phase) * 2 + to_move) * 2 + turn_start``)."""
    size = int(np.prod(encoder.shape))
    templates = []
    for seat in range(encoder.players):
        for phase in phases:
            for mover in (0.0, 1.0):
                for turn in (0.0, 1.0):
                    planes = encoder.template(seat).copy()
                    planes[encoder.channel(f"phase {phase}")] = 1.0
                    planes[encoder.channel("to move")] = mover
                    planes[encoder.channel("turn start")] = turn
                    templates.append(planes.reshape(-1))
    header = [0] * HEADER
    header[O_SIZE] = size
    header[O_AREA] = encoder.rows * encoder.columns
    header[O_CAP] = kernel.game.max_plies or 0
    header[O_PLY] = encoder.channel("ply fraction")
    header[O_PHASES] = len(phases)
    return header, np.concatenate(templates).astype(np.float32)


def nonzero_entries(tables: Sequence[KernelArray]) -> tuple[int, list[int], KernelArray]:
    """The nonzero rows of each column of each ``(channels, codes)`` table (per seat, a
    fast encoder's per-cell table), so that a compiled encoder writes only those (the templates
    hold 0 in the others): the entries per column ``width``, and per (table, column) ``width``
    channels (row + 1: the table's rows follow the ``cell`` plane; -1 pads) and their float32
    values (0 pads), in the same order."""
    columns = [
        [
            [(row, value) for row, value in enumerate(table[:, code]) if value]
            for code in range(table.shape[1])
        ]
        for table in tables
    ]
    width = max(len(entries) for per_table in columns for entries in per_table)
    padded = [
        entries + [(-1, 0.0)] * (width - len(entries))
        for per_table in columns
        for entries in per_table
    ]
    channels = [row + 1 if row >= 0 else -1 for entries in padded for row, _ in entries]
    values = np.array([value for entries in padded for _, value in entries], dtype=np.float32)
    return width, channels, values


def sparse_templates(
    templates: KernelArray, size: int, area: int, int_base: int, float_base: int
) -> tuple[list[int], KernelArray]:
    """The templates of :func:`common_tables` as lists of their nonzero planes, so that an
    observation starts as zeros and a few plane copies instead of a copy of the whole template
    (most planes are zero, and the templates of a large observation fill the caches).

    Returns the integers to place at ``int_base`` of the integer table: per template ``t`` the
    index of its list at ``int_base + t``; a list is its length ``n`` then ``n`` pairs
    (channel, float offset of the plane); and the distinct planes (float32), to place at
    ``float_base`` of the float table.
    """
    count = templates.size // size
    found: dict[bytes, int] = {}
    planes: list[KernelArray] = []
    lists: list[list[int]] = []
    for t in range(count):
        entries = [0]
        for channel, plane in enumerate(templates[t * size : (t + 1) * size].reshape(-1, area)):
            if plane.any():
                key = plane.tobytes()
                if key not in found:
                    found[key] = float_base + len(planes) * area
                    planes.append(plane)
                entries += [channel, found[key]]
                entries[0] += 1
        lists.append(entries)
    index = []
    at = int_base + count
    for entries in lists:
        index.append(at)
        at += len(entries)
    flat = np.concatenate(planes) if planes else np.zeros(0)
    return index + [value for entries in lists for value in entries], flat.astype(np.float32)
