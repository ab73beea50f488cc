"""The economy's invariants (docs/RULES-NOTES.md, Economy; R39–R43, §13) as properties.

An escape (R43) is a transfer: the opponents never gain more than the escaper actually lost, so
no sequence of escapes creates 積分 or silver; no settlement takes a balance below 0 (R39).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tuolaji.game import RoundResult
from tuolaji.game.settlement import Balance, Change, apply_change, settle

amounts = st.one_of(st.integers(0, 30), st.integers(0, 3_000_000), st.integers(0, 10**12))
balances = st.builds(Balance, amounts, amounts)
tables = st.lists(balances, min_size=4, max_size=4)
seats = st.integers(0, 3)


def escape(seat: int) -> RoundResult:
    return RoundResult(kind="escape", dealer=0, escaped=seat)


def played(team: int, levels: int, cheaters: tuple[int, ...]) -> RoundResult:
    return RoundResult(
        kind="played",
        dealer=0,
        winner="defenders" if team == 0 else "attackers",
        winning_team=team,
        levels=levels,
        cheaters=cheaters,
    )


@given(tables, seats)
def test_an_escape_creates_nothing(table: list[Balance], seat: int) -> None:
    """R43: the opponents' gains add up to at most what the escaper actually lost; the partner is unchanged."""
    changes = settle(escape(seat), table)
    after = [apply_change(balance, change) for balance, change in zip(table, changes, strict=True)]
    lost_points = table[seat].points - after[seat].points
    lost_silver = table[seat].silver - after[seat].silver
    opponents = [other for other in range(4) if other % 2 != seat % 2]
    assert sum(after[other].points - table[other].points for other in opponents) <= lost_points
    assert sum(after[other].silver - table[other].silver for other in opponents) <= lost_silver
    assert changes[seat ^ 2] == Change()
    assert sum(b.points for b in after) <= sum(b.points for b in table)
    assert sum(b.silver for b in after) <= sum(b.silver for b in table)


@given(tables, seats)
def test_an_escaper_who_can_pay_pays_r43_in_full(table: list[Balance], seat: int) -> None:
    """R43 unchanged for an escaper holding 6× own bases: −6× own bases, +3× the escaper's bases each."""
    escaper = table[seat]
    changes = settle(escape(seat), table)
    if escaper.points >= 6 * escaper.point_base:
        assert changes[seat].points == -6 * escaper.point_base
        assert changes[seat ^ 1].points == changes[seat ^ 3].points == 3 * escaper.point_base
    if escaper.silver >= 6 * escaper.silver_base:
        assert changes[seat].silver == -6 * escaper.silver_base
        assert changes[seat ^ 1].silver == changes[seat ^ 3].silver == 3 * escaper.silver_base


@given(tables, st.lists(seats, min_size=1, max_size=60))
def test_no_sequence_of_escapes_creates_points_or_silver(table: list[Balance], escapers: list[int]) -> None:
    """Escape farming: however often anyone escapes, the table's totals never grow."""
    start_points, start_silver = sum(b.points for b in table), sum(b.silver for b in table)
    for seat in escapers:
        changes = settle(escape(seat), table)
        table = [apply_change(balance, change) for balance, change in zip(table, changes, strict=True)]
        assert all(balance.points >= 0 and balance.silver >= 0 for balance in table)
    assert sum(b.points for b in table) <= start_points
    assert sum(b.silver for b in table) <= start_silver


def test_a_broke_escaper_pays_nothing_and_nobody_gains() -> None:
    """The farming of issue 15: a broke account escaping 487 times moves nobody's balance."""
    table = [Balance(0, 0), Balance(0, 1000), Balance(0, 0), Balance(0, 0)]
    for _ in range(487):
        changes = settle(escape(0), table)
        table = [apply_change(balance, change) for balance, change in zip(table, changes, strict=True)]
    assert table == [Balance(0, 0), Balance(0, 1000), Balance(0, 0), Balance(0, 0)]


def test_a_short_escaper_pays_what_it_holds_and_each_opponent_half_of_it_rounded_down() -> None:
    """7 積分 and 5 silver against 6× bases of 6 and 6: lost 6/5, each opponent 3/2 (one silver is lost)."""
    table = [Balance(7, 5), Balance(0, 0), Balance(0, 0), Balance(0, 0)]
    assert settle(escape(0), table) == [Change(-6, -5), Change(3, 2), Change(), Change(3, 2)]


@given(tables, st.integers(0, 1), st.integers(0, 6), st.sampled_from([(), (0,), (1, 3)]))
def test_no_settlement_takes_a_balance_below_zero(
    table: list[Balance], team: int, levels: int, cheaters: tuple[int, ...]
) -> None:
    """R39–R41: losers pay at most what they hold; the result of every settlement is ≥ 0."""
    for result in (played(team, levels, cheaters), escape(levels % 4)):
        for balance, change in zip(table, settle(result, table), strict=True):
            assert balance.points + change.points >= 0
            assert balance.silver + change.silver >= 0
