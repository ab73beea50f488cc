"""Self-play hands for the benchmarks (``benchmarks/selfplay.py``): the visitor sees every move
before it is made, and seats given other bots are played by them."""

from __future__ import annotations

from collections import Counter

from selfplay import self_play

from tuolaji.bots import make_bot
from tuolaji.bots.base import Bot
from tuolaji.bots.knowledge.situation import Situation
from tuolaji.bots.policy.card_play import choose_play
from tuolaji.game.round import Round
from tuolaji.game.view import SeatView


def moves_made(bots: dict[int, Bot]) -> list[tuple[int, tuple[int, ...], bool]]:
    """Per move of one self-play hand: the seat, the cards it played (from the next view of that
    seat, or the hand it still held at its last move) and whether the heuristic would have played them."""
    seen: list[tuple[int, list[int], tuple[int, ...]]] = []

    def visit(round_: Round, view: SeatView) -> None:
        assert view.seat is not None
        seen.append((view.seat, list(view.hand), tuple(sorted(choose_play(Situation.from_view(view))))))

    self_play(3, 1, visit, bots=bots)
    made: list[tuple[int, tuple[int, ...], bool]] = []
    for index, (seat, hand, heuristic) in enumerate(seen):
        later = next((h for s, h, _ in seen[index + 1 :] if s == seat), [])
        left = Counter(hand) - Counter(later)
        cards = tuple(sorted(left.elements()))
        made.append((seat, cards, cards == tuple(sorted(heuristic))))
    return made


def test_the_visitor_sees_every_move_and_the_heuristic_plays_all_seats() -> None:
    made = moves_made({})
    assert len(made) > 100
    assert {seat for seat, _, _ in made} == {0, 1, 2, 3}
    assert sum(len(cards) for _, cards, _ in made) == 216
    assert all(same for _, _, same in made)


def test_seats_given_bots_are_played_by_them() -> None:
    made = moves_made({0: make_bot("random", 1), 2: make_bot("random", 2)})
    assert sum(len(cards) for _, cards, _ in made) == 216
    assert all(same for seat, _, same in made if seat in (1, 3))
    assert not all(same for seat, _, same in made if seat in (0, 2))
