"""Match flow (R5, R36–R38) and settlement arithmetic (R39–R43, §13)."""

from __future__ import annotations

import pytest

from tuolaji.game import Match, RoundResult, TableOptions, next_dealer, raise_level
from tuolaji.game.settlement import Balance, Change, apply_change, rank_title, settle, wealth_title


@pytest.mark.parametrize(
    ("level", "gain", "after"),
    [(1, 1, 2), (1, 3, 4), (12, 1, 1), (11, 3, 2), (10, 2, 12), (5, 0, 5)],
)
def test_levels_wrap_after_ace_to_three(level: int, gain: int, after: int) -> None:
    """R5, R38: 3 … A, then 3 again (rank index 1 = 3, 12 = A)."""
    assert raise_level(level, gain) == after


@pytest.mark.parametrize(
    ("dealer", "winning_team", "expected"),
    [(0, 0, 2), (0, 1, 1), (1, 1, 3), (1, 0, 2), (3, 1, 1), (3, 0, 0)],
)
def test_next_dealer_rotation(dealer: int, winning_team: int, expected: int) -> None:
    """R37: defenders win → the dealer's partner deals; attackers take over → next(dealer) deals."""
    result = RoundResult(kind="played", dealer=dealer, winning_team=winning_team, levels=1)
    assert next_dealer(result) == expected


def test_match_applies_a_laogai_as_a_three_level_win_and_rotates_as_if_won() -> None:
    """R34: the other team gains 3 levels; the next dealer follows R37 as if that team had won."""
    match = Match(TableOptions(start_level="Q"), seed=1)
    round_ = match.start_round()
    assert round_.level == 10
    round_.result = RoundResult(kind="laogai", dealer=0, winner="attackers", winning_team=1, levels=3)
    round_.phase = round_.phase.FINISHED
    outcome = match.finish_round()
    assert outcome.levels_after == (10, raise_level(10, 3)) == (10, 1)
    assert outcome.next_dealer == 1 and match.dealer == 1
    assert match.next_setup().level == 1


def test_round_seeds_are_derived_from_the_match_seed() -> None:
    assert Match(TableOptions(), 3).round_seed(0) == Match(TableOptions(), 3).round_seed(0)
    assert Match(TableOptions(), 3).round_seed(0) != Match(TableOptions(), 3).round_seed(1)
    assert Match(TableOptions(), 3).round_seed(0) != Match(TableOptions(), 4).round_seed(0)


@pytest.mark.parametrize(
    ("points", "title", "base"),
    [
        (0, "布衣", 1),
        (99, "布衣", 1),
        (100, "秀才", 2),
        (1999, "縣令", 5),
        (2000, "通判", 10),
        (866400, "皇上", 190),
    ],
)
def test_rank_titles(points: int, title: str, base: int) -> None:
    """§13 玩家級別."""
    assert rank_title(points) == (title, base)


@pytest.mark.parametrize(
    ("silver", "title", "base"),
    [(0, "待業", 1), (1000, "助理主管", 8), (799, "正式工", 4), (26214400, "玉帝", 262144)],
)
def test_wealth_titles(silver: int, title: str, base: int) -> None:
    """§13 財富等級; new accounts hold 1,000 silver."""
    assert wealth_title(silver) == (title, base)


BALANCES = [Balance(100, 1000), Balance(0, 50), Balance(2000, 400), Balance(650, 0)]


def test_winners_share_what_the_losers_actually_pay() -> None:
    """R40 as a transfer (docs/RULES-NOTES.md, Economy): the losers owe own bases × levels capped at
    what they hold (積分 0 and 8, silver 2 and 0); the winners split that by their claims (積分 4 and
    20, silver 16 and 8), rounding down: 積分 1 and 6 of 8 paid, silver 1 and 0 of 2 paid."""
    result = RoundResult(kind="played", dealer=0, winner="defenders", winning_team=0, levels=2)
    assert settle(result, BALANCES) == [Change(1, 1), Change(0, -2), Change(6, 0), Change(-8, 0)]


def test_no_level_change_changes_no_balance() -> None:
    result = RoundResult(kind="played", dealer=0, winner="attackers", winning_team=1, levels=0, score=200)
    assert settle(result, BALANCES) == [Change()] * 4


def test_cheating_cancels_the_winners_gains_but_losers_pay() -> None:
    """R41, R32."""
    result = RoundResult(kind="played", dealer=0, winner="attackers", winning_team=1, levels=1, cheaters=(2,))
    assert settle(result, BALANCES) == [Change(-2, -8), Change(0, 0), Change(-10, -4), Change(0, 0)]


def test_escape_costs_six_bases_and_pays_each_opponent_three_of_the_escapers() -> None:
    """R43: the partner is unchanged."""
    result = RoundResult(kind="escape", dealer=0, escaped=2)
    assert settle(result, BALANCES) == [Change(), Change(30, 12), Change(-60, -24), Change(30, 12)]


def test_an_escaper_short_of_six_bases_pays_the_opponents_only_what_it_lost() -> None:
    """R43 as a transfer (docs/RULES-NOTES.md, Economy): seat 3 holds 650 積分 (6 × 4 = 24 due) and no
    silver (6 due): it loses 24 and 0, each opponent gains 12 and 0."""
    result = RoundResult(kind="escape", dealer=0, escaped=3)
    assert settle(result, BALANCES) == [Change(12, 0), Change(), Change(12, 0), Change(-24, 0)]


def test_apply_change_floors_at_zero() -> None:
    assert apply_change(Balance(5, 5), Change(-10, 3)) == Balance(0, 8)
