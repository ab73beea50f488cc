"""Points and results (R35–R36), presets (§14), card notation through the rules API."""

from __future__ import annotations

import pytest

from tuolaji.cards import CardParseError
from tuolaji.rules import (
    PRESETS,
    Preset,
    Trump,
    card_points,
    format_cards,
    get_preset,
    hand_result,
    last_trick_multiplier,
    parse_cards,
)


@pytest.mark.parametrize(
    ("score", "result"),
    [
        (0, ("defenders", 3)),
        (4, ("defenders", 3)),
        (5, ("defenders", 2)),
        (79, ("defenders", 2)),
        (80, ("defenders", 1)),
        (159, ("defenders", 1)),
        (160, ("attackers", 0)),
        (239, ("attackers", 0)),
        (240, ("attackers", 1)),
        (319, ("attackers", 1)),
        (320, ("attackers", 2)),
        (399, ("attackers", 2)),
        (400, ("attackers", 3)),
        (-30, ("defenders", 3)),  # R35 封頂: clamped to 0 … 400
        (520, ("attackers", 3)),
    ],
)
def test_r36_result_table(score: int, result: tuple[str, int]) -> None:
    assert hand_result(score) == result


def test_r35_points() -> None:
    assert card_points(parse_cards("5S TH KD AS BJ 2C")) == 25
    deck = [kind for kind in range(54)]
    assert card_points(deck) * 4 == 400


def test_r35_kou_di_example() -> None:
    trump = Trump("T", "H")
    lead = parse_cards("AS AS KS KS")
    trick = [lead, parse_cards("5S 5S KS QS"), parse_cards("TS TS 3S 4S"), parse_cards("QS 9S 8S 7S")]
    points = sum(card_points(play) for play in trick)
    assert points == 60
    assert points * last_trick_multiplier(lead, trump, "nanning") == 240


@pytest.mark.parametrize(
    ("lead", "preset", "multiplier"),
    [
        ("AS", "nanning", 1),
        ("AS", "fourdeck", 1),
        ("AS", "guigang", 1),
        ("AS AS", "nanning", 2),
        ("AS AS", "guigang", 2),
        ("3S 3S 3S 4S 4S 4S", "fourdeck", 6),
    ],
)
def test_r35_multiplier_by_preset(lead: str, preset: str, multiplier: int) -> None:
    assert last_trick_multiplier(parse_cards(lead), Trump("T", "H"), preset) == multiplier


def test_multiplier_needs_a_valid_lead() -> None:
    with pytest.raises(ValueError, match="R13"):
        last_trick_multiplier(parse_cards("AS KS"), Trump("T", "H"))


def test_presets_table() -> None:
    rows = {
        name: (
            p.merged_exact,
            p.last_trick_min_lead,
            p.low_2233_tractor,
            p.timeouts_before_autoplay,
            p.redeal_limit_dissolves,
        )
        for name, p in PRESETS.items()
    }
    assert rows == {
        "nanning": (False, 2, False, 3, False),
        "guigang": (True, 1, True, 3, False),
        "fourdeck": (False, 2, False, 2, True),
    }
    assert all(p.name == name for name, p in PRESETS.items())


def test_get_preset() -> None:
    assert get_preset("guigang") is PRESETS["guigang"]
    custom = Preset("house", True, 3, False, 5, False)
    assert get_preset(custom) is custom
    with pytest.raises(ValueError, match="'shanghai'"):
        get_preset("shanghai")


def test_card_notation() -> None:
    assert parse_cards("10H th TH") == parse_cards("TH TH TH")
    assert parse_cards("as") == parse_cards("AS")
    assert parse_cards("JS") != parse_cards("SJ")
    assert parse_cards("SJ BJ") == [52, 53]
    assert format_cards(parse_cards("10h js sj bj 2d")) == "TH JS SJ BJ 2D"
    with pytest.raises(CardParseError):
        parse_cards("1H")
    with pytest.raises(ValueError):
        parse_cards("ZZ")
