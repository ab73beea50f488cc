"""Leads (R13): the pattern cards form (R10–R12: units, tractors; their tops, R14), whether they are
one valid lead, and why not.
"""

from __future__ import annotations

from collections.abc import Sequence

from tuolaji.cards import KINDS, Card, format_cards

from .pattern import UNIT_NAMES, Pattern
from .presets import PresetLike, get_preset
from .refusal import Refusal, card_strings, class_code
from .trump import CLASS_NAMES, LOW_2233_TOP, TRUMP_CLASS, Trump, kinds_mask


def check_kinds(cards: Sequence[Card]) -> None:
    """Raise ``ValueError`` unless every card is a kind 0–53."""
    if cards and (min(cards) < 0 or max(cards) >= KINDS):
        raise ValueError(f"bad card kinds {list(cards)!r}: expected ints 0..{KINDS - 1}")


def classify(cards: Sequence[Card], trump: Trump, preset: PresetLike = "nanning") -> Pattern | None:
    """The pattern the cards form (R10–R12, tops R14), or ``None`` if they are not one pattern."""
    check_kinds(cards)
    n = len(cards)
    if n == 0:
        return None
    first = cards[0]
    if n <= 4 and cards.count(first) == n:
        return trump.unit_patterns[n][first]
    classes = trump.suit_classes
    suit_class = classes[first]
    counts: dict[Card, int] = {}
    for card in cards:
        if classes[card] != suit_class:
            return None
        counts[card] = counts.get(card, 0) + 1
    arity = counts[first]
    if arity < 2 or arity > 4 or any(count != arity for count in counts.values()):
        return None
    mask = kinds_mask(counts)
    top = trump.tractor_tops.get(mask)
    if top is None:
        return None
    if mask == trump.low_2233_mask and get_preset(preset).low_2233_tractor:
        top = LOW_2233_TOP
    return Pattern(arity, len(counts), suit_class, top)


def lead_pattern(cards: Sequence[Card], trump: Trump, preset: PresetLike = "nanning") -> Pattern:
    """The pattern of a lead; an invalid lead raises ``ValueError`` saying why (R13)."""
    pattern = classify(cards, trump, preset)
    if pattern is None:
        raise ValueError(f"bad lead: {explain_lead(cards, trump, preset)}")
    return pattern


def is_valid_lead(cards: Sequence[Card], trump: Trump, preset: PresetLike = "nanning") -> bool:
    """Whether the cards are exactly one unit or one tractor of one suit-class (R13)."""
    return classify(cards, trump, preset) is not None


def explain_lead(cards: Sequence[Card], trump: Trump, preset: PresetLike = "nanning") -> str | None:
    """``None`` for a valid lead (R13), else a message saying why it is not one."""
    refusal = lead_refusal(cards, trump, preset)
    return None if refusal is None else refusal.message


def lead_refusal(cards: Sequence[Card], trump: Trump, preset: PresetLike = "nanning") -> Refusal | None:
    """``None`` for a valid lead (R13), else why it is not one, with a reason code and params:
    ``empty``, ``mixed_classes`` (``classes``), ``mixed_arities`` (``arities``), ``singles``,
    ``too_many`` (R10) or ``not_consecutive`` (``arity``). Every params has the sorted ``cards``."""
    if classify(cards, trump, preset) is not None:
        return None
    if not cards:
        return Refusal("empty", "R13", "R13: a lead needs at least one card", {"cards": []})
    ordered = sorted(cards, key=trump.sort_keys.__getitem__)
    shown = format_cards(ordered)
    base = {"cards": card_strings(ordered)}
    classes = sorted({trump.suit_classes[card] for card in cards}, key=_class_order)
    if len(classes) > 1:
        names = " and ".join(CLASS_NAMES[c] for c in classes)
        return Refusal(
            "mixed_classes",
            "R13",
            f"R13: a lead must be all of one suit-class; {shown} mixes {names}",
            {**base, "classes": [class_code(c) for c in classes]},
        )
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    arities = sorted(set(counts.values()), reverse=True)
    if len(arities) > 1:
        return Refusal(
            "mixed_arities",
            "R13",
            f"R13: a lead must be one unit or one tractor; {shown} mixes units of "
            f"{' and '.join(map(str, arities))} cards (R11: mixed arities are not a tractor)",
            {**base, "arities": arities},
        )
    if arities[0] == 1:
        return Refusal(
            "singles",
            "R13",
            f"R13: a lead must be one unit or one tractor; {shown} are different singles (no throws, 甩牌)",
            base,
        )
    if arities[0] > 4:
        return Refusal("too_many", "R10", f"R10: {shown} holds more than 4 identical cards", base)
    return Refusal(
        "not_consecutive",
        "R13",
        f"R13: a lead must be one unit or one tractor; the {UNIT_NAMES[arities[0]]}s in {shown} "
        "are not consecutive in the tractor sequence (R12; no gapped tractors)",
        {**base, "arity": arities[0]},
    )


def _class_order(suit_class: int) -> int:
    return -1 if suit_class == TRUMP_CLASS else suit_class
