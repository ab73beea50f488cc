"""How well the belief model (:mod:`tuolaji.bots.montecarlo.belief`) places the hidden cards, on
held-out self-play, against the uniform consistent deals the search samples without it.

Positions: heuristic self-play on arena seed ``--seed`` (deals ``0 … --deals − 1``, preset
``nanning``; never a seed the model was fitted on), each move with probability ``--rate``, from the
view of the seat to move. For every kind with a free copy (hidden and not known to be in a hand)
that two seats or more may hold, each way of placing it gives each other seat a probability:

- ``room``: in proportion to the seats' free room (the model with zero weights);
- ``uniform``: how often ``--samples`` deals of the search's sampler
  (:func:`~tuolaji.bots.knowledge.sampling.sample_hands`, voids, caps and known cards kept) give the
  seat a copy, with one pseudo-copy spread as ``room`` (so no probability is 0);
- ``model``: the belief model's probabilities;
- ``weighted pN``: as ``uniform``, from deals drawn with the model's weights raised to the power N
  (:func:`~tuolaji.bots.montecarlo.belief.belief_weights`), as the search draws them.

Reported by cards in the observer's hand: log-loss (nats a free copy, lower is better), accuracy (the
share of free copies in the seat the probabilities rank first) and, for the samplers, the share of
all hidden cards a sampled deal puts in the right hand (``deal_chain_accuracy.py``'s measure; with
``--mend``, after the search's mending too). Also the model's load time and the CPU time of
``belief_weights`` a position.

Run: ``nice -n 19 .venv/bin/python benchmarks/belief_quality.py --seed 602 --deals 100 --rate 0.1``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from belief_train import informative, truth_of
from deal_chain_accuracy import placed
from selfplay import self_play

from tuolaji.bots.knowledge.legal_follows import PastFollows, mend
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.belief import MODEL_PATH, BeliefInput, BeliefModel, belief_input, belief_weights
from tuolaji.bots.montecarlo.config import SearchConfig
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView

Array = npt.NDArray[np.float32]
BANDS = ((41, 54), (31, 40), (17, 30), (1, 16))


@dataclass
class Score:
    """Summed log-loss, copies placed right, copies, and for a sampler hidden cards placed right of all."""

    loss: float = 0.0
    right: float = 0.0
    copies: float = 0.0
    dealt: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, p: Array, target: Array) -> None:
        self.loss -= float((target * np.log(np.maximum(p, 1e-9))).sum())
        self.right += float(np.take_along_axis(target, p.argmax(axis=1)[:, None], axis=1).sum())
        self.copies += float(target.sum())

    def text(self) -> str:
        found = f"log-loss {self.loss / self.copies:.4f}, accuracy {100 * self.right / self.copies:.1f}%"
        if self.dealt[1]:
            found += f", a deal's hidden cards right {100 * self.dealt[0] / self.dealt[1]:.1f}%"
        return found


def room_prior(inp: BeliefInput) -> Array:
    weights = np.exp(inp.log_room)
    result: Array = weights / np.maximum(weights.sum(axis=1, keepdims=True), 1e-30)
    return result


def sampled(
    inp: BeliefInput,
    view: SeatView,
    sit: Situation,
    real: list[list[int]],
    rng: random.Random,
    samples: int,
    weights: Sequence[Sequence[float]] | None,
    follows: PastFollows | None,
    score: Score,
) -> Array:
    """Each seat's share of the free copies over ``samples`` sampled deals (one pseudo-copy as the
    room prior); adds each deal's placement to ``score.dealt``."""
    counts = np.zeros((54, 3), np.float32)
    known = np.array(sit.know.known, dtype=np.float32)[list(inp.seats)].T
    for _ in range(samples):
        hands = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng, weights)
        if follows is not None:
            mend(follows, hands, rng, SearchConfig().mend_swaps)
        right, hidden = placed(hands, real, sit.seat)
        score.dealt[0] += right
        score.dealt[1] += hidden
        counts += np.array([hands[s] for s in inp.seats], dtype=np.float32).T - known
    free = inp.free[:, None].astype(np.float32)
    result: Array = (counts + room_prior(inp)) / (samples * free + 1.0)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=602)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--powers", type=float, nargs="*", default=[0.5, 1.0, 2.0])
    parser.add_argument("--mend", action="store_true", help="mend every sampled deal, as the search does")
    parser.add_argument("--model", default=str(MODEL_PATH))
    args = parser.parse_args()
    start = time.perf_counter()
    model = BeliefModel.load(args.model)
    load_ms = 1000 * (time.perf_counter() - start)
    names = ["room", "uniform", "model", *(f"weighted p{p:g}" for p in args.powers)]
    scores = {(band, name): Score() for band in BANDS for name in names}
    rng = random.Random(f"quality:{args.seed}")
    spent = [0.0, 0]

    def visit(round_: Round, view: SeatView) -> None:
        if rng.random() >= args.rate:
            return
        sit = Situation.from_view(view)
        plays = trick_plays(view.tricks, view.trick)
        inp = belief_input(sit, plays, view.bids, view.hand_sizes)
        keep = informative(inp)
        band = next(b for b in BANDS if b[0] <= len(view.hand) <= b[1])
        target = truth_of(inp, round_, sit)[keep]
        real = [counts_of(round_.view(seat).hand) for seat in range(4)]
        follows = PastFollows(sit, plays, view.illegal_follow == "reject") if args.mend else None
        scores[band, "room"].add(room_prior(inp)[keep], target)
        scores[band, "model"].add(model.probabilities(inp)[keep], target)
        uniform = sampled(inp, view, sit, real, rng, args.samples, None, follows, scores[band, "uniform"])
        scores[band, "uniform"].add(uniform[keep], target)
        for power in args.powers:
            begin = time.process_time()
            weights = belief_weights(sit, plays, view.bids, view.hand_sizes, power, model)
            spent[0] += time.process_time() - begin
            spent[1] += 1
            name = f"weighted p{power:g}"
            found = sampled(inp, view, sit, real, rng, args.samples, weights, follows, scores[band, name])
            scores[band, name].add(found[keep], target)

    self_play(args.seed, args.deals, visit)
    for band in BANDS:
        print(f"{band[0]}–{band[1]} cards in hand ({scores[band, 'room'].copies:.0f} free copies):")
        for name in names:
            print(f"  {name:12s} {scores[band, name].text()}")
    total = {name: Score() for name in names}
    for (_, name), score in scores.items():
        total[name].loss += score.loss
        total[name].right += score.right
        total[name].copies += score.copies
        total[name].dealt = [a + b for a, b in zip(total[name].dealt, score.dealt, strict=True)]
    print("all positions:")
    for name in names:
        print(f"  {name:12s} {total[name].text()}")
    print(f"model load {load_ms:.1f} ms; belief_weights {1000 * spent[0] / max(1, spent[1]):.2f} ms CPU a position")


if __name__ == "__main__":
    main()
