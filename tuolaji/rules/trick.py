"""Who wins a trick (R27–R28)."""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.cards import Card

from .lead import classify, lead_pattern
from .presets import PresetLike, get_preset
from .trump import TRUMP_CLASS, Trump


def trick_winner(plays: Sequence[Sequence[Card]], trump: Trump, preset: PresetLike = "nanning") -> int:
    """Index in ``plays`` (lead first, then the follows in order) of the play that wins the trick.

    A follow competes only if it is one pattern with the lead's card count, of the lead's
    suit-class or all trump (a ruff), with at least the lead's arity (R27); illegal follows are
    judged like any other. Trump beats non-trump, then higher arity, then higher rank (R9 for
    units, R14 for tractors); ties go to the earlier play (R28). An invalid lead raises ``ValueError``.
    """
    if not plays:
        raise ValueError("trick_winner needs at least the lead")
    rules = get_preset(preset)
    lead = lead_pattern(plays[0], trump, rules)
    n = lead.size
    best = (lead.suit_class == TRUMP_CLASS, lead.arity, lead.top)
    winner = 0
    for index in range(1, len(plays)):
        play = plays[index]
        if len(play) != n:
            continue
        pattern = classify(play, trump, rules)
        if pattern is None or pattern.arity < lead.arity:
            continue
        if pattern.suit_class != lead.suit_class and pattern.suit_class != TRUMP_CLASS:
            continue
        strength = (pattern.suit_class == TRUMP_CLASS, pattern.arity, pattern.top)
        if strength > best:
            best = strength
            winner = index
    return winner
