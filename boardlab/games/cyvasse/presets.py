"""Whole-army deployments: named preset lineups, seeded random lineups, and a user preset file.

A **lineup** is a deployment turn string written from South's side, e.g. ``K@e2+D@e1+…+M@i5``
(spec §10), for the default army. North uses the same lineup turned through the board's centre
(point reflection: ``e2`` becomes the hex opposite it, ``g10``), so a preset faces the enemy
the same way for both sides. Every function that produces decisions returns action ids to play
one by one from a state where the side to move has not started its deployment.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

from boardlab.core.errors import IllegalMoveError, PositionError
from boardlab.core.files import write_atomic
from boardlab.games.cyvasse.board import HEX_NAMES, INDEX_OF_NAME, ZONES, reflect
from boardlab.games.cyvasse.state import SIDE_NAMES, CyvasseState
from boardlab.games.cyvasse.units import (
    EMPTY,
    ITEM_LETTERS,
    MOUNTAIN,
    MOUNTAIN_ITEM,
    SIDE_BASE,
)

PRESETS: dict[str, str] = {
    "classic": "K@e2+D@e1+E@c4+E@g4+H@b3+H@g3+L@a4+L@i4+S@d4+S@f4+R@c5+R@e5+R@g5+B@d3+B@f3"
    "+C@c2+T@f2+M@b5+M@i5",
    "fortress": "K@c1+D@d1+E@b2+E@e2+H@a3+H@h3+L@a4+L@i4+S@c2+S@d2+R@c5+R@f5+R@h5+B@c3+B@e3"
    "+C@b1+T@e1+M@d5+M@g5",
    "vanguard": "K@d2+D@c3+E@d5+E@g5+H@b4+H@h4+L@a5+L@j5+S@e5+S@f5+R@c4+R@e4+R@g4+B@d3+B@f3"
    "+C@e2+T@e3+M@b5+M@i5",
}
"""Built-in lineups for the default army (``classic`` is the lineup of spec Test fact 3)."""

RANDOM = "random"
"""The name of the seeded random lineup (never a saved preset's name)."""

_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
PRESET_FILE_NAME = "cyvasse_presets.json"


def default_preset_path() -> Path:
    """The user preset file: ``$BOARDLAB_HOME/cyvasse_presets.json``, else under ``~/.boardlab``."""
    home = os.environ.get("BOARDLAB_HOME")
    base = Path(home) if home else Path.home() / ".boardlab"
    return base / PRESET_FILE_NAME


def _require_fresh_deployment(state: CyvasseState) -> None:
    if not state.deploying or state.placed:
        raise IllegalMoveError(
            "a whole lineup can only be deployed before the side's first placement"
        )


def lineup_decisions(state: CyvasseState, lineup: str) -> list[int]:
    """The action ids that deploy ``lineup`` (South's view) for the side to move.

    Raises IllegalMoveError (or NotationError) when the lineup does not fit the army in force.
    """
    _require_fresh_deployment(state)
    probe = state.clone()
    actions: list[int] = []
    parts = lineup.split("+")
    if len(parts) != len(state.game.order):
        raise IllegalMoveError(
            f"the lineup has {len(parts)} placements; the army has {len(state.game.order)} items"
        )
    for part in parts:
        letter, at, name = part.partition("@")
        if at and state.side == 1 and name in INDEX_OF_NAME:
            part = f"{letter}@{HEX_NAMES[reflect(INDEX_OF_NAME[name])]}"
        action = probe.parse_action(part)
        probe.apply_action(action)
        actions.append(action)
    return actions


def random_lineup(state: CyvasseState, seed: int | None) -> list[int]:
    """Action ids of a uniformly random legal deployment of the side's remaining items."""
    if not state.deploying:
        raise IllegalMoveError("the deployment is over")
    free = [h for h in ZONES[state.side] if state.board[h] == EMPTY]
    left = len(state.game.order) - state.placed
    return random.Random(seed).sample(free, left)


def lineup_from_state(state: CyvasseState, side: int) -> str:
    """The lineup (South's view) of ``side``'s whole army standing in its own zone.

    Items of one kind are listed in hex order, so equal deployments give equal strings.
    Raises PositionError when the zone does not hold exactly the army.
    """
    order = state.game.order
    placed: dict[int, list[str]] = {}
    count = 0
    for h in ZONES[side]:
        cell = state.board[h]
        if cell == EMPTY:
            continue
        if cell == MOUNTAIN:
            item = MOUNTAIN_ITEM
        elif SIDE_BASE[side] <= cell < SIDE_BASE[side] + 10:
            item = cell - SIDE_BASE[side]
        else:
            continue
        shown = reflect(h) if side == 1 else h
        placed.setdefault(item, []).append(HEX_NAMES[shown])
        count += 1
    wanted = {item: order.count(item) for item in set(order)}
    if count != len(order) or {k: len(v) for k, v in placed.items()} != wanted:
        raise PositionError(f"{SIDE_NAMES[side]}'s zone does not hold exactly its whole army")
    ordered = sorted(placed.items())
    hexes = [(item, sorted(names, key=INDEX_OF_NAME.__getitem__)) for item, names in ordered]
    return "+".join(f"{ITEM_LETTERS[item]}@{name}" for item, names in hexes for name in names)


def _read_user(file: Path) -> dict[str, str]:
    """The user's own presets in ``file`` (empty when it does not exist)."""
    if not file.exists():
        return {}
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PositionError(f"cannot read presets from {file}: {error}") from error
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise PositionError(f"{file} must hold a JSON object of name: lineup strings")
    return data


def load_presets(path: Path | None = None) -> dict[str, str]:
    """Built-in presets plus the user's saved ones (user names override built-ins)."""
    return {**PRESETS, **_read_user(path or default_preset_path())}


def preset_decisions(state: CyvasseState, name: str, path: Path | None = None) -> list[int]:
    """The action ids deploying preset ``name`` for the side to move."""
    presets = load_presets(path)
    if name not in presets:
        raise IllegalMoveError(f"unknown preset {name!r}; presets are: {', '.join(presets)}")
    return lineup_decisions(state, presets[name])


def save_preset(name: str, lineup: str, path: Path | None = None) -> Path:
    """Save ``lineup`` under ``name`` in the user preset file (atomically); returns the file."""
    if not _NAME.fullmatch(name) or name == RANDOM:
        raise IllegalMoveError(
            f"bad preset name {name!r}: use 1-32 lowercase letters, digits, '_' or '-'"
        )
    for part in lineup.split("+"):
        letter, at, hex_name = part.partition("@")
        if not at or letter not in ITEM_LETTERS or INDEX_OF_NAME.get(hex_name, -1) not in ZONES[0]:
            raise IllegalMoveError(f"bad lineup placement {part!r}: write U@hex on ranks 1-5")
    file = path or default_preset_path()
    saved = _read_user(file)
    saved[name] = lineup
    write_atomic(file, json.dumps(saved, indent=1, sort_keys=True))
    return file
