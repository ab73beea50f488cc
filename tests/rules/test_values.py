"""The rules engine's values survive pickling (the server sends views to bot worker processes),
compiled (tuolaji/native.py) or not."""

from __future__ import annotations

import pickle

from tuolaji.rules import PRESETS, Trump, classify, parse_cards, score_trick
from tuolaji.rules.lead import lead_refusal


def test_rules_values_pickle_and_compare_equal() -> None:
    trump = Trump("10", "H")
    pattern = classify(parse_cards("TH TH JH JH"), trump)
    refusal = lead_refusal(parse_cards("AS KH"), trump)
    scored = score_trick(
        [parse_cards("KS"), parse_cards("5S"), parse_cards("AS"), parse_cards("TS")], 0, 0, trump, "nanning", False
    )
    assert pattern is not None and refusal is not None
    for value in (trump, pattern, refusal, scored, *PRESETS.values()):
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value and type(copy) is type(value)
    assert refusal.reason == "mixed_classes" and refusal.rule == "R13"
