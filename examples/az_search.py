"""PUCT search (AlphaZero's) over Boardlab's batched environment, many games at once.

One :class:`BatchedPuct` searches ``batch`` game trees together: every simulation round
descends each tree to one unexpanded edge, plays those ``batch`` edges in **one** call of
:meth:`boardlab.rl.vector.BatchedGame.step` (the compiled kernel), and asks the evaluator for
the priors and values of all the new leaves in **one** call (one network forward pass). The
evaluator is any function of the leaves' observations and legal ids, so this module needs no
deep-learning library; :func:`uniform_evaluator` (uniform priors, value 0) turns it into a plain
PUCT search, which is what the tests run.

Values are for two-seat zero-sum games: a leaf's value ``v`` is from the view of its seat to
move, and counts ``-v`` for the other seat. A game's end found in the tree is scored with the
game's own returns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from boardlab.rl.vector import Batch, BatchedGame

Ids = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Evaluator = Callable[
    [npt.NDArray[np.float32], Sequence[Ids]], tuple[Sequence[Floats], npt.NDArray[np.float64]]
]
"""``(observations (M, C, H, W), legal ids per row) -> (priors per row, values (M,))``: the
priors are aligned with the legal ids; a value is from the view of that row's seat to move."""


class Node:
    """A position in a search tree: its kernel state, seat to move and legal edges."""

    __slots__ = ("actions", "children", "player", "prior", "returns", "state", "value", "visits")

    def __init__(self, state: Ids, player: int, actions: Ids) -> None:
        self.state = state
        self.player = player
        self.actions = actions
        self.prior = np.full(len(actions), 1.0 / max(len(actions), 1))
        self.visits = np.zeros(len(actions))
        self.value = np.zeros(len(actions))
        """Summed values of each edge, from the view of ``player`` (who chooses the edge)."""
        self.children: list[Node | None] = [None] * len(actions)
        self.returns: Floats | None = None
        """Each seat's returns where the game is over at this node, else None."""

    @classmethod
    def terminal(cls, returns: Floats) -> Node:
        """A leaf where the game has ended with ``returns``."""
        node = cls(np.zeros(0, dtype=np.int64), -1, np.zeros(0, dtype=np.int64))
        node.returns = returns
        return node


def uniform_evaluator(
    observations: npt.NDArray[np.float32], legal: Sequence[Ids]
) -> tuple[list[Floats], npt.NDArray[np.float64]]:
    """Uniform priors and value 0 for every leaf: a plain PUCT search, no network."""
    return [np.full(len(ids), 1.0 / len(ids)) for ids in legal], np.zeros(len(legal))


class BatchedPuct:
    """PUCT over ``env.batch`` trees at once; ``env`` is used only to play tree edges.

    ``c_puct`` weighs the prior against the mean value; at the roots, ``noise`` mixes a
    Dirichlet(``alpha``) draw into the priors with weight ``noise`` (self-play exploration).
    """

    def __init__(
        self,
        env: BatchedGame,
        evaluate: Evaluator,
        simulations: int,
        *,
        c_puct: float = 1.5,
        alpha: float = 0.3,
        noise: float = 0.0,
        seed: int = 0,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        self.env = env
        self.evaluate = evaluate
        self.simulations = simulations
        self.c_puct = c_puct
        self.alpha = alpha
        self.noise = noise
        self.rng = np.random.default_rng(seed)
        self.seats = env.game.num_players
        self._scratch: Batch = env.init(seed)

    def roots(self, batch: Batch) -> list[Node]:
        """Root nodes (evaluated) for the current positions of the games of ``batch``."""
        nodes = [
            Node(batch.states[i].copy(), int(batch.current_player[i]), _legal(batch, i))
            for i in range(len(batch.states))
        ]
        self.expand(nodes, batch.observation.copy())
        return nodes

    def search(self, roots: list[Node]) -> list[Floats]:
        """Run the simulations from ``roots`` (one per tree); the visit counts of each root's
        edges, aligned with ``root.actions``."""
        if len(roots) != self.env.batch:
            raise ValueError(f"{len(roots)} roots for a search of {self.env.batch} trees")
        if self.noise > 0:
            for root in roots:
                draw = self.rng.dirichlet(np.full(len(root.actions), self.alpha))
                root.prior = (1 - self.noise) * root.prior + self.noise * draw
        for _ in range(self.simulations):
            self._simulate(roots)
        return [root.visits.copy() for root in roots]

    def _simulate(self, roots: list[Node]) -> None:
        """One simulation in every tree: descend, play the new edges together, evaluate the new
        leaves together, back their values up."""
        scratch = self._scratch
        paths: list[list[tuple[Node, int]]] = []
        actions = np.empty(len(roots), dtype=np.int64)
        positions = np.empty((len(roots), self.env.kernel.state_size), dtype=np.int64)
        for i, root in enumerate(roots):
            path = self._descend(root)
            paths.append(path)
            parent, edge = path[-1]
            child = parent.children[edge]
            if child is not None:  # a game's end already in the tree: nothing to play
                assert child.returns is not None
                _backup(path, child.returns)
                parent = root  # the row still needs a legal edge for the batched step
                edge = 0
            positions[i] = parent.state
            actions[i] = parent.actions[edge]
        self.env.set_states(scratch, positions)  # legal ids, masks and seats made from them
        self.env.step(scratch, actions)
        fresh: list[int] = []
        for i, path in enumerate(paths):
            parent, edge = path[-1]
            if parent.children[edge] is not None:
                continue
            if scratch.terminated[i] or scratch.truncated[i]:
                node = Node.terminal(scratch.rewards[i].copy())
                parent.children[edge] = node
                assert node.returns is not None
                _backup(path, node.returns)
            else:
                state = scratch.states[i].copy()
                parent.children[edge] = Node(
                    state, int(scratch.current_player[i]), _legal(scratch, i)
                )
                fresh.append(i)
        if fresh:
            leaves = [paths[i][-1][0].children[paths[i][-1][1]] for i in fresh]
            values = self.expand(leaves, scratch.observation[fresh])  # type: ignore[arg-type]
            for i, leaf, value in zip(fresh, leaves, values, strict=True):
                assert leaf is not None
                _backup(paths[i], self._seat_values(leaf.player, float(value)))

    def _descend(self, root: Node) -> list[tuple[Node, int]]:
        """The path of (node, edge) pairs from ``root`` to an edge with no evaluated child."""
        path = []
        node = root
        while True:
            total = node.visits.sum()
            mean = np.divide(
                node.value, node.visits, out=np.zeros_like(node.value), where=node.visits > 0
            )
            score = mean + self.c_puct * node.prior * np.sqrt(total + 1) / (1 + node.visits)
            edge = int(np.argmax(score))
            path.append((node, edge))
            child = node.children[edge]
            if child is None or child.returns is not None:
                return path
            node = child

    def expand(self, nodes: Sequence[Node], observations: npt.NDArray[np.float32]) -> Floats:
        """Set the priors of ``nodes`` from the evaluator; their values, each from the view of
        its node's seat to move."""
        priors, values = self.evaluate(observations, [node.actions for node in nodes])
        for node, prior in zip(nodes, priors, strict=True):
            node.prior = np.asarray(prior, dtype=np.float64)
        return np.asarray(values, dtype=np.float64)

    def _seat_values(self, player: int, value: float) -> Floats:
        """Each seat's value when ``player``'s is ``value`` (two seats, zero-sum)."""
        out = np.full(self.seats, -value)
        out[player] = value
        return out


def _legal(batch: Batch, i: int) -> Ids:
    """Game ``i``'s legal ids, copied out of the batch."""
    return batch.legal_ids[i, : batch.legal_count[i]].copy()


def _backup(path: list[tuple[Node, int]], values: Floats) -> None:
    """Add one visit and the chooser's value to every edge of ``path``."""
    for node, edge in path:
        node.visits[edge] += 1
        node.value[edge] += values[node.player]
