"""Player specs and the bots they make.

Grammar: ``kind[:key=value[,key=value]]``, e.g. ``human``, ``random``, ``greedy``,
``alphabeta:depth=4,time=2``, ``alphabeta:time=1,nodes=50000``, ``mcts:iters=2000,c=1.4``,
``mcts:time=1.0``, ``level:hard``.
A bad spec raises :class:`~boardlab.core.errors.OptionError` naming the allowed kinds or keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from boardlab.ai.alphabeta import AlphaBetaBot
from boardlab.ai.base import Bot
from boardlab.ai.greedy import GreedyBot
from boardlab.ai.levels import LEVELS, level_spec
from boardlab.ai.mcts import MctsBot
from boardlab.ai.random_bot import RandomBot
from boardlab.core.errors import OptionError, shown
from boardlab.core.game import Game

HUMAN = "human"

Params = dict[str, float | int | bool]

# kind -> {key: value type}
_INT, _FLOAT, _BOOL = "int", "float", "bool"
_KEYS: dict[str, dict[str, str]] = {
    HUMAN: {},
    "random": {},
    "greedy": {"noise": _FLOAT},
    "alphabeta": {
        "depth": _INT,
        "time": _FLOAT,
        "noise": _FLOAT,
        "nodes": _INT,
        "compiled": _BOOL,
    },
    "mcts": {"iters": _INT, "time": _FLOAT, "c": _FLOAT, "rollout": _INT, "reuse": _BOOL},
    "level": {},
}
KINDS = tuple(_KEYS)

LIMITS: dict[str, float] = {
    "time": 86400.0,
    "depth": 1000,
    "iters": 10**9,
    "rollout": 10**6,
    "nodes": 10**12,
}
"""Largest accepted values: beyond them a bot would never answer (or overflow a timer)."""


def parse_spec(spec: str) -> tuple[str, Params | str]:
    """Split a spec into its kind and its parameters (for ``level``, the level name)."""
    kind, sep, rest = spec.strip().partition(":")
    if kind not in _KEYS:
        raise OptionError(f"unknown player {spec!r}; kinds are: {', '.join(KINDS)}")
    if kind == "level":
        if rest not in LEVELS:
            raise OptionError(f"unknown level in {spec!r}; levels are: {', '.join(LEVELS)}")
        return kind, rest
    if sep and not rest:
        raise OptionError(f"empty parameters in player {spec!r}; write {kind}:KEY=VALUE")
    allowed = _KEYS[kind]
    params: Params = {}
    for pair in rest.split(",") if rest else []:
        key, eq, raw = pair.partition("=")
        if key not in allowed:
            keys = ", ".join(allowed) or "none"
            raise OptionError(f"unknown key {key!r} in player {spec!r}; {kind} takes: {keys}")
        if not eq:
            raise OptionError(f"bad parameter {pair!r} in player {spec!r}; write KEY=VALUE")
        params[key] = _parse_value(spec, key, raw, allowed[key])
    return kind, params


def _parse_value(spec: str, key: str, raw: str, kind: str) -> float | int | bool:
    if kind == _BOOL:
        if raw not in ("true", "false"):
            raise OptionError(
                f"bad value {shown(raw, 40)} for {key} in {shown(spec, 60)}; allowed: true or false"
            )
        return raw == "true"
    try:
        value = int(raw) if kind == _INT else float(raw)
    except ValueError:
        raise OptionError(
            f"bad value {shown(raw, 40)} for {key} in {shown(spec, 60)}; allowed: a {kind}"
        ) from None
    if value < 0 or (key in ("iters", "depth", "nodes") and value < 1) or value != value:
        raise OptionError(
            f"bad value {shown(raw, 40)} for {key} in {shown(spec, 60)}; it must be positive"
        )
    if value > LIMITS.get(key, math.inf) or math.isinf(value):
        top = LIMITS.get(key)
        most = f"at most {top:g}" if top is not None else "finite"
        raise OptionError(
            f"bad value {shown(raw, 40)} for {key} in {shown(spec, 60)}; it must be {most}"
        )
    return value


def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot | None:
    """The bot a spec names, or None for ``human``; raises OptionError for a bad spec."""
    kind, params = parse_spec(spec)
    if kind == HUMAN:
        return None
    if isinstance(params, str):
        bot = make_bot(level_spec(game, params), game, seed)
        assert bot is not None
        bot.spec = spec.strip()
        return bot
    return _FACTORIES[kind](seed, params, spec.strip())


def timed_spec(spec: str, game: Game, budget: float | None) -> str:
    """``spec`` with its thinking time capped at ``budget`` seconds per decision (a level is
    spelled out first); a bot without a time setting (random, greedy) answers at once."""
    kind, params = parse_spec(spec)
    if budget is None:
        return spec
    if isinstance(params, str):
        return timed_spec(level_spec(game, params), game, budget)
    if kind not in ("alphabeta", "mcts"):
        return spec
    limit = min(float(params.get("time", budget)), budget)
    rest = [f"{key}={_spelled(value)}" for key, value in params.items() if key != "time"]
    return f"{kind}:{','.join([*rest, f'time={limit:.3f}'])}"


def _spelled(value: float | int | bool) -> str:
    """A spec parameter as ``parse_spec`` reads it back."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _random(seed: int | None, params: Params, spec: str) -> Bot:
    return RandomBot(seed)


def _greedy(seed: int | None, params: Params, spec: str) -> Bot:
    return GreedyBot(seed, noise=float(params.get("noise", 0.0)), spec=spec)


def _alphabeta(seed: int | None, params: Params, spec: str) -> Bot:
    time = params.get("time")
    nodes = params.get("nodes")
    depth = params.get("depth", None if time is not None or nodes is not None else 3)
    return AlphaBetaBot(
        seed,
        depth=None if depth is None else int(depth),
        time=None if time is None else float(time),
        noise=float(params.get("noise", 0.0)),
        spec=spec,
        nodes=None if nodes is None else int(nodes),
        compiled=bool(params.get("compiled", True)),
    )


def _mcts(seed: int | None, params: Params, spec: str) -> Bot:
    time = params.get("time")
    iters = params.get("iters", None if time is not None else 1000)
    return MctsBot(
        seed,
        iters=None if iters is None else int(iters),
        time=None if time is None else float(time),
        c=float(params.get("c", 1.0)),
        rollout=int(params.get("rollout", 4)),
        reuse=bool(params.get("reuse", True)),
        spec=spec,
    )


_FACTORIES: dict[str, Callable[[int | None, Params, str], Bot]] = {
    "random": _random,
    "greedy": _greedy,
    "alphabeta": _alphabeta,
    "mcts": _mcts,
}
