"""Points and the hand's result (R35–R36)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Final, NamedTuple

from tuolaji.cards import Card, card_points

from .lead import lead_pattern
from .presets import PresetLike, get_preset
from .trick import trick_winner
from .trump import Trump

MAX_SCORE: Final = 400
"""All the points of four decks (R35); with the preset's 封頂 the score is clamped to 0 … 400."""
LEVEL_STEP: Final = 80
"""R36: every 80 points is one level (seed 001: 過160分的，每80分跳一級; 每負80分，莊家再升一級)."""

# (lowest score, winning side, levels), highest band first (R36).
_BANDS: Final = (
    (400, "attackers", 3),
    (320, "attackers", 2),
    (240, "attackers", 1),
    (160, "attackers", 0),
    (80, "defenders", 1),
    (5, "defenders", 2),
    (0, "defenders", 3),
)


def final_score(score: int, preset: PresetLike = "nanning") -> int:
    """The attackers' score as it counts (R35): clamped to 0 … 400 (封頂) when the preset caps it,
    else as it is (``guigang``, seed 001: negative scores count)."""
    return min(max(score, 0), MAX_SCORE) if get_preset(preset).score_cap else score


def hand_result(score: int, preset: PresetLike = "nanning") -> tuple[str, int]:
    """``("defenders", 1..)`` or ``("attackers", 0..)`` for the attackers' final score (R36).

    With the preset's 封頂 (``nanning``, ``fourdeck``) the score is first clamped to 0 … 400, so a
    hand moves at most 3 levels. Without it (``guigang``) the table goes on in steps of 80: from 480
    the attackers gain 4, from 560 5, …; at −80 and below the defenders gain 4, at −160 5, …
    ``("attackers", 0)`` means the attackers take over the deal with no level change (上台).
    """
    score = final_score(score, preset)
    if score >= MAX_SCORE:
        return "attackers", 3 + (score - MAX_SCORE) // LEVEL_STEP
    if score < 0:
        return "defenders", 3 + -score // LEVEL_STEP
    return next((side, levels) for lowest, side, levels in _BANDS if score >= lowest)


def kou_di_multiplier(lead_cards: Sequence[Card], trump: Trump, preset: PresetLike = "nanning") -> int:
    """R35 摳底: the last trick's points are multiplied by the number of cards in its lead when that
    lead has at least ``preset.last_trick_min_lead`` cards (2; ``guigang`` 1, so a single gives ×1 and
    is still 摳底, subtracted when the defenders win it); 0 when the last trick counts like any other.

    The lead must be valid (R13), else ``ValueError``. Example: lead ``AS AS KS KS`` with 60 points
    in the trick scores 60 × 4 = 240.
    """
    rules = get_preset(preset)
    size = lead_pattern(lead_cards, trump, rules).size
    return size if size >= rules.last_trick_min_lead else 0


class TrickScore(NamedTuple):
    """How a closed trick scores (R27–R29, R35), from the attackers' side."""

    winner: int
    """The seat that wins the trick."""
    points: int
    """Face points of its cards."""
    multiplier: int
    """The R35 摳底 multiplier of a last trick it applies to, else 1."""
    kou_di: bool
    """The trick is a last trick scored by 摳底 (R35): ``change`` is then the last-trick value."""
    change: int
    """What the trick adds to the attackers' score: its face points when they win an ordinary
    trick, 0 when the defenders do; under 摳底 ± points × multiplier (the defenders' win subtracts, 反摳)."""


def score_trick(
    plays: Sequence[Sequence[Card]], leader: int, dealer: int, trump: Trump, preset: PresetLike, last: bool
) -> TrickScore:
    """Score a closed trick whose ``plays`` are in play order from the ``leader``'s seat: its winner
    (R27–R28), its points, and what it adds to the attackers' score (R35, 摳底 and 反摳 on the last
    trick, ``last``). The attackers are the team without the ``dealer`` (R2)."""
    winner = (leader + trick_winner(plays, trump, preset)) % 4
    points = card_points(chain.from_iterable(plays))
    attackers_won = winner % 2 != dealer % 2
    multiplier = kou_di_multiplier(plays[0], trump, preset) if last else 0
    if multiplier:
        value = points * multiplier
        return TrickScore(winner, points, multiplier, True, value if attackers_won else -value)
    return TrickScore(winner, points, 1, False, points if attackers_won else 0)
