"""Follow legality (R22–R25) and the messages that explain a wrong follow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tuolaji.cards import KINDS, Card, format_cards

from .follow_choice import legal_follow_hint
from .lead import check_kinds, classify, lead_pattern
from .pattern import Pattern
from .presets import Preset, PresetLike, get_preset
from .refusal import Refusal, card_strings, class_code, shape_params
from .structure import (
    EXACT,
    FREE,
    PAIRS,
    SAME_COUNT,
    TRACTORS,
    follow_stage,
    structure_value,
)
from .trump import CLASS_NAMES, TRUMP_CLASS, Trump

_LEGAL: Final = -1
_WRONG_COUNT: Final = -2
_NOT_HELD: Final = -3
_LEFT_OUT: Final = -4
_OFF_CLASS: Final = -5
# Failures of the R24 structure use the failed stage's number (EXACT, SAME_COUNT, …).


def is_legal_follow(
    hand: Sequence[Card],
    lead: Sequence[Card],
    play: Sequence[Card],
    trump: Trump,
    preset: PresetLike = "nanning",
) -> bool:
    """Whether ``play`` is a legal follow to ``lead`` from ``hand`` (R22–R25).

    ``hand`` is the follower's whole hand before playing. A wrong card count or cards not in the
    hand give ``False`` (R22). An invalid lead raises ``ValueError`` (R13).
    """
    return _failure(hand, lead, play, trump, get_preset(preset)) == _LEGAL


def explain_follow(
    hand: Sequence[Card],
    lead: Sequence[Card],
    play: Sequence[Card],
    trump: Trump,
    preset: PresetLike = "nanning",
) -> str | None:
    """``None`` for a legal follow, else a message naming the rule it breaks and what it requires."""
    refusal = follow_refusal(hand, lead, play, trump, preset)
    return None if refusal is None else refusal.message


def follow_refusal(
    hand: Sequence[Card],
    lead: Sequence[Card],
    play: Sequence[Card],
    trump: Trump,
    preset: PresetLike = "nanning",
) -> Refusal | None:
    """``None`` for a legal follow, else why it is wrong: a reason code, the rule, params and a message.

    Reasons: ``wrong_count`` and ``not_held`` (R22), ``left_out`` (R23), ``off_class``, ``exact``,
    ``same_count``, ``tractors``, ``pairs`` (R24), ``exact_or_same`` (R25). Params always hold
    ``lead_size`` and, from ``left_out`` on, the lead's ``class`` and ``shape``, the number of
    cards ``held`` of that class and ``example``, a legal follow from the same hand. Legality is
    :func:`is_legal_follow`'s.
    """
    rules = get_preset(preset)
    failure = _failure(hand, lead, play, trump, rules)
    if failure == _LEGAL:
        return None
    pattern = lead_pattern(lead, trump, rules)
    if failure == _WRONG_COUNT:
        return Refusal(
            "wrong_count",
            "R22",
            f"R22: a follow has exactly as many cards as the lead ({pattern.size}); you played {len(play)}",
            {"lead_size": pattern.size, "count": len(play)},
        )
    if failure == _NOT_HELD:
        missing = _minus(play, hand)
        return Refusal(
            "not_held",
            "R22",
            f"R22: you do not hold {format_cards(missing)}",
            {"lead_size": pattern.size, "missing": card_strings(missing)},
        )
    refused = _Refused(hand, lead, play, pattern, trump, rules)
    if failure in (_LEFT_OUT, _OFF_CLASS):
        return _class_refusal(failure, refused)
    if failure in (TRACTORS, PAIRS):
        return _structure_refusal(failure, refused)
    return _shape_refusal(failure, refused)


class _Refused:
    """What every refusal from ``left_out`` on says: the lead's class, the cards of it held, an
    example of a legal follow, and the params they all share."""

    def __init__(
        self,
        hand: Sequence[Card],
        lead: Sequence[Card],
        play: Sequence[Card],
        pattern: Pattern,
        trump: Trump,
        preset: Preset,
    ) -> None:
        self.play = play
        self.pattern = pattern
        self.trump = trump
        self.preset = preset
        trumps = pattern.suit_class == TRUMP_CLASS
        self.trumps = trumps
        self.name = "trumps" if trumps else CLASS_NAMES[pattern.suit_class]
        self.cards_name = "trumps" if trumps else f"{self.name} cards"
        held = [card for card in hand if trump.suit_classes[card] == pattern.suit_class]
        held.sort(key=trump.sort_keys.__getitem__)
        self.held = held
        hint = legal_follow_hint(hand, lead, trump, preset)
        self.example = format_cards(hint)
        self.base: dict[str, Any] = {
            "lead_size": pattern.size,
            "class": class_code(pattern.suit_class),
            "shape": shape_params(pattern.arity, pattern.length),
            "held": len(held),
            "example": card_strings(hint),
        }


def _class_refusal(failure: int, refused: _Refused) -> Refusal:
    """``left_out`` (R23) or ``off_class`` (R24): the follow has too few cards of the led class."""
    n = refused.pattern.size
    held = refused.held
    cards_name = refused.cards_name
    if failure == _LEFT_OUT:
        kept = _minus(held, refused.play)
        return Refusal(
            "left_out",
            "R23",
            f"R23: you hold only {len(held)} {cards_name}, no more than the lead's {n}, so the follow "
            f"must include all of them ({format_cards(held)}), e.g. {refused.example}; "
            f"you kept {format_cards(kept)}",
            {**refused.base, "kept": card_strings(kept)},
        )
    suit_classes = refused.trump.suit_classes
    others = [card for card in refused.play if suit_classes[card] != refused.pattern.suit_class]
    must = "有主的必須跟主" if refused.trumps else "有同花色的必須跟同花色"
    return Refusal(
        "off_class",
        "R24",
        f"R24: you hold {len(held)} {cards_name}, more than the lead's {n}, so all {n} cards "
        f"must be {cards_name} ({must}), e.g. {refused.example}; you played {format_cards(others)}",
        {**refused.base, "others": card_strings(others)},
    )


def _shape_refusal(failure: int, refused: _Refused) -> Refusal:
    """``exact``, ``same_count`` (R24) or ``exact_or_same`` (R25): the follow is not the shape it must be."""
    n = refused.pattern.size
    lead_shape = refused.pattern.describe()
    example = refused.example
    if failure == EXACT:
        return Refusal(
            "exact",
            "R24",
            f"R24: you hold a {lead_shape} of {refused.name} and must follow with a {lead_shape} "
            f"(same type and count as the lead), e.g. {example}",
            refused.base,
        )
    if failure == SAME_COUNT:
        return Refusal(
            "same_count",
            "R24",
            f"R24: you hold no {lead_shape} of {refused.name} but a tractor of {n} {refused.cards_name}, and must "
            f"follow with a tractor of {n} cards, e.g. {example}",
            refused.base,
        )
    preset = refused.preset.name
    return Refusal(
        "exact_or_same",
        "R25",
        f"R25 ({preset}): you hold a {lead_shape} or a tractor of {n} {refused.cards_name} and must "
        f"follow with one of them, e.g. {example}",
        {**refused.base, "preset": preset},
    )


def _structure_refusal(failure: int, refused: _Refused) -> Refusal:
    """``tractors`` or ``pairs`` (R24): the follow holds fewer tractors or pairs than the hand can make."""
    pattern = refused.pattern
    n = pattern.size
    lead_shape = pattern.describe()
    counts = _counts(refused.held)
    play_counts = _counts(refused.play)
    kinds = refused.trump.class_kinds[pattern.suit_class]
    if failure == TRACTORS:
        chains = refused.trump.chains[pattern.suit_class]
        best = structure_value(counts, chains, kinds, n)
        got = structure_value(play_counts, chains, kinds, n)
        return Refusal(
            "tractors",
            "R24",
            f"R24: you hold no {lead_shape} and no tractor of {n} {refused.cards_name}, so the follow must "
            f"hold the largest tractors you can make, then pairs: {_describe_value(best)}, e.g. "
            f"{refused.example}; your play has {_describe_value(got)}",
            {**refused.base, "best": _value_params(best), "got": _value_params(got)},
        )
    best_pairs = min(n // 2, sum(counts[k] // 2 for k in kinds))
    got_pairs = sum(play_counts[k] // 2 for k in kinds)
    return Refusal(
        "pairs",
        "R24",
        f"R24: you hold no {lead_shape} of {refused.name}, so the follow must hold as many pairs as you can "
        f"make ({best_pairs}; a triple counts as one pair, a bomb as two), e.g. {refused.example}; "
        f"your play has {got_pairs}",
        {**refused.base, "best_pairs": best_pairs, "got_pairs": got_pairs},
    )


def _failure(hand: Sequence[Card], lead: Sequence[Card], play: Sequence[Card], trump: Trump, preset: Preset) -> int:
    pattern = lead_pattern(lead, trump, preset)
    n = pattern.size
    if len(play) != n:
        return _WRONG_COUNT
    check_kinds(hand)
    check_kinds(play)
    counts = [0] * KINDS
    for card in hand:
        counts[card] += 1
    play_counts = [0] * KINDS
    for card in play:
        play_counts[card] += 1
        if play_counts[card] > counts[card]:
            return _NOT_HELD
    held = played = 0
    for kind in trump.class_kinds[pattern.suit_class]:
        held += counts[kind]
        played += play_counts[kind]
    if held <= n:
        return _LEGAL if played == held else _LEFT_OUT
    if played != n:
        return _OFF_CLASS
    return _structure_failure(counts, play_counts, play, pattern, trump, preset)


def _structure_failure(
    counts: list[int],
    play_counts: list[int],
    play: Sequence[Card],
    lead: Pattern,
    trump: Trump,
    preset: Preset,
) -> int:
    """R24/R25 for a play of ``n`` cards of H; ``counts`` may hold other classes too (ignored)."""
    stage = follow_stage(counts, lead, trump, preset)
    if stage == FREE:
        return _LEGAL
    n = lead.size
    kinds = trump.class_kinds[lead.suit_class]
    if stage == PAIRS:
        best = min(n // 2, sum(counts[k] // 2 for k in kinds))
        got = sum(play_counts[k] // 2 for k in set(play))
        return _LEGAL if got == best else PAIRS
    if stage == TRACTORS:
        chains = trump.chains[lead.suit_class]
        best_value = structure_value(counts, chains, kinds, n)
        return _LEGAL if structure_value(play_counts, chains, kinds, n) == best_value else TRACTORS
    shape = classify(play, trump, preset)
    exact = shape is not None and shape.arity == lead.arity and shape.length == lead.length
    same = shape is not None and shape.is_tractor
    ok = exact if stage == EXACT else same if stage == SAME_COUNT else exact or same
    return _LEGAL if ok else stage


def _counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * KINDS
    for card in cards:
        counts[card] += 1
    return counts


def _minus(cards: Sequence[Card], other: Sequence[Card]) -> list[Card]:
    """``cards`` without ``other`` (multiset difference)."""
    left = _counts(other)
    rest: list[Card] = []
    for card in cards:
        if left[card]:
            left[card] -= 1
        else:
            rest.append(card)
    return rest


def _value_params(value: tuple[tuple[int, ...], int]) -> dict[str, Any]:
    tractors, pairs = value
    return {"tractors": list(tractors), "pairs": pairs}


def _describe_value(value: tuple[tuple[int, ...], int]) -> str:
    tractors, pairs = value
    parts = [f"tractors of {', '.join(map(str, tractors))} cards"] if tractors else ["no tractor"]
    parts.append(f"{pairs} other pair(s)")
    return " and ".join(parts)
