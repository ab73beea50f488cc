"""Fit the search's belief model (:mod:`tuolaji.bots.montecarlo.belief`) on heuristic self-play.

Data recipe: arena deals of ``--seed`` (:func:`tuolaji.bots.arena.deal_setup`, preset ``nanning``),
bid and played by the heuristic for all four seats (``selfplay.self_play``); deals ``0 … --deals −
1`` to fit on and the next ``--val-deals`` to stop on. Every move of the play is a position with
probability ``--rate`` (a generator seeded by the seed and the deal): the seat to move's view is
turned into :func:`~tuolaji.bots.montecarlo.belief.belief_input` (from that view only), and the
targets are the free copies of each kind each other seat really holds (its hand less the copies
it is known to hold). Kinds no copy of which is free, or which only one seat may hold, tell nothing
and are left out.

The model scores each (seat, kind) pair with one hidden layer of ``--hidden`` tanh units on the
standardised features; a kind's free copies are spread over the seats that may hold them by a
softmax of score + log(free room). It is fitted by Adam on the copies' log-loss (mini-batches of
``--batch`` kinds, ``--epochs`` passes, learning rate ``--lr``, L2 ``--l2``, initial weights from
``--init-seed``), keeping the epoch with the lowest loss on the held-out deals, and written to
``--out`` (default: the package's ``belief.npz``). The positions are cached in ``--data`` (an
``.npz``; reused if it exists with the same recipe).

The shipped weights: seed 601, 1,500 deals to fit, 300 to stop on, rate 0.25, hidden 24, batch
4,096, 20 epochs, lr 0.003, L2 1e-5, init seed 1 (docs/RESEARCH-LOG.md, 2026-12-06). Arena seed 601
is used for nothing else: it is not an evaluation seed and must never become one.

Run: ``nice -n 19 .venv/bin/python benchmarks/belief_train.py --seed 601 --deals 1500 --val-deals 300
--jobs 2 --data /tmp/belief601.npz``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from selfplay import self_play

from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.belief import FEATURES, MODEL_PATH, BeliefInput, BeliefModel, belief_input
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

Array = npt.NDArray[np.float32]
CHUNK = 25
"""Deals per worker task."""


@dataclass
class Groups:
    """Kinds to place: features (G, 3, F), log free room (G, 3; −inf where a seat may not hold one),
    free copies each seat really holds (G, 3), and cards in the observer's hand (G)."""

    x: Array
    log_room: Array
    target: Array
    cards: npt.NDArray[np.int16]

    @classmethod
    def join(cls, parts: Sequence[Groups]) -> Groups:
        names = ("x", "log_room", "target", "cards")
        return cls(*(np.concatenate([getattr(part, name) for part in parts]) for name in names))

    def save(self, path: str, recipe: str) -> None:
        np.savez(path, x=self.x, log_room=self.log_room, target=self.target, cards=self.cards, recipe=np.array(recipe))

    @classmethod
    def load(cls, path: str, recipe: str) -> Groups | None:
        if not Path(path).exists():
            return None
        with np.load(path, allow_pickle=False) as data:
            if str(data["recipe"]) != recipe:
                return None
            return cls(data["x"], data["log_room"], data["target"], data["cards"])


def truth_of(inp: BeliefInput, round_: Round, sit: Situation) -> Array:
    """Shape (54, 3): the free copies each of ``inp.seats`` really holds."""
    known = np.array(sit.know.known, dtype=np.float32)
    held = np.array([counts_of(round_.view(seat).hand) for seat in inp.seats], dtype=np.float32)
    result: Array = np.maximum(0.0, held - known[list(inp.seats)]).T
    return result


def informative(inp: BeliefInput) -> npt.NDArray[np.bool_]:
    """The kinds worth placing: some copy free and two seats or more that may hold it."""
    mask: npt.NDArray[np.bool_] = (inp.free > 0) & (np.isfinite(inp.log_room).sum(axis=1) >= 2)
    return mask


def chunk(task: tuple[int, int, int, float]) -> Groups:
    """The positions of deals ``first … first + deals − 1`` of ``seed`` (see the module docstring)."""
    seed, first, deals, rate = task
    parts: list[tuple[Array, Array, Array, int]] = []
    rng = random.Random(f"belief:{seed}:{first}")

    def visit(round_: Round, view: SeatView) -> None:
        if rng.random() >= rate:
            return
        sit = Situation.from_view(view)
        inp = belief_input(sit, trick_plays(view.tricks, view.trick), view.bids, view.hand_sizes)
        keep = informative(inp)
        if keep.any():
            parts.append((inp.x[keep], inp.log_room[keep], truth_of(inp, round_, sit)[keep], len(view.hand)))

    self_play(seed, deals, visit, first=first)
    if not parts:
        empty = np.zeros((0, 3), np.float32)
        return Groups(np.zeros((0, 3, len(FEATURES)), np.float16), empty, empty, np.zeros(0, np.int16))
    return Groups(
        np.concatenate([p[0] for p in parts]).astype(np.float16),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
        np.concatenate([np.full(len(p[0]), p[3], np.int16) for p in parts]),
    )


def gather(seed: int, first: int, deals: int, rate: float, jobs: int) -> Groups:
    """The positions of ``deals`` deals from ``first``, over ``jobs`` worker processes."""
    tasks = [(seed, start, min(CHUNK, first + deals - start), rate) for start in range(first, first + deals, CHUNK)]
    if jobs <= 1:
        return Groups.join([chunk(task) for task in tasks])
    with ProcessPoolExecutor(jobs) as pool:
        return Groups.join(list(pool.map(chunk, tasks)))


@dataclass
class Net:
    """The network's weights, as :class:`BeliefModel` reads them."""

    mean: Array
    std: Array
    w1: Array
    b1: Array
    w2: Array
    b2: Array

    def model(self) -> BeliefModel:
        return BeliefModel(self.arrays())

    def arrays(self) -> dict[str, Array]:
        return {name: getattr(self, name) for name in ("mean", "std", "w1", "b1", "w2", "b2")}


def loss_and_grads(net: Net, x: Array, log_room: Array, target: Array) -> tuple[float, float, dict[str, Array]]:
    """Summed log-loss of the copies, their number, and the gradients of the summed loss."""
    xs = (x.astype(np.float32) - net.mean) / net.std
    hidden = np.tanh(xs @ net.w1 + net.b1)
    logits = hidden @ net.w2 + net.b2 + log_room
    top = np.max(logits, axis=1, keepdims=True)
    shifted = logits - top
    weights = np.exp(shifted)
    total = weights.sum(axis=1, keepdims=True)
    log_p = np.where(np.isfinite(log_room), shifted - np.log(total), 0.0)
    copies = target.sum(axis=1, keepdims=True)
    loss = float(-(target * log_p).sum())
    dz = copies * weights / total - target
    dhidden = dz[..., None] * net.w2 * (1.0 - hidden * hidden)
    grads = {
        "w2": np.einsum("gsh,gs->h", hidden, dz).astype(np.float32),
        "b2": np.array(dz.sum(), dtype=np.float32),
        "w1": np.einsum("gsf,gsh->fh", xs, dhidden).astype(np.float32),
        "b1": dhidden.sum(axis=(0, 1)).astype(np.float32),
    }
    return loss, float(copies.sum()), grads


def mean_loss(net: Net, data: Groups, batch: int = 65536) -> float:
    """Log-loss a free copy (nats) over ``data``."""
    loss = copies = 0.0
    for start in range(0, len(data.x), batch):
        part = slice(start, start + batch)
        found, count, _ = loss_and_grads(net, data.x[part], data.log_room[part], data.target[part])
        loss += found
        copies += count
    return loss / copies


def fit(train: Groups, val: Groups, hidden: int, epochs: int, batch: int, lr: float, l2: float, seed: int) -> Net:
    """Adam on the log-loss, keeping the epoch best on ``val`` (see the module docstring)."""
    rng = np.random.default_rng(seed)
    flat = train.x.reshape(-1, len(FEATURES)).astype(np.float32)
    std = flat.std(axis=0)
    net = Net(
        flat.mean(axis=0),
        np.where(std > 1e-3, std, 1.0).astype(np.float32),
        (rng.standard_normal((len(FEATURES), hidden)) * 0.3 / np.sqrt(len(FEATURES))).astype(np.float32),
        np.zeros(hidden, np.float32),
        np.zeros(hidden, np.float32),
        np.zeros((), np.float32),
    )
    moments = {name: tuple(np.zeros_like(getattr(net, name)) for _ in "mv") for name in ("w1", "b1", "w2", "b2")}
    best, best_net, step = mean_loss(net, val), Net(**net.arrays()), 0
    print(f"before fitting: held-out log-loss {best:.4f} nats a free copy (the free-room prior)")
    for epoch in range(epochs):
        order = rng.permutation(len(train.x))
        for start in range(0, len(order), batch):
            part = order[start : start + batch]
            _, copies, grads = loss_and_grads(net, train.x[part], train.log_room[part], train.target[part])
            step += 1
            for name, grad in grads.items():
                value = getattr(net, name)
                grad = grad / copies + l2 * value
                first, second = moments[name]
                first *= 0.9
                first += 0.1 * grad
                second *= 0.999
                second += 0.001 * grad * grad
                value -= lr * (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
        loss = mean_loss(net, val)
        print(f"epoch {epoch + 1}: held-out log-loss {loss:.4f}")
        if loss < best:
            best, best_net = loss, Net(**{name: np.copy(a) for name, a in net.arrays().items()})
    return best_net


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=601)
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--val-deals", type=int, default=300)
    parser.add_argument("--rate", type=float, default=0.25)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=24)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--lr", type=float, default=0.003)
    parser.add_argument("--l2", type=float, default=1e-5)
    parser.add_argument("--init-seed", type=int, default=1)
    parser.add_argument("--data", help="cache of the positions (.npz)")
    parser.add_argument("--out", default=str(MODEL_PATH))
    args = parser.parse_args()
    recipe = f"{args.seed}:{args.deals}:{args.val_deals}:{args.rate}:{','.join(FEATURES)}"
    start = time.process_time()
    cached = Groups.load(args.data + ".train.npz", recipe) if args.data else None
    val = Groups.load(args.data + ".val.npz", recipe) if args.data else None
    if cached is None or val is None:
        cached = gather(args.seed, 0, args.deals, args.rate, args.jobs)
        val = gather(args.seed, args.deals, args.val_deals, args.rate, args.jobs)
        if args.data:
            cached.save(args.data + ".train.npz", recipe)
            val.save(args.data + ".val.npz", recipe)
    print(f"{len(cached.x)} kinds to fit on, {len(val.x)} held out ({time.process_time() - start:.0f} s CPU here)")
    net = fit(cached, val, args.hidden, args.epochs, args.batch, args.lr, args.l2, args.init_seed)
    arrays: dict[str, npt.NDArray[np.generic]] = {"features": np.array(FEATURES), **net.arrays()}
    np.savez(args.out, allow_pickle=False, **arrays)
    print(f"wrote {args.out} ({Path(args.out).stat().st_size} bytes); held-out log-loss {mean_loss(net, val):.4f}")


if __name__ == "__main__":
    main()
