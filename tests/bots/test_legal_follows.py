"""Deals on which the other seats' past follows were legal (:mod:`tuolaji.bots.knowledge.legal_follows`,
R22–R25): the real deal breaks none, the class-only check agrees with the whole hand's, most sampled
deals break some, and mending keeps to the view while never breaking more."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.bots.test_caps import breaks
from tests.bots.test_deal_chain import late_positions
from tuolaji.bots.knowledge.legal_follows import PastFollows, mend
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.players.search import SearchBot, SearchConfig
from tuolaji.cards import KINDS
from tuolaji.game.view import SeatView
from tuolaji.rules import is_legal_follow


def follows_of(view: SeatView, current_stands: bool = True) -> tuple[Situation, PastFollows]:
    sit = Situation.from_view(view)
    return sit, PastFollows(sit, trick_plays(view.tricks, view.trick), current_stands)


def sampled(sit: Situation, view: SeatView, rng: random.Random) -> list[list[int]]:
    return sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_the_real_deal_breaks_no_past_follow(preset: str) -> None:
    checked = 0
    for view, real in late_positions(preset, seed=3, every=2, most_cards=54):
        sit, follows = follows_of(view)
        assert follows.by_seat[sit.seat] == []
        for seat in range(4):
            assert follows.broken(seat, real[seat]) == []
            checked += len(follows.by_seat[seat])
    assert checked > 200


def whole_hands_then(view: SeatView, seat: int, hand_now: list[int]) -> list[tuple[list[int], tuple[int, ...]]]:
    """``seat``'s follows to leads of two cards or more, newest first, each with its whole hand then."""
    since = [0] * KINDS
    found: list[tuple[list[int], tuple[int, ...]]] = []
    plays = [
        (trick[0].cards, index, play)
        for trick in trick_plays(view.tricks, view.trick)
        for index, play in enumerate(trick)
    ]
    for lead, index, play in reversed(plays):
        if play.seat != seat:
            continue
        for card in play.cards:
            since[card] += 1
        if index and len(lead) >= 2:
            found.append(
                ([kind for kind in range(KINDS) for _ in range(hand_now[kind] + since[kind])], tuple(play.cards))
            )
    return found


def test_the_class_only_check_is_the_whole_hands_check() -> None:
    """A follow's legality depends only on the follower's cards of the led suit-class (R23–R25), so
    the check from those cards agrees with the rules engine on the whole hand then, on real and on
    sampled deals."""
    rng = random.Random(1)
    illegal = 0
    for view, real in late_positions("nanning", seed=2, every=3, most_cards=54):
        sit, follows = follows_of(view)
        for hands in (real, sampled(sit, view, rng)):
            for seat in range(4):
                if seat == sit.seat:
                    continue
                wholes = whole_hands_then(view, seat, hands[seat])
                assert [cards for _, cards in wholes] == [follow.cards for follow in follows.by_seat[seat]]
                for (whole, _), follow in zip(wholes, follows.by_seat[seat], strict=True):
                    legal = is_legal_follow(whole, follow.lead, follow.cards, sit.table.trump, sit.preset)
                    assert follows.legal(follow, hands[seat]) == legal
                    illegal += not legal
    assert illegal > 0


@pytest.mark.parametrize("seed", [0, 4])
def test_mending_keeps_to_the_view_and_never_breaks_more(seed: int) -> None:
    """Most sampled deals break a past follow; mending keeps the viewer's hand, every hand's size, the
    hidden cards, the voids, caps and known cards, and leaves fewer follows broken in all."""
    rng = random.Random(seed)
    broken_before = broken_after = deals = 0
    for view, real in late_positions("nanning", seed=seed, every=2, most_cards=54):
        sit, follows = follows_of(view)
        hands = sampled(sit, view, rng)
        before = sum(len(follows.broken(seat, hands[seat])) for seat in range(4))
        left = mend(follows, hands, rng, 30)
        assert left == sum(len(follows.broken(seat, hands[seat])) for seat in range(4)) <= before
        assert hands[sit.seat] == sit.counts
        assert [sum(hand) for hand in hands] == [sum(hand) for hand in real]
        assert [sum(hand[kind] for hand in hands) for kind in range(KINDS)] == [
            sum(hand[kind] for hand in real) for kind in range(KINDS)
        ]
        for seat in range(4):
            if seat != sit.seat:
                assert breaks(sit.table, sit.know, seat, hands[seat]) == []
                assert all(hands[seat][kind] >= count for kind, count in enumerate(sit.know.known[seat]))
        broken_before += before > 0
        broken_after += left > 0
        deals += 1
    assert deals > 10
    assert broken_before > deals // 2
    assert broken_after < broken_before


def test_mending_is_deterministic_for_a_seed() -> None:
    view, _ = late_positions("nanning", seed=5, every=4, most_cards=40)[0]
    sit, follows = follows_of(view)
    deals = []
    for _ in range(2):
        rng = random.Random(9)
        hands = sampled(sit, view, rng)
        mend(follows, hands, rng, 30)
        deals.append(hands)
    assert deals[0] == deals[1]


def test_the_follows_of_the_trick_on_the_table_count_only_where_they_stand() -> None:
    """In ``laogai`` tables a wrong follow is judged only when the trick ends (R33), so the follows
    of the trick on the table are left out unless the table rejects wrong follows."""
    counted = 0
    for view, _ in late_positions("nanning", seed=1, every=1, most_cards=54, in_trick=True):
        if len(view.trick[0].cards) < 2:
            continue
        sit = Situation.from_view(view)
        plays = trick_plays(view.tricks, view.trick)
        standing = PastFollows(sit, plays, True)
        judged = PastFollows(sit, plays, False)
        on_table = [play for play in view.trick[1:] if play.seat != sit.seat]
        for seat in range(4):
            mine = [play for play in on_table if play.seat == seat]
            assert len(standing.by_seat[seat]) == len(judged.by_seat[seat]) + len(mine)
            counted += len(mine)
    assert counted > 0


def test_the_search_mends_its_sampled_deals() -> None:
    """Before the deal chain (``SearchConfig.chain_from``) the search's deals are samples mended to break no
    more past follows, with the follows it checked charged to the budget; with ``mend_swaps=0`` they
    are plain samples at no cost."""
    config = SearchConfig()
    fewer = 0
    for view, _ in late_positions("nanning", seed=6, every=3, most_cards=54):
        sit, follows = follows_of(view, view.illegal_follow == "reject")
        if sit.hand_size <= config.chain_from(leading=not view.trick):
            continue
        start = sampled(sit, view, random.Random(5))
        plain = next(SearchBot(0, replace(config, mend_swaps=0)).deals(view, sit, random.Random(5), 40.0))
        assert plain == (start, 0.0)
        deal, cost = next(SearchBot(0, config).deals(view, sit, random.Random(5), 40.0))
        counted = [sum(len(follows.broken(seat, hands[seat])) for seat in range(4)) for hands in (start, deal)]
        assert counted[1] <= counted[0]
        fewer += counted[1] < counted[0]
        assert (cost > 0) == any(follows.by_seat)
    assert fewer > 0
