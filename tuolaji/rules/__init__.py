"""The rules engine (RULES.md): pure functions on cards, for the game, the server and the bots.

Cards are kinds 0–53 (:mod:`tuolaji.cards`); every function taking a ``preset`` accepts a name
(``"nanning"``, ``"guigang"``, ``"fourdeck"``) or a :class:`Preset`.
"""

from tuolaji.cards import Card, card_points, format_cards, parse_cards

from .follow import explain_follow, follow_refusal, is_legal_follow
from .follow_choice import legal_follow_hint, random_legal_follow
from .lead import classify, explain_lead, is_valid_lead, lead_refusal
from .lead_choice import random_valid_lead
from .pattern import Pattern
from .presets import PRESETS, Preset, PresetLike, get_preset
from .refusal import Refusal, card_strings, class_code
from .scoring import TrickScore, final_score, hand_result, kou_di_multiplier, score_trick
from .trick import trick_winner
from .trump import CLASS_NAMES, TRUMP_CLASS, Trump

__all__ = [
    "CLASS_NAMES",
    "PRESETS",
    "TRUMP_CLASS",
    "Card",
    "Pattern",
    "Preset",
    "PresetLike",
    "Refusal",
    "TrickScore",
    "Trump",
    "card_points",
    "card_strings",
    "class_code",
    "classify",
    "explain_follow",
    "explain_lead",
    "final_score",
    "follow_refusal",
    "format_cards",
    "get_preset",
    "hand_result",
    "is_legal_follow",
    "is_valid_lead",
    "kou_di_multiplier",
    "lead_refusal",
    "legal_follow_hint",
    "parse_cards",
    "random_legal_follow",
    "random_valid_lead",
    "score_trick",
    "trick_winner",
]
