"""Replaying the other seats' past moves (:mod:`tuolaji.bots.montecarlo.deal_chain`): the real deal replays every
move of heuristic players; the chain keeps its deals consistent with the view, never makes more
moves fail, and its incremental bookkeeping matches a full replay."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.bots.conftest import bid_with, setup
from tests.bots.test_caps import breaks
from tuolaji.bots import make_bot
from tuolaji.bots.knowledge.sampling import sample_hands
from tuolaji.bots.knowledge.shapes import counts_of
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.knowledge.tracking import trick_plays
from tuolaji.bots.montecarlo.deal_chain import DealChain, PastMoves
from tuolaji.bots.players.search import SearchBot, SearchConfig
from tuolaji.game import Play, Round
from tuolaji.game.driver import play_to_end
from tuolaji.game.view import SeatView

AIMED = SearchConfig().aimed
"""The search's share of aimed swaps."""


def late_positions(
    preset: str, seed: int, every: int = 9, most_cards: int = 20, in_trick: bool = False
) -> list[tuple[SeatView, list[list[int]]]]:
    """Views (with the real hands) from a hand four heuristic players play: at the lead of every
    ``every``-th trick, or (``in_trick``) at each follow in it."""
    bots = [make_bot("heuristic", seat) for seat in range(4)]
    round_ = Round(setup(seed, preset, dealer=seed % 4, level=2 + seed))
    assert bid_with(round_, bots)
    found: list[tuple[SeatView, list[list[int]]]] = []

    def move(seat: int) -> Play:
        view = round_.view(seat)
        if (
            view.tricks
            and len(view.hand) <= most_cards
            and len(view.tricks) % every == 0
            and bool(view.trick) == in_trick
        ):
            found.append((view, [counts_of(round_.view(s).hand) for s in range(4)]))
        action = bots[seat].choose(view)
        assert isinstance(action, Play)
        return action

    play_to_end(round_, move)
    return found


def past_of(view: SeatView, depth: int = 12) -> PastMoves:
    return PastMoves(Situation.from_view(view), trick_plays(view.tricks, view.trick), depth)


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_the_real_deal_replays_every_move_of_heuristic_players(preset: str) -> None:
    replayed = 0
    for view, real in late_positions(preset, seed=3, every=2, most_cards=54):
        past = past_of(view, depth=60)
        for seat in range(4):
            for move in past.moves[seat]:
                assert past.agrees(move, real[seat]), (seat, move.cards)
                replayed += 1
        assert view.seat is not None and past.moves[view.seat] == []
    assert replayed > 500


def test_moves_are_the_latest_of_each_other_seat_newest_first() -> None:
    view, _ = late_positions("nanning", seed=1)[0]
    past = past_of(view, depth=3)
    plays = [play for trick in trick_plays(view.tricks, view.trick) for play in trick]
    for seat in range(4):
        if seat == view.seat:
            continue
        own = [tuple(sorted(play.cards)) for play in plays if play.seat == seat]
        assert [move.cards for move in past.moves[seat]] == own[::-1][:3]
        newest = past.moves[seat][0]
        assert sum(newest.since) == len(newest.cards)


def test_a_wrong_deal_fails_replays() -> None:
    failed = 0
    for view, real in late_positions("nanning", seed=2):
        past = past_of(view)
        others = [seat for seat in range(4) if seat != view.seat]
        # Every card of the first other seat's hand moved to the second and back: swap whole hands.
        swapped = [list(hand) for hand in real]
        first, second = others[0], others[1]
        swapped[first], swapped[second] = swapped[second], swapped[first]
        failed += sum(not past.agrees(move, swapped[seat]) for seat in (first, second) for move in past.moves[seat])
    assert failed > 0


@pytest.mark.parametrize("seed", [0, 4])
def test_the_chain_keeps_to_the_view_and_its_bookkeeping(seed: int) -> None:
    rng = random.Random(seed)
    improved = 0
    for view, real in late_positions("nanning", seed=seed):
        sit = Situation.from_view(view)
        past = PastMoves(sit, trick_plays(view.tricks, view.trick), 12)
        start = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng)
        chain = DealChain(past, start, rng, AIMED)
        before = chain.disagreements
        for _ in range(40):
            was = chain.disagreements
            chain.step()
            assert chain.disagreements <= was
            full = [[not past.agrees(move, chain.hands[seat]) for move in past.moves[seat]] for seat in range(4)]
            assert chain.fails == full
        improved += chain.disagreements < before
        deal = chain.deal()
        assert deal[sit.seat] == sit.counts
        assert [sum(hand) for hand in deal] == [sum(hand) for hand in real]
        assert [sum(hand[kind] for hand in deal) for kind in range(54)] == [
            sum(hand[kind] for hand in real) for kind in range(54)
        ]
        for seat in range(4):
            if seat != sit.seat:
                assert breaks(sit.table, sit.know, seat, deal[seat]) == []
                assert all(deal[seat][kind] >= count for kind, count in enumerate(sit.know.known[seat]))
    assert improved > 0


def test_a_suspect_is_a_held_card_a_failing_replay_played_instead() -> None:
    suspects = 0
    for view, _ in late_positions("nanning", seed=2, every=3):
        sit = Situation.from_view(view)
        rng = random.Random(3)
        chain = DealChain(
            past_of(view), sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng), rng, AIMED
        )
        for _ in range(5):
            suspect = chain.suspect()
            if suspect is None:
                continue
            seat, card = suspect
            assert chain.hands[seat][card] > 0
            assert any(
                card in replayed[0] and card not in move.cards
                for replayed, move in zip(chain.replays[seat], chain.past.moves[seat], strict=True)
            )
            suspects += 1
        if not chain.disagreements:
            assert chain.suspect() is None
    assert suspects > 0


def test_the_chain_is_deterministic_for_a_seed() -> None:
    view, _ = late_positions("nanning", seed=5)[0]
    sit = Situation.from_view(view)
    deals = []
    for _ in range(2):
        rng = random.Random(7)
        past = PastMoves(sit, trick_plays(view.tricks, view.trick), 12)
        chain = DealChain(
            past, sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, rng), rng, AIMED
        )
        chain.run(30)
        deals.append(chain.deal())
    assert deals[0] == deals[1]


def test_the_search_deals_from_a_chain_late_in_the_hand() -> None:
    """From ``SearchConfig.chain_from`` cards on, the search's deals come from a chain started at the
    sample it would otherwise have mended (tests/bots/test_legal_follows.py): they explain at least as
    many of the other seats' moves, and their replays are charged to the budget."""
    fewer = 0
    config = SearchConfig()
    for view, _ in late_positions("nanning", seed=6, every=3, most_cards=54):
        sit = Situation.from_view(view)
        start = sample_hands(sit.table, sit.know, sit.seat, sit.counts, view.hand_sizes, random.Random(5))
        if sit.hand_size > config.chain_from(leading=not view.trick):
            continue
        deal, cost = next(SearchBot(0, config).deals(view, sit, random.Random(5), 40.0))
        past = past_of(view, depth=config.replay_depth)
        counted = [DealChain(past, hands, random.Random(0), config.aimed).disagreements for hands in (start, deal)]
        assert counted[1] <= counted[0]
        fewer += counted[1] < counted[0]
        assert cost > 0
    assert fewer > 0


def test_a_partner_move_replays_if_it_is_one_of_the_heuristics_best() -> None:
    """With ``partner_moves=K`` the partner (who may be the search, playing one of its candidates)
    replays a past move if it is any of the heuristic's K best there; the opponents only if it is
    the heuristic's choice."""
    loose = 0
    for view, real in late_positions("nanning", seed=2, every=3):
        sit = Situation.from_view(view)
        plays = trick_plays(view.tricks, view.trick)
        strict, wide = PastMoves(sit, plays, 12), PastMoves(sit, plays, 12, partner_moves=3)
        for seat in range(4):
            for move in wide.moves[seat]:
                replayed = wide.replay(move, real[seat])
                assert replayed[0] == strict.replay(move, real[seat])[0] == move.cards
                assert len(replayed) <= (3 if seat == sit.partner else 1)
                for other in replayed[1:]:
                    moved = replace(move, cards=other)
                    assert wide.agrees(moved, real[seat]) and not strict.agrees(moved, real[seat])
                    loose += 1
    assert loose > 0
    with pytest.raises(ValueError, match="partner_moves=0"):
        PastMoves(sit, plays, 12, partner_moves=0)


def test_before_a_lead_the_chain_deals_from_lead_replay_from() -> None:
    """With ``lead_replay_from=30`` (the default) a lead with 17–30 cards in hand is dealt as with the
    chain from 30 cards on every move, and a follow as with the chain from ``replay_from`` only."""
    late = SearchConfig()
    early = replace(late, lead_replay_from=late.replay_from)
    assert late.lead_replay_from == 30
    seen = {True: 0, False: 0}
    for in_trick in (False, True):
        for view, _ in late_positions("nanning", seed=4, every=2, most_cards=30, in_trick=in_trick):
            sit = Situation.from_view(view)
            if sit.hand_size <= late.replay_from:
                continue
            same_as = early if in_trick else replace(early, replay_from=30)
            dealt = [next(SearchBot(0, config).deals(view, sit, random.Random(5), 40.0)) for config in (late, same_as)]
            assert dealt[0] == dealt[1]
            if not in_trick:
                sampled = next(SearchBot(0, early).deals(view, sit, random.Random(5), 40.0))
                assert sampled != dealt[0]
            seen[in_trick] += 1
    assert seen[True] > 0 and seen[False] > 0
    assert late.chain_from(leading=True) == 30 and late.chain_from(leading=False) == late.replay_from
