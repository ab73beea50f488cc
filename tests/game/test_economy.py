"""The economy's invariants (docs/RULES-NOTES.md, Economy; R39–R43, §13) as properties.

Every settlement is a transfer between people: what winners receive is what losers actually pay
(R40–R41, rounding down), an escape (R43) pays the opponents at most what the escaper actually
lost, bots' seats (``None``) neither pay nor receive, so no hand creates 積分 or silver; no
settlement takes a balance below 0 (R39).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tuolaji.game import RoundResult
from tuolaji.game.options import TableOptions
from tuolaji.game.settlement import Balance, Change, Seat, apply_change, is_ranked, settle

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


seats_or_bots = st.lists(st.one_of(balances, st.none()), min_size=4, max_size=4)
results = st.one_of(
    st.builds(played, st.integers(0, 1), st.integers(0, 6), st.sampled_from([(), (0,), (1, 3)])),
    st.builds(escape, seats),
)


def _after(table: list[Seat], changes: list[Change]) -> list[Seat]:
    return [None if b is None else apply_change(b, c) for b, c in zip(table, changes, strict=True)]


def _totals(table: list[Seat]) -> tuple[int, int]:
    return sum(b.points for b in table if b), sum(b.silver for b in table if b)


@given(seats_or_bots, results)
def test_no_settlement_creates_points_or_silver(table: list[Seat], result: RoundResult) -> None:
    """R40–R43: the people's total 積分 and silver after a settlement are at most those before; bots
    never gain or pay; nobody goes below 0 (R39)."""
    changes = settle(result, table)
    after = _after(table, changes)
    assert _totals(after)[0] <= _totals(table)[0]
    assert _totals(after)[1] <= _totals(table)[1]
    for balance, change in zip(table, changes, strict=True):
        if balance is None:
            assert change == Change()
        else:
            assert balance.points + change.points >= 0
            assert balance.silver + change.silver >= 0


@given(tables, st.integers(0, 1), st.integers(1, 6))
def test_winners_receive_what_losers_pay_less_only_rounding(table: list[Balance], team: int, levels: int) -> None:
    """R40: among people the amount moved is conserved up to one unit lost per winner to rounding;
    when every loser can pay and the dues cover the claims, each winner gains own base × levels."""
    changes = settle(played(team, levels, ()), table)
    for currency in ("points", "silver"):
        moved = [getattr(change, currency) for change in changes]
        paid = -sum(moved[seat] for seat in range(4) if seat % 2 != team)
        received = sum(moved[seat] for seat in range(4) if seat % 2 == team)
        assert 0 <= paid - received <= 2
        assert all(moved[seat] >= 0 for seat in range(4) if seat % 2 == team)
        assert all(moved[seat] <= 0 for seat in range(4) if seat % 2 != team)
    bases = [b.silver_base for b in table]
    dues = [min(bases[seat] * levels, table[seat].silver) for seat in range(4) if seat % 2 != team]
    claims = [bases[seat] * levels for seat in range(4) if seat % 2 == team]
    if sum(dues) == sum(claims) and all(
        due == bases[s] * levels for due, s in zip(dues, (team ^ 1, team ^ 3), strict=True)
    ):
        assert [changes[seat].silver for seat in range(4) if seat % 2 == team] == claims


@given(st.lists(balances, min_size=2, max_size=2), st.integers(0, 1), st.integers(0, 1), st.integers(1, 3))
def test_a_hand_against_bots_moves_nothing(people: list[Balance], bot_team: int, person: int, levels: int) -> None:
    """R40: one person (or two partners) against two bots: whoever wins, nobody gains or pays."""
    table: list[Seat] = [None] * 4
    table[(bot_team ^ 1) + 0] = people[0]
    if person:
        table[(bot_team ^ 1) + 2] = people[1]
    for team in (0, 1):
        assert settle(played(team, levels, ()), table) == [Change()] * 4


def test_rule_book_example_a_rich_loser_pays_only_what_the_winners_claim() -> None:
    """Rule book (R40): 待業 winners (silver base 1) beating 經理s (silver base 256) by 2 levels gain
    2 each; the losers pay those 4 between them (2 each), not 512 each."""
    poor, rich = Balance(0, 0), Balance(0, 25600)
    changes = settle(played(0, 2, ()), [poor, rich, poor, rich])
    assert changes == [Change(0, 2), Change(0, -2), Change(0, 2), Change(0, -2)]


def test_rule_book_example_a_broke_loser_pays_nothing_and_nobody_gains() -> None:
    """Rule book (R40): winners take what the losers hold; a broke loser's side pays nothing."""
    table = [Balance(0, 1000), Balance(0, 0), Balance(0, 1000), Balance(0, 0)]
    assert settle(played(0, 3, ()), table) == [Change()] * 4


def test_rule_book_example_one_loser_pays_for_a_broke_partner() -> None:
    """Rule book (R40): two 正式工 winners (base 4) by 3 levels claim 12 silver each; the losers are a
    經理 (owes 768) and a broke partner (owes 0): the 經理 pays the 24 claimed, each winner gets 12."""
    table = [Balance(0, 400), Balance(0, 25600), Balance(0, 400), Balance(0, 0)]
    assert settle(played(0, 3, ()), table) == [Change(0, 12), Change(0, -24), Change(0, 12), Change()]


def test_cheating_cancels_gains_and_the_losers_still_pay() -> None:
    """R41 with R32: the flagged hand's winners gain nothing; the losers pay their dues in full."""
    table = [Balance(0, 100), Balance(0, 400), Balance(0, 100), Balance(0, 400)]
    assert settle(played(0, 1, (0,)), table) == [Change(), Change(0, -4), Change(), Change(0, -4)]


@given(tables, st.integers(0, 1), st.integers(1, 6), st.sampled_from([(), (0,), (1, 3)]))
def test_a_ranked_hand_creates_points_only_by_r40_and_silver_never(
    table: list[Balance], team: int, levels: int, cheaters: tuple[int, ...]
) -> None:
    """RULES-NOTES, Economy: in a ranked hand each winner gains own 基礎分 × levels (nothing when
    flagged, R41) and each loser loses own 基礎分 × levels floored at 0; silver stays a transfer."""
    ranked = settle(played(team, levels, cheaters), table, ranked=True)
    plain = settle(played(team, levels, cheaters), table)
    for seat, balance in enumerate(table):
        due = balance.point_base * levels
        expected = (0 if cheaters else due) if seat % 2 == team else -min(due, balance.points)
        assert ranked[seat].points == expected
        assert ranked[seat].silver == plain[seat].silver


def test_ranked_needs_a_whole_hand_four_registered_people_and_the_standard_pace() -> None:
    """RULES-NOTES, Economy: the 積分 faucet's conditions, one at a time."""
    people = [True] * 4
    assert is_ranked(played(0, 1, ()), TableOptions(), people)
    assert not is_ranked(played(0, 1, ()), TableOptions(), [True, True, True, False])
    assert not is_ranked(escape(1), TableOptions(), people)
    laogai = RoundResult(kind="laogai", dealer=0, winner="attackers", winning_team=1, levels=3, laogai_team=0)
    assert not is_ranked(laogai, TableOptions(), people)
    for fast in ({"deal_interval_ms": 0}, {"bid_window_seconds": 9.5}, {"review_seconds": 1}):
        assert not is_ranked(played(0, 1, ()), TableOptions(**fast), people), fast
    assert is_ranked(played(0, 1, ()), TableOptions(turn_seconds=5, review_seconds=3, deal_interval_ms=200), people)
