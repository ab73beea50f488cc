"""The environment's action encoding: one ``Discrete(NUM_ACTIONS)`` space for bids and plays.

=================================  =====================================================
index                              meaning
=================================  =====================================================
``PASS`` (0)                       pass in the bid window (R19): show nothing now
``BID_BASE + 4·suit + count − 1``  show ``count`` (1–4) level cards of ``suit`` (0–3 =
                                   S H C D) (R16 bid, R17 reinforce, R18 overturn)
``PLAY_BASE + i`` (i < MAX_PLAYS)  play candidate ``i`` of the seat's current candidates
=================================  =====================================================

A play's meaning depends on the position: :func:`play_candidates` lists, from the seat's own
:class:`~tuolaji.game.view.SeatView` only, the plays offered now, in a fixed order, and candidate
``i`` is action ``PLAY_BASE + i``.

- **Leads** (R13, R21): every valid lead the hand holds, i.e. each unit of each arity up to the
  copies held (a single, pair, triple or bomb of every kind) and every tractor window (R11–R12).
- **Follows** (R22–R25): the heuristic's candidate follows
  (:func:`tuolaji.bots.policy.candidates.follow_candidates`: every exact unit or tractor, the
  same-size tractors, the structured fills in three flavours, the ruffs of a void hand) and the
  engine's hint (:func:`tuolaji.rules.legal_follow_hint`), each checked with
  :func:`tuolaji.rules.is_legal_follow`. Where the rules leave free cards (a short hand's
  discards, R23; a follow without structure, R24) the legal follows are too many to list, so the
  offer is that subset, and never empty (the hint is always legal).

Order: plays by size, then by the cards in display order (trumps first, strongest first:
:attr:`tuolaji.rules.Trump.sort_keys`). When a position offers more than ``MAX_PLAYS`` plays,
the ones kept are, first, the engine's hint, then the plays the heuristic bot chooses among (whole
units and maximal tractor runs for a lead, :func:`tuolaji.bots.knowledge.shapes.lead_shapes`;
every candidate follow), then the rest in the order above; the kept plays are then put in that
order. So the hint and the heuristic's move are always offered; what may be cut is a lead that
breaks a group or a shorter window of a long tractor (``benchmarks/env_speed.py`` counts how often).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from tuolaji.bots.knowledge.cardinfo import card_table
from tuolaji.bots.knowledge.shapes import all_leads, counts_of, lead_shapes
from tuolaji.bots.policy.candidates import follow_candidates
from tuolaji.game.actions import Action, Bid, Play
from tuolaji.game.view import SeatView
from tuolaji.rules import Trump, get_preset, is_legal_follow

PASS: Final = 0
"""Pass in the bid window (R19)."""
BID_BASE: Final = 1
"""First bid index: ``BID_BASE + 4 * suit + count - 1``."""
NUM_BIDS: Final = 16
"""Four suits × one to four level cards shown (R16–R18)."""
PLAY_BASE: Final = BID_BASE + NUM_BIDS
"""First play index: ``PLAY_BASE + i`` is play candidate ``i``."""
MAX_PLAYS: Final = 128
"""Most plays offered in one position; see the module docstring for what is kept beyond it."""
NUM_ACTIONS: Final = PLAY_BASE + MAX_PLAYS
"""Size of the action space (145)."""

PlayCards = tuple[int, ...]
"""A play's cards as kinds 0–53, sorted by kind (its identity in the candidate list)."""


def bid_index(suit: int, count: int) -> int:
    """The action index of showing ``count`` level cards of ``suit`` (R16)."""
    if not (0 <= suit <= 3 and 1 <= count <= 4):
        raise ValueError(f"bid of {count} cards of suit {suit}: expected suit 0–3 and count 1–4 (R16)")
    return BID_BASE + 4 * suit + count - 1


def bid_of(index: int) -> tuple[int, int]:
    """``(suit, count)`` of a bid index (inverse of :func:`bid_index`)."""
    if not BID_BASE <= index < PLAY_BASE:
        raise ValueError(f"action {index} is not a bid (bids are {BID_BASE}–{PLAY_BASE - 1})")
    suit, count = divmod(index - BID_BASE, 4)
    return suit, count + 1


@dataclass(frozen=True)
class PlayOffer:
    """The plays offered to the seat to move: ``plays[i]`` is action ``PLAY_BASE + i``;
    ``available`` counts the candidates before any were cut at ``MAX_PLAYS``."""

    plays: tuple[PlayCards, ...]
    available: int

    @property
    def cut(self) -> bool:
        """Whether some candidates were left out (more than ``MAX_PLAYS``)."""
        return self.available > len(self.plays)


def play_candidates(view: SeatView, limit: int = MAX_PLAYS) -> PlayOffer:
    """The plays offered to ``view``'s seat on its turn (see the module docstring), from its view only."""
    if view.seat is None or view.trump_suit is None or view.to_move != view.seat:
        return PlayOffer((), 0)
    table = card_table(view.level, view.trump_suit)
    trump = table.trump
    counts = counts_of(view.hand)
    hint = tuple(sorted(view.hint))
    if view.trick:
        lead = view.trick[0].cards
        preset = get_preset(view.preset)
        follows = {
            play
            for play in follow_candidates(counts, lead, table, preset)
            if is_legal_follow(view.hand, lead, play, trump, preset)
        }
        everything = sorted(follows | {hint}, key=_order_key(trump))
        preferred: set[PlayCards] = set(everything)
    else:
        everything = sorted({tuple(sorted(shape.cards())) for shape in all_leads(counts, table)}, key=_order_key(trump))
        preferred = {tuple(sorted(shape.cards())) for shape in lead_shapes(counts, table)}
    if len(everything) <= limit:
        return PlayOffer(tuple(everything), len(everything))
    order = _order_key(trump)
    ranked = sorted(everything, key=lambda play: (play != hint, play not in preferred, order(play)))
    kept = set(ranked[:limit])
    return PlayOffer(tuple(play for play in everything if play in kept), len(everything))


def _order_key(trump: Trump) -> Callable[[PlayCards], tuple[int, tuple[int, ...]]]:
    """Sort key of a play: its size, then its cards in display order."""
    keys = trump.sort_keys
    return lambda play: (len(play), tuple(sorted(keys[card] for card in play)))


def engine_action(index: int, seat: int, offer: PlayOffer) -> Action | None:
    """The engine action of action ``index`` for ``seat``: a :class:`Bid`, a :class:`Play`, or None
    for ``PASS``. ``ValueError`` for an index outside the space or a play beyond ``offer``."""
    if index == PASS:
        return None
    if BID_BASE <= index < PLAY_BASE:
        suit, count = bid_of(index)
        return Bid(seat, suit, count)
    if PLAY_BASE <= index < PLAY_BASE + len(offer.plays):
        return Play(seat, offer.plays[index - PLAY_BASE])
    raise ValueError(f"action {index}: not a pass, a bid or one of the {len(offer.plays)} plays offered now")


def action_index(action: Action | None, offer: PlayOffer) -> int:
    """The index of an engine action (None = pass) in the current encoding; ``ValueError`` if the
    play is not among those offered."""
    if action is None:
        return PASS
    if isinstance(action, Bid):
        return bid_index(action.suit, action.count)
    if isinstance(action, Play):
        cards = tuple(sorted(action.cards))
        try:
            return PLAY_BASE + offer.plays.index(cards)
        except ValueError:
            raise ValueError(f"play {cards} is not among the {len(offer.plays)} plays offered") from None
    raise ValueError(f"{action!r} is not a player's bid or play")
