"""The analysis board's bot search: a suggested decision, the line that follows, and the
game's evaluation before and after it, within a time budget (runs in a bot worker process).

The bots are used through their specs only (``boardlab.ai.players``), so a new bot kind plugs
in unchanged. A level's spec is searched with its seeded noise off (an analysis wants the
bot's best, not its variety) and its time capped by what is left of the budget.
"""

from __future__ import annotations

import time
from typing import Any

from boardlab.ai.levels import level_spec
from boardlab.ai.players import make_bot, parse_spec
from boardlab.core.errors import OptionError
from boardlab.core.state import State

LINE_DECISIONS = 8
"""Decisions of the bot's line at most (the suggestion included)."""
NO_NOISE = "noise"
MIN_SECONDS = 0.05
"""The least time a decision of the line is given, whatever is left of the budget."""


def analysis_spec(spec: str, state: State, seconds: float) -> str:
    """``spec`` (a bot or a level) as a plain bot spec without noise and, where its kind takes
    a time budget, with at most ``seconds`` of search (the others, random and greedy, look one
    decision ahead at most)."""
    kind, params = parse_spec(spec)
    if isinstance(params, str):
        return analysis_spec(level_spec(state.game, params), state, seconds)
    kept = {key: value for key, value in params.items() if key != NO_NOISE}
    capped = min(float(kept.get("time", seconds)), seconds)
    timed = {**kept, "time": round(max(MIN_SECONDS, capped), 3)}
    for candidate in (timed, kept):
        text = f"{kind}:" + ",".join(f"{key}={_text(value)}" for key, value in candidate.items())
        try:
            parse_spec(text)
        except OptionError:
            continue  # this kind takes no time budget
        return text if candidate else kind
    return kind


def _text(value: float | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def evaluations(state: State) -> list[float]:
    """Every seat's value of ``state`` in [-1, 1]: the result once it is over, else the game's
    own evaluation (the one the bots search with)."""
    if state.is_terminal():
        return [float(value) for value in state.returns()]
    return [round(float(value), 3) for value in state.heuristics()]


def analyse(state: State, spec: str, seconds: float, seed: int) -> dict[str, Any]:
    """The bot's suggestion for ``state`` (not over), its line and the evaluations.

    The suggestion may use half the budget; each further decision of the line what is left,
    shared among the decisions still to come. ``state`` is what the analyst may see, so the
    bot never searches anything else.
    """
    start = time.perf_counter()
    before = evaluations(state)
    probe = state.clone()
    line: list[str] = []
    stats: dict[str, float] = {}
    while len(line) < LINE_DECISIONS and not probe.is_terminal():
        left = seconds - (time.perf_counter() - start)
        if line and left <= 0:
            break
        share = seconds / 2 if not line else left / (LINE_DECISIONS - len(line))
        bot = make_bot(analysis_spec(spec, probe, share), probe.game, seed + len(line))
        if bot is None:
            raise ValueError(f"{spec!r} is not a bot")
        action = bot.choose(probe)
        if not line:
            stats = bot.stats()
        line.append(probe.action_to_str(action))
        probe.apply_action(action)
    return {
        "suggestion": line[0],
        "line": line,
        "before": before,
        "after": evaluations(probe),
        "line_over": probe.is_terminal(),
        "stats": {key: round(value, 3) for key, value in stats.items()},
        "seconds": round(time.perf_counter() - start, 3),
    }
