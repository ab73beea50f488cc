"""The quick match's decisions (tuolaji.matching.decide), as properties over generated queues: no entry
in two groups, four people (or bots for the seats left, only for those who accept them), every two
people within the band of the one who waited longer, no blocked pair together, partners opposite each
other, the same answer in any order; the codec gives back what it was given."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tuolaji.matching import decide
from tuolaji.matching.decide import ANSWER_MS, BAND_START, SEATS, Group, band, plan, seating
from tuolaji.matching.entries import PendingMatch, QueueEntry, QueueKey, Seeker
from tuolaji.room.commands import Player

NOW = 10_000_000
KEY = QueueKey("nanning", "laogai")


def seeker(account: int, rank: int, avoid: frozenset[int] = frozenset(), away: int | None = None) -> Seeker:
    return Seeker(Player(account, f"p{account}", "布衣"), f"n.{account}", rank, avoid, away)


def entry(
    number: int,
    ranks: tuple[int, ...],
    waited: int = 0,
    bots_after: int | None = None,
    **fields: object,
) -> QueueEntry:
    seekers = tuple(seeker(number * 10 + index, rank) for index, rank in enumerate(ranks))
    return QueueEntry(f"e{number}", KEY, seekers, NOW - waited, bots_after, **fields)  # type: ignore[arg-type]


@st.composite
def queues(draw: st.DrawFn, max_entries: int = 14) -> list[QueueEntry]:
    """A queue of one to ``max_entries`` entries: singles and pairs of ranks 0–19 that waited up to a
    minute, some accepting bots, some away, held back or awaiting a partner, some muting others."""
    count = draw(st.integers(1, max_entries))
    entries = []
    for number in range(count):
        people = draw(st.sampled_from((1, 1, 1, 2)))
        ranks = tuple(draw(st.integers(0, 19)) for _ in range(people))
        accounts = [number * 10 + index for index in range(people)]
        avoid = frozenset(draw(st.sets(st.integers(0, count * 10), max_size=2)))
        away = draw(st.sampled_from((None, None, None, NOW - 1000)))
        seekers = tuple(
            seeker(account, rank, avoid if index == 0 else frozenset(), away if index == 0 else None)
            for index, (account, rank) in enumerate(zip(accounts, ranks, strict=True))
        )
        entries.append(
            QueueEntry(
                f"e{number}",
                KEY,
                seekers,
                NOW - draw(st.integers(0, 60_000)),
                draw(st.sampled_from((None, 10_000, 30_000, 60_000))),
                draw(st.sampled_from(("random", "heuristic", "search"))),
                draw(st.sampled_from((0, 0, 0, NOW + 5000))),
                draw(st.sampled_from((None, None, None, None, f"code{number}"))),
            )
        )
    return entries


def blocked_of(entries: list[QueueEntry]) -> frozenset[frozenset[int]]:
    return frozenset(
        frozenset((seeker.account_id, other)) for entry in entries for seeker in entry.seekers for other in seeker.avoid
    )


def check_group(group: Group, blocked: frozenset[frozenset[int]]) -> None:
    entries = group.entries
    assert group.people == (SEATS if group.bot is None else group.people)
    assert 1 <= group.people <= SEATS and (group.bot is None) == (group.people == SEATS)
    if group.bot is not None:
        anchor = entries[0]
        assert anchor.bots_after_ms is not None and NOW - anchor.since_ms >= anchor.bots_after_ms
        assert group.bot == anchor.bot and all(item.bots_after_ms is not None for item in entries)
    for index, a in enumerate(entries):
        assert decide.eligible(a, NOW)
        for b in entries[index + 1 :]:
            allowed = band(NOW - min(a.since_ms, b.since_ms))
            for p in a.seekers:
                for q in b.seekers:
                    assert abs(p.rank - q.rank) <= allowed
                    assert frozenset((p.account_id, q.account_id)) not in blocked


@settings(max_examples=200, deadline=None)
@given(queues())
def test_groups_are_whole_tables_within_the_bands_and_no_entry_is_used_twice(entries: list[QueueEntry]) -> None:
    blocked = blocked_of(entries)
    groups = plan(entries, NOW, blocked)
    ids = [item.id for group in groups for item in group.entries]
    assert len(ids) == len(set(ids))
    assert set(ids) <= {item.id for item in entries}
    for group in groups:
        check_group(group, blocked)


@settings(max_examples=100, deadline=None)
@given(queues())
def test_partners_sit_opposite_each_other_and_everyone_once(entries: list[QueueEntry]) -> None:
    for group in plan(entries, NOW, blocked_of(entries)):
        seats = seating(group.entries)
        people = [seat for seat in seats if seat is not None]
        assert len(seats) == SEATS and len(people) == group.people
        assert sorted(p.account_id for p in people) == sorted(a for item in group.entries for a in item.accounts)
        for item in group.entries:
            if item.people == 2:
                first, second = (seats.index(person) for person in item.seekers)
                assert second - first == 2


@settings(max_examples=100, deadline=None)
@given(queues(), st.randoms(use_true_random=False))
def test_the_plan_does_not_depend_on_the_order_of_the_queue(entries: list[QueueEntry], rng: random.Random) -> None:
    shuffled = list(entries)
    rng.shuffle(shuffled)
    blocked = blocked_of(entries)
    assert plan(shuffled, NOW, blocked) == plan(entries, NOW, blocked)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 40), st.integers(0, 19))
def test_people_of_one_rank_all_sit_down_but_the_last_few(count: int, rank: int) -> None:
    entries = [entry(number, (rank,)) for number in range(count)]
    groups = plan(entries, NOW)
    assert all(group.bot is None for group in groups)
    assert sum(group.people for group in groups) == count - count % SEATS


def test_ranks_far_apart_wait_until_the_band_reaches_them() -> None:
    needed = next(waited for waited in range(0, 60_000, 100) if band(waited) >= 6)
    early = [entry(0, (0,)), entry(1, (0,)), entry(2, (0,)), entry(3, (6,), waited=needed - 1)]
    assert plan(early, NOW) == []
    # The one far off waited long enough; between the three others, who have not, the ranks are equal.
    later = [entry(0, (0,)), entry(1, (0,)), entry(2, (0,)), entry(3, (6,), waited=needed)]
    [group] = plan(later, NOW)
    assert group.people == SEATS
    # Two far apart who both just came do not sit together, however long a third waited.
    apart = [entry(0, (0,), waited=60_000), entry(1, (0,)), entry(2, (6,)), entry(3, (6,))]
    assert plan(apart, NOW) == []


def test_a_blocked_pair_never_sits_together_but_others_do() -> None:
    entries = [entry(number, (3,)) for number in range(5)]
    blocked = frozenset({frozenset((0, 10))})
    [group] = plan(entries, NOW, blocked)
    accounts = {a for item in group.entries for a in item.accounts}
    assert not {0, 10} <= accounts and len(accounts) == SEATS


def test_bots_fill_the_seats_once_the_wait_is_over_with_whoever_accepts_bots() -> None:
    early = entry(0, (2,), waited=9_999, bots_after=10_000)
    assert plan([early], NOW) == []
    waited = entry(0, (2,), waited=10_000, bots_after=10_000, bot="search")
    other = entry(1, (2,), waited=0, bots_after=60_000)
    never = entry(2, (2,), waited=0)
    [group] = plan([waited, other, never], NOW)
    assert group.bot == "search" and [item.id for item in group.entries] == ["e0", "e1"]


def test_a_pair_and_two_singles_make_a_table_with_the_pair_opposite() -> None:
    pair = entry(0, (1, 2))
    [group] = plan([pair, entry(1, (1,)), entry(2, (2,))], NOW)
    seats = seating(group.entries)
    assert [s.account_id if s else None for s in seats] == [0, 10, 1, 20]


def test_after_the_answers_whole_entries_go_back_with_their_place_and_new_connections() -> None:
    entries = (entry(0, (1, 2)), entry(1, (1,)), entry(2, (2,)))
    back, gone = decide.after_answers(entries, {0: "b.1", 1: "b.2", 10: "b.3"})
    assert [item.id for item in back] == ["e0", "e1"] and [item.id for item in gone] == ["e2"]
    assert [s.client for s in back[0].seekers] == ["b.1", "b.2"] and back[0].since_ms == entries[0].since_ms


def test_stale_entries_are_the_long_away_and_the_long_unpaired() -> None:
    away = QueueEntry("a", KEY, (seeker(1, 0, away=NOW - decide.AWAY_GRACE_MS),), NOW)
    back_soon = QueueEntry("b", KEY, (seeker(2, 0, away=NOW - 1),), NOW)
    unpaired = QueueEntry("c", KEY, (seeker(3, 0),), NOW - decide.PAIR_WAIT_MS, pair_code="x")
    assert {item.id for item in decide.stale([away, back_soon, unpaired], NOW)} == {"a", "c"}


@given(st.lists(st.integers(0, 100_000), max_size=50), st.integers(0, 100_000), st.sampled_from((None, 10_000)))
def test_the_estimate_is_never_past_the_bots_and_unknown_without_history(
    waits: list[int], waited: int, bots: int | None
) -> None:
    guess = decide.estimate_ms(waits, waited, bots)
    assert (guess is None) == (not waits and bots is None)
    if guess is not None:
        assert guess >= 0
        if bots is not None:
            assert guess <= max(0, bots - waited)


@given(st.integers(0, 10**7), st.integers(0, 10**7))
def test_the_band_only_widens_and_opens_to_every_title(a: int, b: int) -> None:
    assert band(min(a, b)) <= band(max(a, b)) and band(0) == BAND_START
    assert band(10_000) >= 19  # §13 has 20 titles


@settings(max_examples=100, deadline=None)
@given(queues())
def test_the_codec_gives_back_the_same_entries_and_matches(entries: list[QueueEntry]) -> None:
    for item in entries:
        assert QueueEntry.decode(item.encode()) == item
        assert QueueEntry.decode(item.encode()).encode() == item.encode()
    match = PendingMatch("m1", KEY, tuple(entries[:3]), NOW + ANSWER_MS, "heuristic")
    assert PendingMatch.decode(match.encode()) == match
