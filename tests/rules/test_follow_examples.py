"""Golden follow cases: every row of the R26 table, the seed's rules (1)–(9), R22 and R23."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from tuolaji.rules import (
    Trump,
    explain_follow,
    follow_refusal,
    format_cards,
    is_legal_follow,
    is_valid_lead,
    legal_follow_hint,
    parse_cards,
    random_legal_follow,
)

T10H = Trump("T", "H")
OTHER = "3D 4D 6D QC"
"""The follower's cards outside the lead's suit-class (R26: 'they hold other cards too')."""


def legal(lead: str, held: str, play: str, preset: str = "nanning", other: str = OTHER) -> bool:
    hand = parse_cards(held) + parse_cards(other)
    verdict = is_legal_follow(hand, parse_cards(lead), parse_cards(play), T10H, preset)
    message = explain_follow(hand, parse_cards(lead), parse_cards(play), T10H, preset)
    assert (message is None) == verdict, message
    return verdict


def legal_plays(lead: str, held: str, preset: str = "nanning", other: str = OTHER) -> set[str]:
    """Every legal follow taken from ``held`` (sorted, formatted)."""
    hand = parse_cards(held) + parse_cards(other)
    lead_cards = parse_cards(lead)
    plays = set(itertools.combinations(sorted(parse_cards(held)), len(lead_cards)))
    return {format_cards(play) for play in plays if is_legal_follow(hand, lead_cards, play, T10H, preset)}


def norm(text: str) -> str:
    return format_cards(sorted(parse_cards(text)))


PRESETS = ("nanning", "guigang", "fourdeck")


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row1_exact_tractor(preset: str) -> None:
    assert legal_plays("AS AS KS KS", "3S 3S 4S 4S 9S", preset) == {norm("3S 3S 4S 4S")}


def test_r26_row2_mixed_arity_is_not_a_lead() -> None:
    assert not is_valid_lead(parse_cards("AS AS AS KS KS"), T10H)
    with pytest.raises(ValueError, match="R13"):
        is_legal_follow(
            parse_cards("3S 4S 5S 6S 7S"), parse_cards("AS AS AS KS KS"), parse_cards("3S 4S 5S 6S 7S"), T10H
        )


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row3_short_of_suit(preset: str) -> None:
    lead = "AS AS KS KS"
    for other in ("3D", "4D", "6D", "QC"):
        assert legal(lead, "3S 3S 4S", f"3S 3S 4S {other}", preset)
    assert not legal(lead, "3S 3S 4S", "3S 3S 3D 4D", preset)
    assert not legal(lead, "3S 3S 4S", "3S 4S 3D 4D", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row4_triple(preset: str) -> None:
    assert legal_plays("6S 6S 6S", "3S 3S 3S 8S 9S", preset) == {norm("3S 3S 3S")}
    assert not legal("6S 6S 6S", "3S 3S 3S 8S 9S", "3S 3S 8S", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row5_triple_tractor(preset: str) -> None:
    assert legal_plays("9S 9S 9S 8S 8S 8S", "4S 4S 4S 5S 5S 5S 7S", preset) == {norm("4S 4S 4S 5S 5S 5S")}


def test_r26_row6_triple_tractor_against_pairs_by_preset() -> None:
    lead, held = "9S 9S 9S 8S 8S 8S", "4S 4S 4S 5S 5S 5S 6S 6S"
    exact, pairs = norm("4S 4S 4S 5S 5S 5S"), norm("4S 4S 5S 5S 6S 6S")
    assert legal_plays(lead, held, "nanning") == {exact}
    assert legal_plays(lead, held, "fourdeck") == {exact}
    assert legal_plays(lead, held, "guigang") == {exact, pairs}
    assert not legal(lead, held, pairs, "nanning")


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row7_trump_bomb(preset: str) -> None:
    assert legal_plays("KH KH KH KH", "7H 7H 7H 7H 5H", preset) == {norm("7H 7H 7H 7H")}
    assert not legal("KH KH KH KH", "7H 7H 7H 7H 5H", "7H 7H 7H 5H", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row8_bomb_against_same_count_tractor(preset: str) -> None:
    """Also the seed's rule (7): 33 88 999 J against AAAA → 8899, not 999J."""
    held = "3S 3S 8S 8S 9S 9S 9S JS"
    assert legal_plays("AS AS AS AS", held, preset) == {norm("8S 8S 9S 9S")}
    assert not legal("AS AS AS AS", held, "9S 9S 9S JS", preset)
    assert not legal("AS AS AS AS", held, "3S 3S 8S 8S", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row9_bomb_against_two_triples(preset: str) -> None:
    """Also the seed's rule (6): 555 888 against KKKK → 5588."""
    assert legal_plays("KS KS KS KS", "5S 5S 5S 8S 8S 8S", preset) == {norm("5S 5S 8S 8S")}
    assert not legal("KS KS KS KS", "5S 5S 5S 8S 8S 8S", "5S 5S 5S 8S", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row10_bomb_tractor_against_pairs(preset: str) -> None:
    lead = "4S 4S 4S 4S 5S 5S 5S 5S"
    held = "3S 3S 6S 6S 9S 9S QS QS AS JS 7S"
    assert legal_plays(lead, held, preset) == {norm("3S 3S 6S 6S 9S 9S QS QS")}
    assert not legal(lead, held, "3S 3S 6S 6S 9S 9S QS AS", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row11_one_pair_then_anything(preset: str) -> None:
    """Also the seed's rule (8)."""
    held = "AS QS JS 9S 9S 5S 3S"
    plays = legal_plays("4S 4S 5S 5S", held, preset)
    assert plays and all("9S 9S" in play for play in plays)
    assert len(plays) == len(set(itertools.combinations(sorted(parse_cards("AS QS JS 5S 3S")), 2)))
    assert not legal("4S 4S 5S 5S", held, "AS QS JS 5S", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row12_no_pairs_any_four(preset: str) -> None:
    """Also the seed's rule (9)."""
    held = "AS JS 9S 5S 3S"
    assert len(legal_plays("4S 4S 5S 5S", held, preset)) == 5


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row13_two_pairs_not_a_triple(preset: str) -> None:
    held = "4S 4S 6S 6S 6S 8S 8S KS"
    plays = legal_plays("AS AS KS KS", held, preset)
    assert {norm("4S 4S 8S 8S"), norm("4S 4S 6S 6S"), norm("6S 6S 8S 8S")} == plays
    assert not legal("AS AS KS KS", held, "6S 6S 6S KS", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_r26_row14_one_pair_from_a_triple(preset: str) -> None:
    held = "5S 5S 5S 8S QS"
    plays = legal_plays("AS AS KS KS", held, preset)
    assert plays == {norm("5S 5S 5S 8S"), norm("5S 5S 5S QS"), norm("5S 5S 8S QS")}
    assert not legal("AS AS KS KS", held, "5S 8S QS 3D", preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_seed_rules_1_2_follow_suit_and_trump(preset: str) -> None:
    assert legal("AS AS KS KS", "3S 3S 4S 4S", "3S 3S 4S 4S", preset)
    assert not legal("AS AS KS KS", "3S 3S 4S 4S 5S", "3S 3S 4S 3D", preset)
    assert legal("AH AH KH KH", "3H 3H 4H 4H BJ", "3H 3H 4H 4H", preset)
    assert not legal("AH AH KH KH", "3H 3H 4H 4H BJ", "3H 3H BJ 3D", preset)


def test_seed_rule_5_same_count_tractor() -> None:
    """Seed rule (5), second example: 3344 555 888 against KKKK → 3344. Cutting a pair from the
    triple joins adjacent groups (R26 Decision), so 4455 is a same-count tractor too."""
    assert legal_plays("KS KS KS KS", "3S 3S 4S 4S 5S 5S 5S 8S 8S 8S") == {
        norm("3S 3S 4S 4S"),
        norm("4S 4S 5S 5S"),
    }


def test_seed_rule_5_decision_six_pair_tractor() -> None:
    """R26 Decision: ♥ 3344 5566 777888 991010JJ AA against the six-pair lead 991010JJQQKKAA holds
    six-pair tractors (3…8 up to 6…J, R12), so one of them must be followed."""
    held = "3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 7H 8H 8H 8H 9H 9H TH TH JH JH AH AH"
    lead = parse_cards("9H 9H TH TH JH JH QH QH KH KH AH AH")
    hand = parse_cards(held) + parse_cards(OTHER)
    ranks = "3456789TJ"
    for start in range(4):
        window = " ".join(f"{rank}H {rank}H" for rank in ranks[start : start + 6])
        assert is_legal_follow(hand, lead, parse_cards(window), T10H), window
    hint = legal_follow_hint(hand, lead, T10H)
    assert format_cards(sorted(hint)) == norm("3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 8H 8H")
    for seed_follow in ("7H 7H 7H 8H 8H 8H 9H 9H TH TH JH JH", "9H 9H TH TH JH JH 5H 5H 6H 6H AH AH"):
        message = explain_follow(hand, lead, parse_cards(seed_follow), T10H)
        assert message is not None and message.startswith("R24: you hold a tractor of 6 pairs of trumps")


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_wrong_count_and_cards_not_held(preset: str) -> None:
    lead = "AS AS KS KS"
    assert not legal(lead, "3S 3S 4S 4S 9S", "3S 3S 4S", preset)
    assert not legal(lead, "3S 3S 4S 4S 9S", "3S 3S 4S 4S 9S", preset)
    assert not legal(lead, "3S 3S 4S 4S 9S", "5S 5S 6S 6S", preset)
    hand = parse_cards("3S 3S 4S 4S 9S")
    message = explain_follow(hand, parse_cards(lead), parse_cards("3S 3S 4S"), T10H, preset)
    assert message is not None and message.startswith("R22")
    message = explain_follow(hand, parse_cards(lead), parse_cards("3S 3S 3S 4S"), T10H, preset)
    assert message == "R22: you do not hold 3S"


@pytest.mark.parametrize("preset", PRESETS)
def test_r23_void_discards_anything(preset: str) -> None:
    assert legal("AS AS KS KS", "", "3D 4D 6D QC", preset)
    assert legal("AS", "", "QC", preset)
    assert legal("AH AH", "", "3D 4D", preset)


def test_r23_short_must_play_all_including_trumps() -> None:
    assert legal("AH AH KH KH", "2S BJ", "2S BJ 3D 4D")
    assert not legal("AH AH KH KH", "2S BJ", "BJ 3D 4D 6D")


def test_single_lead_any_card_of_the_suit() -> None:
    assert legal("AS", "3S 3S KS", "KS")
    assert legal("AS", "3S 3S KS", "3S")
    assert not legal("AS", "3S 3S KS", "3D")
    assert legal("AS", "3S", "3S")
    assert not legal("AS", "3S", "QC")


def test_pair_lead_must_be_pair_if_held() -> None:
    assert legal_plays("AS AS", "3S 3S KS 9S 9S 9S") == {norm("3S 3S"), norm("9S 9S")}
    assert len(legal_plays("AS AS", "3S KS 9S")) == 3


@pytest.mark.parametrize(
    ("lead", "held", "play", "start"),
    [
        (
            "AS AS KS KS",
            "3S 3S 4S 4S 9S",
            "3S 3S 4S 9S",
            "R24: you hold a tractor of 2 pairs of ♠ and must follow",
        ),
        ("AS AS", "3S 3S 4S", "3S 4S", "R24: you hold a pair of ♠ and must follow with a pair"),
        ("AH AH", "3H 3H 4H", "3H 4H", "R24: you hold a pair of trumps"),
        ("AS AS", "3S 3S 4S", "3S 3D", "R24: you hold 3 ♠ cards, more than the lead's 2"),
        ("AS AS AS AS", "3S 3S 8S 8S 9S 9S 9S JS", "9S 9S 9S JS", "R24: you hold no bomb of ♠ but a tractor"),
        (
            "KS KS KS KS",
            "5S 5S 5S 8S 8S 8S",
            "5S 5S 5S 8S",
            "R24: you hold no bomb of ♠, so the follow must hold",
        ),
        ("AS AS KS KS", "3S 3S 4S", "3S 3S 3D 4D", "R23: you hold only 3 ♠ cards"),
    ],
)
def test_explain_follow_names_the_rule(lead: str, held: str, play: str, start: str) -> None:
    hand = parse_cards(held) + parse_cards(OTHER)
    message = explain_follow(hand, parse_cards(lead), parse_cards(play), T10H)
    assert message is not None and message.startswith(start), message
    assert "e.g. " in message


@pytest.mark.parametrize(
    ("lead", "held", "play", "reason", "rule", "extra"),
    [
        ("AS AS KS KS", "3S 3S 4S 4S 9S", "3S 3S 4S 9S", "exact", "R24", {}),
        ("AS AS", "3S 3S 4S", "3S 3D", "off_class", "R24", {"others": ["3D"]}),
        ("AS AS AS AS", "3S 3S 8S 8S 9S 9S 9S JS", "9S 9S 9S JS", "same_count", "R24", {}),
        ("KS KS KS KS", "5S 5S 5S 8S 8S 8S", "5S 5S 5S 8S", "pairs", "R24", {"best_pairs": 2, "got_pairs": 1}),
        ("AS AS KS KS", "3S 3S 4S", "3S 3S 3D 4D", "left_out", "R23", {"kept": ["4S"]}),
        ("AS AS KS KS", "3S 3S 4S", "3S 3S", "wrong_count", "R22", {"count": 2}),
        ("AS AS", "3S 3S 4S", "5S 5S", "not_held", "R22", {"missing": ["5S", "5S"]}),
    ],
)
def test_follow_refusal_codes_and_params(
    lead: str, held: str, play: str, reason: str, rule: str, extra: dict[str, object]
) -> None:
    """Every wrong follow has a stable reason code and JSON-ready params (docs/PROTOCOL.md §2.5)."""
    hand = parse_cards(held) + parse_cards(OTHER)
    refusal = follow_refusal(hand, parse_cards(lead), parse_cards(play), T10H)
    assert refusal is not None and (refusal.reason, refusal.rule) == (reason, rule)
    assert refusal.message == explain_follow(hand, parse_cards(lead), parse_cards(play), T10H)
    assert refusal.params["lead_size"] == len(parse_cards(lead))
    for key, value in extra.items():
        assert refusal.params[key] == value, (key, refusal.params)
    if reason not in ("wrong_count", "not_held"):
        assert refusal.params["class"] == "S" and refusal.params["held"] == len(parse_cards(held))
        assert is_legal_follow(hand, parse_cards(lead), parse_cards(" ".join(refusal.params["example"])), T10H)
    json.dumps(refusal.to_params())


def test_follow_refusal_tractors_and_r25() -> None:
    hand = parse_cards("3S 3S 4S 4S 5S 5S 5S 9S 9S JS JS") + parse_cards(OTHER)
    lead = parse_cards("4S 4S 4S 4S 5S 5S 5S 5S")
    refusal = follow_refusal(hand, lead, parse_cards("3S 3S 9S 9S JS JS 5S 4S"), T10H)
    assert refusal is not None and refusal.reason == "tractors"
    assert refusal.params["shape"] == {"arity": 4, "length": 2}
    assert refusal.params["best"]["tractors"] == [6] and refusal.params["got"]["tractors"] == []
    hand = parse_cards("7S 7S 7S 7S 8S 8S 9S 9S 3S") + parse_cards(OTHER)
    refusal = follow_refusal(hand, parse_cards("AS AS AS AS"), parse_cards("7S 7S 8S 9S"), T10H, "guigang")
    assert refusal is not None and (refusal.reason, refusal.rule) == ("exact_or_same", "R25")
    assert refusal.to_params()["preset"] == "guigang"
    assert follow_refusal(hand, parse_cards("AS AS AS AS"), parse_cards("7S 7S 7S 7S"), T10H) is None


def test_explain_follow_guigang_names_r25() -> None:
    hand = parse_cards("7S 7S 7S 7S 8S 8S 9S 9S 3S") + parse_cards(OTHER)
    lead = parse_cards("AS AS AS AS")
    assert is_legal_follow(hand, lead, parse_cards("8S 8S 9S 9S"), T10H, "guigang")
    assert not is_legal_follow(hand, lead, parse_cards("8S 8S 9S 9S"), T10H, "nanning")
    message = explain_follow(hand, lead, parse_cards("7S 7S 8S 9S"), T10H, "guigang")
    assert message is not None and message.startswith("R25 (guigang)")


@pytest.mark.parametrize(
    ("lead", "held", "hint"),
    [
        ("AS AS KS KS", "3S 3S 4S 4S 9S", "4S 4S 3S 3S"),
        ("AS", "KS 5S 9S 3S 3S", "9S"),
        ("AS AS", "KS KS 9S 9S 9S 6S 6S", "6S 6S"),
        ("4S 4S 5S 5S", "AS QS JS 9S 9S 5S 3S", "JS 9S 9S 3S"),
        ("AS AS KS KS", "3S 3S 4S", "4S 3S 3S 3D"),
        ("AS AS KS KS", "", "QC 6D 4D 3D"),
    ],
)
def test_hint_is_cheapest(lead: str, held: str, hint: str) -> None:
    hand = parse_cards(held) + parse_cards(OTHER)
    got = legal_follow_hint(hand, parse_cards(lead), T10H)
    assert format_cards(got) == hint
    assert is_legal_follow(hand, parse_cards(lead), got, T10H)


def test_hint_discards_keep_trumps_points_and_pairs() -> None:
    hand = parse_cards("BJ 2S KC 5D 9C 9C 4D 7C")
    got = legal_follow_hint(hand, parse_cards("AS AS KS KS"), T10H)
    assert format_cards(got) == "9C 9C 7C 4D"


def test_random_follow_is_legal_and_varied() -> None:
    hand = parse_cards("AS QS JS 9S 9S 5S 3S") + parse_cards(OTHER)
    lead = parse_cards("4S 4S 5S 5S")
    rng = random.Random(7)
    seen = {tuple(sorted(random_legal_follow(hand, lead, T10H, rng))) for _ in range(400)}
    assert all(is_legal_follow(hand, lead, play, T10H) for play in seen)
    assert len(seen) == len(legal_plays("4S 4S 5S 5S", "AS QS JS 9S 9S 5S 3S"))


def test_r24_tractors_may_use_a_low_and_a_high() -> None:
    """Four trump As give AH AH 2H 2H (A low) and KH KH AH AH (A high): tractors [4, 4] (R12, R24)."""
    lead = "5H 5H 6H 6H 7H 7H 8H 8H"
    assert legal_plays(lead, "AH AH AH AH 2H 2H KH KH 9H") == {norm("AH AH AH AH 2H 2H KH KH")}


def test_r24_mixed_arity_decomposition_then_pairs() -> None:
    """777 888 99 holds 777888 + 99 (tractor of 6, one pair) or 778899 + 7 8 (no pair): the best
    decomposition counts, so 777888 99 is the only legal follow to a tractor of 4 pairs."""
    lead = "3S 3S 4S 4S 5S 5S 6S 6S"
    assert legal_plays(lead, "7S 7S 7S 8S 8S 8S 9S 9S 3S") == {norm("7S 7S 7S 8S 8S 8S 9S 9S")}
    assert not legal(lead, "7S 7S 7S 8S 8S 8S 9S 9S 3S", "7S 7S 7S 8S 8S 9S 9S 3S")
