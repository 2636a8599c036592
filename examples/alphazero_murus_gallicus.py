"""AlphaZero-style self-play training on Murus Gallicus, over Boardlab's batched environment.

Two commands:

``train``
    ``--games`` games of self-play at once on the compiled batched environment
    (:class:`boardlab.rl.vector.BatchedGame`). Each move, a PUCT search of ``--simulations``
    simulations runs in every game together (:mod:`az_search`): each simulation plays one new
    edge per game in one batched step and evaluates all the new leaves in one forward pass of a
    small PyTorch network (an MLP over the observation planes, with a policy head over the
    game's action ids, masked to the legal ones, and a value head). The visit counts are the
    policy targets and the game's result the value targets, kept in a replay buffer; after
    every move of all the games the network takes ``--updates`` gradient steps on minibatches
    from the buffer. A checkpoint is written every ``--checkpoint-every`` seconds of training
    (``OUT/step-NNNNNN.pt``, with the wall and CPU seconds so far) and at the end.

``evaluate CHECKPOINT...``
    Each checkpoint plays ``--eval-games`` games against each of ``--opponents`` (Boardlab
    player specs, default ``random`` and ``level:easy``), colours alternated, through
    Boardlab's own bot interface (:class:`AlphaZeroBot`, a :class:`boardlab.ai.base.Bot`
    choosing the most visited move of a PUCT search of ``--eval-simulations`` simulations,
    no noise). Prints win/draw/loss rates with Wilson 95 % intervals on the win rate.

Needs PyTorch besides ``boardlab[rl,fast]`` (CPU build; see docs/rl.md)::

    pip install 'boardlab[rl,fast]' torch==2.13.0
    python examples/alphazero_murus_gallicus.py train --minutes 30 --out az-runs/1
    python examples/alphazero_murus_gallicus.py evaluate az-runs/1/step-*.pt

Murus Gallicus with its default options; two seats, so values are zero-sum.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt
import torch
from az_search import BatchedPuct, Evaluator, Floats, Ids, Node
from torch import nn

from boardlab.ai.base import Bot
from boardlab.ai.players import make_bot
from boardlab.core.registry import make
from boardlab.core.state import State
from boardlab.rl.fast import observation_encoder
from boardlab.rl.vector import BatchedGame

GAME = "murus-gallicus"


class PolicyValueNet(nn.Module):
    """An MLP over the flattened planes: a policy logit per action id and a value in [-1, 1]."""

    def __init__(self, inputs: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Flatten(), nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Sequential(nn.Linear(hidden, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())

    def forward(self, planes: torch.Tensor, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Policy logits of the action ids ``ids`` ``(B, K)`` only, and values ``(B,)``.

        A position has about 20 legal ids of the 1008: computing those logits alone (the policy
        layer's rows they pick) costs a fiftieth of the full policy layer.
        """
        features = self.trunk(planes)
        weight = self.policy.weight[ids]  # (B, K, hidden)
        logits = torch.einsum("bkh,bh->bk", weight, features) + self.policy.bias[ids]
        return logits, self.value(features).squeeze(-1)


def network_evaluator(net: PolicyValueNet) -> Evaluator:
    """The search's evaluator: the network's softmax over each row's legal ids, and its value."""

    def evaluate(
        observations: npt.NDArray[np.float32], legal: Sequence[Ids]
    ) -> tuple[list[Floats], npt.NDArray[np.float64]]:
        ids, padding = padded(legal)
        with torch.inference_mode():
            logits, values = net(torch.from_numpy(np.ascontiguousarray(observations)), ids)
            probs = torch.softmax(logits.masked_fill(padding, -math.inf), dim=1).numpy()
        priors = [
            probs[row, : len(row_ids)].astype(np.float64) for row, row_ids in enumerate(legal)
        ]
        return priors, values.numpy().astype(np.float64)

    return evaluate


def padded(legal: Sequence[Ids]) -> tuple[torch.Tensor, torch.Tensor]:
    """The rows' legal ids padded with id 0 to the longest row, and where the padding is."""
    width = max(len(ids) for ids in legal)
    out = np.zeros((len(legal), width), dtype=np.int64)
    for row, ids in enumerate(legal):
        out[row, : len(ids)] = ids
    counts = torch.tensor([len(ids) for ids in legal])
    return torch.from_numpy(out), torch.arange(width)[None, :] >= counts[:, None]


class ReplayBuffer:
    """The last ``capacity`` positions: planes, legal ids, visit distribution, result."""

    def __init__(self, capacity: int, shape: tuple[int, ...], max_legal: int) -> None:
        self.planes = np.zeros((capacity, *shape), dtype=np.float32)
        self.ids = np.zeros((capacity, max_legal), dtype=np.int64)
        self.count = np.zeros(capacity, dtype=np.int64)
        self.policy = np.zeros((capacity, max_legal), dtype=np.float32)
        self.outcome = np.zeros(capacity, dtype=np.float32)
        self.capacity = capacity
        self.size = 0
        self._next = 0

    def add(self, planes: npt.NDArray[np.float32], ids: Ids, policy: Floats, z: float) -> None:
        """One position; padding ids (beyond the legal ones) get probability 0."""
        k = self._next
        self.planes[k] = planes
        self.ids[k] = 0
        self.policy[k] = 0.0
        self.ids[k, : len(ids)] = ids
        self.count[k] = len(ids)
        self.policy[k, : len(ids)] = policy
        self.outcome[k] = z
        self._next = (k + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[torch.Tensor, ...]:
        """``n`` positions drawn uniformly, as tensors."""
        rows = rng.integers(0, self.size, n)
        width = int(self.count[rows].max())
        return (
            torch.from_numpy(self.planes[rows]),
            torch.from_numpy(self.ids[rows, :width]),
            torch.from_numpy(self.count[rows]),
            torch.from_numpy(self.policy[rows, :width]),
            torch.from_numpy(self.outcome[rows]),
        )


def loss_of(net: PolicyValueNet, batch: tuple[torch.Tensor, ...]) -> torch.Tensor:
    """Cross-entropy of the visit distribution against the legal-masked policy, plus the
    squared error of the value against the game's result."""
    planes, ids, count, policy, outcome = batch
    logits, values = net(planes, ids)
    padding = torch.arange(ids.shape[1])[None, :] >= count[:, None]
    # The softmax over the legal ids alone: the policy masked to the legal moves.
    log_probs = torch.log_softmax(logits.masked_fill(padding, -math.inf), dim=1)
    policy_loss = -(policy * log_probs.masked_fill(padding, 0.0)).sum(1).mean()
    total: torch.Tensor = policy_loss + ((values - outcome) ** 2).mean()
    return total


def one_thread() -> None:
    """One thread for PyTorch and Numba: on a shared machine a parallel batched step waits for
    a second thread that is not scheduled (24 ms a step of 64 games instead of 0.25 ms)."""
    torch.set_num_threads(1)
    numba.set_num_threads(1)


def train(args: argparse.Namespace) -> None:
    """Self-play, replay, gradient steps and checkpoints until ``--minutes`` have passed."""
    one_thread()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    play = BatchedGame(GAME, args.games, dense_mask=False)
    batch = play.init(args.seed)
    shape = play.observation_shape
    net = PolicyValueNet(int(np.prod(shape)), play.num_actions, args.hidden)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=1e-4)
    search = BatchedPuct(
        BatchedGame(GAME, args.games, dense_mask=False),
        network_evaluator(net),
        args.simulations,
        noise=0.25,
        seed=args.seed + 1,
    )
    replay = ReplayBuffer(args.buffer, shape, play.kernel.max_legal)
    history: list[list[tuple[npt.NDArray[np.float32], Ids, Floats, int]]] = [
        [] for _ in range(args.games)
    ]
    plies = np.zeros(args.games, dtype=np.int64)
    start, cpu_start = time.perf_counter(), time.process_time()
    next_checkpoint = args.checkpoint_every
    moves = finished = updates = 0
    save(net, out, 0, 0.0, 0.0, args)
    while (elapsed := time.perf_counter() - start) < args.minutes * 60:
        net.eval()
        roots = search.roots(batch)
        visits = search.search(roots)
        actions = np.empty(args.games, dtype=np.int64)
        for i, (root, counts) in enumerate(zip(roots, visits, strict=True)):
            target = counts / counts.sum()
            history[i].append((batch.observation[i].copy(), root.actions, target, root.player))
            pick = (
                int(rng.choice(len(counts), p=target))
                if plies[i] < args.sample_plies
                else int(np.argmax(counts))
            )
            actions[i] = root.actions[pick]
        play.step(batch, actions)
        plies += 1
        moves += 1
        for ended in np.flatnonzero(batch.terminated | batch.truncated).tolist():
            for planes, ids, target, player in history[ended]:
                replay.add(planes, ids, target, float(batch.rewards[ended, player]))
            history[ended] = []
            plies[ended] = 0
            finished += 1
        if replay.size >= args.minibatch:
            net.train()
            for _ in range(args.updates):
                loss = loss_of(net, replay.sample(rng, args.minibatch))
                optimiser.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                optimiser.step()
                updates += 1
        if elapsed >= next_checkpoint:
            next_checkpoint += args.checkpoint_every
            cpu = time.process_time() - cpu_start
            save(net, out, updates, elapsed, cpu, args)
            print(
                f"{elapsed / 60:6.1f} min wall {cpu / 60:6.1f} min CPU: {moves} moves of "
                f"{args.games} games, {finished} games finished, {replay.size} positions, "
                f"{updates} updates",
                flush=True,
            )
    save(net, out, updates, time.perf_counter() - start, time.process_time() - cpu_start, args)


def save(
    net: PolicyValueNet, out: Path, updates: int, wall: float, cpu: float, args: argparse.Namespace
) -> None:
    """A checkpoint: the weights, the network's size, and the training time so far."""
    path = out / f"step-{updates:06d}.pt"
    torch.save(
        {"model": net.state_dict(), "hidden": args.hidden, "wall": wall, "cpu": cpu,
         "updates": updates},
        path,
    )  # fmt: skip


class AlphaZeroBot(Bot):
    """A Boardlab bot: the most visited move of a PUCT search guided by the network."""

    def __init__(self, net: PolicyValueNet, simulations: int, seed: int = 0) -> None:
        super().__init__(seed, f"alphazero:simulations={simulations}")
        self.env = BatchedGame(GAME, 1, dense_mask=False)
        self.game = self.env.game
        self.kernel = self.env.kernel
        self.encoder = observation_encoder(self.game)
        self.search = BatchedPuct(self.env, network_evaluator(net), simulations, seed=seed)

    def _choose(self, state: State) -> int:
        seat = state.current_player
        actions = np.array(state.legal_actions(), dtype=np.int64)
        root = Node(self.kernel.encode(state), seat, actions)
        self.search.expand([root], self.encoder.encode(state, seat)[None])
        visits = self.search.search([root])[0]
        return int(actions[int(np.argmax(visits))])


def play_one(bots: Sequence[Bot]) -> list[float]:
    """One game of Murus Gallicus between ``bots`` (seat order); each seat's returns."""
    state = make(GAME).new_initial_state()
    while not state.is_terminal():
        seat = state.current_player
        state.apply_action(bots[seat].choose(state.view_state(seat)))
    return list(state.returns())


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The Wilson score 95 % interval of a win rate."""
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate(args: argparse.Namespace) -> None:
    """Each checkpoint against each opponent, colours alternated; one line per pair."""
    one_thread()
    game = make(GAME)
    shape = observation_encoder(game).shape
    for path in args.checkpoints:
        saved = torch.load(path, weights_only=True)
        net = PolicyValueNet(int(np.prod(shape)), game.num_actions, int(saved["hidden"]))
        net.load_state_dict(saved["model"])
        net.eval()
        for opponent in args.opponents:
            tally = [0, 0, 0]
            started = time.perf_counter()
            for g in range(args.eval_games):
                seat = g % 2
                ours = AlphaZeroBot(net, args.eval_simulations, seed=g)
                theirs = make_bot(opponent, game, seed=10_000 + g)
                if theirs is None:
                    raise SystemExit("boardlab: error: the opponent must be a bot, not human")
                bots = [ours, theirs] if seat == 0 else [theirs, ours]
                result = play_one(bots)[seat]
                tally[0 if result > 0 else 1 if result == 0 else 2] += 1
            n = args.eval_games
            low, high = wilson(tally[0], n)
            print(
                f"{path}: {saved['wall'] / 60:.1f} min wall, {saved['cpu'] / 60:.1f} min CPU, "
                f"{saved['updates']} updates | vs {opponent}: win {tally[0] / n:.2f} "
                f"[{low:.2f}, {high:.2f}] draw {tally[1] / n:.2f} loss {tally[2] / n:.2f} "
                f"({n} games, {args.eval_simulations} simulations, "
                f"{time.perf_counter() - started:.0f} s)",
                flush=True,
            )


def parser() -> argparse.ArgumentParser:
    """The command line (``--help`` explains it)."""
    top = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = top.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="self-play training, writing checkpoints")
    tr.add_argument("--out", required=True, help="folder for the checkpoints")
    tr.add_argument("--minutes", type=float, default=30.0, help="wall time to train (30)")
    tr.add_argument("--games", type=int, default=64, help="self-play games at once (64)")
    tr.add_argument("--simulations", type=int, default=32, help="PUCT simulations a move (32)")
    tr.add_argument(
        "--sample-plies", type=int, default=12,
        help="plies per game whose move is drawn from the visit counts, not the most visited (12)",
    )  # fmt: skip
    tr.add_argument("--hidden", type=int, default=256, help="width of the MLP's layers (256)")
    tr.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (0.001)")
    tr.add_argument("--buffer", type=int, default=50_000, help="replay buffer positions (50000)")
    tr.add_argument("--minibatch", type=int, default=256, help="positions per update (256)")
    tr.add_argument("--updates", type=int, default=1, help="updates after each move (1)")
    tr.add_argument(
        "--checkpoint-every", type=float, default=300.0,
        help="seconds of training between checkpoints (300)",
    )  # fmt: skip
    tr.add_argument("--seed", type=int, default=0, help="seed of games, search and net (0)")
    ev = sub.add_parser("evaluate", help="play checkpoints against Boardlab bots")
    ev.add_argument("checkpoints", nargs="+", help="checkpoint files written by train")
    ev.add_argument("--eval-games", type=int, default=40, help="games per opponent (40)")
    ev.add_argument("--eval-simulations", type=int, default=32, help="PUCT simulations a move (32)")
    ev.add_argument(
        "--opponents", nargs="+", default=["random", "level:easy"],
        help="Boardlab player specs to play (random level:easy)",
    )  # fmt: skip
    return top


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``train`` or ``evaluate``."""
    top = parser()
    args = top.parse_args(argv)
    counts = ("games", "simulations", "buffer", "minibatch", "eval_games", "eval_simulations")
    for name in counts:
        if getattr(args, name, 1) < 1:
            top.error(f"--{name.replace('_', '-')} must be at least 1")
    missing = [path for path in getattr(args, "checkpoints", []) if not Path(path).is_file()]
    if missing:
        top.error(f"no checkpoint file {missing[0]}")
    if args.command == "train":
        train(args)
    else:
        evaluate(args)


if __name__ == "__main__":
    main(sys.argv[1:])
