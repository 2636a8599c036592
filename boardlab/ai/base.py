"""The bot interface: given the acting player's view of a state, choose a legal decision.

Budgets: a bot searches within an iteration or depth budget (deterministic for a seed) and/or
a time budget (not reproducible by nature). :class:`Deadline` is the shared clock.

Presets: where the side to move may play a whole-turn preset (``State.presets()``, e.g. a
Cyvasse deployment lineup), every bot plays one, picked by its seeded generator, instead of
searching decision by decision; :meth:`Bot.choose` handles this once for all bots.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod

from boardlab.core.errors import BoardlabError
from boardlab.core.state import State


class Bot(ABC):
    """A player that chooses decisions. Deterministic for a given seed and a non-time budget.

    Subclasses implement :meth:`_choose` (and :meth:`_search_stats`) and call
    ``super().__init__(seed, spec)``.
    """

    spec: str
    """The player spec that made this bot, e.g. ``mcts:time=1.0``."""

    def __init__(self, seed: int | None, spec: str) -> None:
        self.spec = spec
        # Its own generator, so that presets do not shift the search's random sequence.
        self._preset_rng = random.Random(seed)
        self._plan: list[int] = []
        self._plan_preset = ""
        self._plan_seed = 0
        self._plan_player = -1
        self._plan_text = ""
        self._from_preset = False

    def choose(self, state: State) -> int:
        """A legal action id for ``state``, which is the acting player's view (not over)."""
        action = self._preset_action(state)
        self._from_preset = action is not None
        if action is None:
            return self._choose(state)
        return action

    @abstractmethod
    def _choose(self, state: State) -> int:
        """The bot's own choice of a legal action id (no preset applies)."""

    def stats(self) -> dict[str, float]:
        """Figures about the last :meth:`choose` (e.g. nodes, simulations, seconds)."""
        return {"preset": 1.0} if self._from_preset else self._search_stats()

    def _search_stats(self) -> dict[str, float]:
        """Figures about the last search."""
        return {}

    def _preset_action(self, state: State) -> int | None:
        """The next decision of a preset this bot plays now, or None to search instead."""
        player = state.current_player
        if self._plan and player == self._plan_player:
            if state.position_text() != self._plan_text:
                # Not where the plan expects (e.g. the caller changed the position): redo the
                # same preset from here, or search if it cannot be played from here.
                self._plan = self._preset_plan(state, self._plan_preset, self._plan_seed)
        else:
            self._plan = []
            names = _presets(state)
            if names:
                name = self._preset_rng.choice(names)
                seed = self._preset_rng.getrandbits(32)
                self._plan = self._preset_plan(state, name, seed)
                self._plan_preset, self._plan_seed = name, seed
        if not self._plan:
            return None
        action = self._plan.pop(0)
        if action not in state.legal_actions():
            self._plan = []
            return None
        self._plan_player = player
        self._plan_text = state.child(action).position_text() if self._plan else ""
        return action

    @staticmethod
    def _preset_plan(state: State, name: str, seed: int) -> list[int]:
        """The decisions of preset ``name`` from ``state``; empty when it cannot be played."""
        try:
            return state.preset_actions(name, seed)
        except BoardlabError:
            return []


def _presets(state: State) -> list[str]:
    """The presets on offer; none when they cannot be read (e.g. a damaged preset file)."""
    try:
        return state.presets()
    except BoardlabError:
        return []


class Deadline:
    """A wall-clock limit; ``seconds=None`` (or <= 0) means no limit."""

    __slots__ = ("_end", "start")

    def __init__(self, seconds: float | None) -> None:
        self.start = time.perf_counter()
        self._end = self.start + seconds if seconds and seconds > 0 else None

    def passed(self) -> bool:
        """True once the limit has passed."""
        return self._end is not None and time.perf_counter() >= self._end

    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return time.perf_counter() - self.start
