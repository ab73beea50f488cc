"""Points and results (R35–R36), presets (§14), card notation through the rules API."""

from __future__ import annotations

import pytest

from tuolaji.cards import CardParseError
from tuolaji.rules import (
    PRESETS,
    Preset,
    TrickScore,
    Trump,
    card_points,
    final_score,
    format_cards,
    get_preset,
    hand_result,
    kou_di_multiplier,
    parse_cards,
    score_trick,
)

R36_TABLE = [
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
    (479, ("attackers", 3)),
]
"""R36 within 0 … 479: the same in every preset."""

BEYOND = [-1, -79, -80, -159, -160, -400, 480, 559, 560, 1000]
"""Scores beyond the table's ends, which only a preset without 封頂 counts (R35, R36)."""
GUIGANG_BEYOND = [
    ("defenders", 3),
    ("defenders", 3),
    ("defenders", 4),  # seed 001: 每負80分，莊家再升一級
    ("defenders", 4),
    ("defenders", 5),
    ("defenders", 8),
    ("attackers", 4),  # seed 001: 過160分的，每80分跳一級
    ("attackers", 4),
    ("attackers", 5),
    ("attackers", 10),
]


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_r36_result_table_in_every_preset(preset: str) -> None:
    """Golden: the R36 table, and what each preset makes of scores beyond it. ``nanning`` and
    ``fourdeck`` (seeds 000 and 002: 封頂 0 … 400, at most 3 levels) clamp; ``guigang`` (seed 001 says
    no 封頂 and 負分照計) counts negative scores and goes on in steps of 80, with no cap."""
    for score, result in R36_TABLE:
        assert hand_result(score, preset) == result, score
    for score, guigang in zip(BEYOND, GUIGANG_BEYOND, strict=True):
        capped = ("defenders", 3) if score < 0 else ("attackers", 3)
        assert hand_result(score, preset) == (guigang if preset == "guigang" else capped), score
        assert final_score(score, preset) == (score if preset == "guigang" else min(max(score, 0), 400))


def test_hand_result_defaults_to_the_capped_table() -> None:
    assert hand_result(-30) == ("defenders", 3) and hand_result(520) == ("attackers", 3)


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
    assert points * kou_di_multiplier(lead, trump, "nanning") == 240


@pytest.mark.parametrize(
    ("lead", "preset", "multiplier"),
    [
        ("AS", "nanning", 0),
        ("AS", "fourdeck", 0),
        ("AS", "guigang", 1),
        ("AS AS", "nanning", 2),
        ("AS AS", "guigang", 2),
        ("3S 3S 3S 4S 4S 4S", "fourdeck", 6),
    ],
)
def test_r35_multiplier_by_preset(lead: str, preset: str, multiplier: int) -> None:
    assert kou_di_multiplier(parse_cards(lead), Trump("T", "H"), preset) == multiplier


def test_multiplier_needs_a_valid_lead() -> None:
    with pytest.raises(ValueError, match="R13"):
        kou_di_multiplier(parse_cards("AS KS"), Trump("T", "H"))


def test_presets_table() -> None:
    rows = {
        name: (
            p.merged_exact,
            p.last_trick_min_lead,
            p.low_2233_tractor,
            p.timeouts_before_autoplay,
            p.redeal_limit_dissolves,
            p.score_cap,
        )
        for name, p in PRESETS.items()
    }
    assert rows == {
        "nanning": (False, 2, False, 3, False, True),
        "guigang": (True, 1, True, 3, False, False),
        "fourdeck": (False, 2, False, 2, True, True),
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


ONE_CARD_LAST_TRICK = [parse_cards(play) for play in ("KS", "5S", "3S", "4S")]
"""A last trick led by a single: the lead (KS) wins it, 15 points in the trick."""


@pytest.mark.parametrize(
    ("preset", "leader", "change", "kou_di"),
    [
        ("nanning", 1, 15, False),
        ("nanning", 0, 0, False),
        ("guigang", 1, 15, True),
        ("guigang", 0, -15, True),
        ("fourdeck", 1, 15, False),
        ("fourdeck", 0, 0, False),
    ],
)
def test_r35_one_card_last_lead_by_preset(preset: str, leader: int, change: int, kou_di: bool) -> None:
    """R35: with dealer 0, leader 1 is an attacker and leader 0 a defender. A single last lead is 摳底
    (×1) only in ``guigang``, where the defenders' win is subtracted (反摳); elsewhere the last trick
    counts like any other (face points to the attackers, nothing for the defenders)."""
    scored = score_trick(ONE_CARD_LAST_TRICK, leader, 0, Trump("T", "H"), preset, last=True)
    assert scored == TrickScore(leader, 15, 1, kou_di, change)


@pytest.mark.parametrize("preset", ["nanning", "guigang", "fourdeck"])
def test_r35_only_the_last_trick_is_multiplied(preset: str) -> None:
    trick = [parse_cards(play) for play in ("AS AS", "KS KS", "3S 4S", "5S 5S")]
    trump = Trump("T", "H")
    assert score_trick(trick, 1, 0, trump, preset, last=False) == TrickScore(1, 30, 1, False, 30)
    assert score_trick(trick, 1, 0, trump, preset, last=True) == TrickScore(1, 30, 2, True, 60)
    assert score_trick(trick, 2, 0, trump, preset, last=True) == TrickScore(2, 30, 2, True, -60)
