"""What bids tell about hands: real hands against the search's sampled ones at the first lead.

Deals are bid by the heuristic for all four seats (as in the arena); at the first lead, each seat
samples the other three hands (:func:`tuolaji.bots.knowledge.sampling.sample_hands`) and the sampled hands
are compared with the real ones: trumps held by the standing bidder, by seats whose bids were
overturned and by seats that did not bid, and how many level cards of a suit a seat holds when
it did or did not show them in a bid.
Run: ``.venv/bin/python benchmarks/bid_knowledge.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from selfplay import bid_deal

from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.cards import DECKS, make_card
from tuolaji.rules import TRUMP_CLASS

SAMPLES = 10
ROLES = ("standing bidder", "overturned bidder", "did not bid")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    trumps: dict[str, list[float]] = {role: [0.0, 0.0, 0.0] for role in ROLES}
    level_cards: dict[tuple[str, bool], tuple[Counter[int], Counter[int]]] = {}
    for index in range(args.deals):
        round_ = bid_deal(7, index, "fourdeck")
        if round_ is None or round_.bid is None:
            continue
        bidders = {bid.seat for bid in round_.bids}
        for viewer in range(4):
            view = round_.view(viewer)
            sit = Situation.from_view(view)
            rng = random.Random(index * 4 + viewer)
            samples = [
                sample_hands(sit.table, sit.know, viewer, sit.counts, view.hand_sizes, rng) for _ in range(SAMPLES)
            ]
            for seat in (s for s in range(4) if s != viewer):
                role = ROLES[0] if seat == round_.bid.seat else ROLES[1] if seat in bidders else ROLES[2]
                real = counts_of(round_.view(seat).hand)
                trump_kinds = sit.table.class_kinds[TRUMP_CLASS]
                trumps[role][0] += 1
                trumps[role][1] += sum(real[kind] for kind in trump_kinds)
                trumps[role][2] += sum(hand[seat][kind] for hand in samples for kind in trump_kinds) / SAMPLES
                for suit in range(4):
                    kind = make_card(view.level, suit)
                    shown = any(bid.seat == seat and bid.suit == suit for bid in round_.bids)
                    real_counts, sampled_counts = level_cards.setdefault((role, shown), (Counter(), Counter()))
                    real_counts[real[kind]] += SAMPLES
                    sampled_counts.update(hand[seat][kind] for hand in samples)
    for role, (seen, real_sum, sampled_sum) in trumps.items():
        if seen:
            print(f"{role}: {real_sum / seen:.1f} trumps held, {sampled_sum / seen:.1f} sampled ({int(seen)} hands)")
    for (role, shown), (real_counts, sampled_counts) in sorted(level_cards.items()):
        total = sum(real_counts.values())
        shares = " ".join(
            f"{copies}: {real_counts[copies] / total:.2f}/{sampled_counts[copies] / total:.2f}"
            for copies in range(DECKS + 1)
        )
        which = "a suit it showed" if shown else "a suit it did not show"
        print(f"{role}, level cards of {which} (held: real/sampled share): {shares}")


if __name__ == "__main__":
    main()
