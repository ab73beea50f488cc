"""Points and the hand's result (R35–R36)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tuolaji.cards import Card

from .patterns import lead_pattern
from .presets import PresetLike, get_preset
from .trump import Trump

MAX_SCORE: Final = 400
"""All the points of four decks (R35); the score is clamped to 0 … 400 (封頂)."""

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


def hand_result(score: int) -> tuple[str, int]:
    """``("defenders", 1..3)`` or ``("attackers", 0..3)`` for the attackers' final score (R36).

    The score is first clamped to 0 … 400 (R35 封頂). ``("attackers", 0)`` means the attackers take
    over the deal with no level change (上台).
    """
    score = min(max(score, 0), MAX_SCORE)
    return next((side, levels) for lowest, side, levels in _BANDS if score >= lowest)


def last_trick_multiplier(lead_cards: Sequence[Card], trump: Trump, preset: PresetLike = "nanning") -> int:
    """R35 摳底: the last trick's points are multiplied by the number of cards in its lead when
    that lead has at least ``preset.last_trick_min_lead`` cards (2; ``guigang`` 1), else by 1.

    The lead must be valid (R13), else ``ValueError``. Example: lead ``AS AS KS KS`` with 60 points
    in the trick scores 60 × 4 = 240.
    """
    rules = get_preset(preset)
    size = lead_pattern(lead_cards, trump, rules).size
    return size if size >= rules.last_trick_min_lead else 1
