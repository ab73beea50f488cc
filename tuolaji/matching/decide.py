"""The quick match's decisions, pure (the time comes in as ``now_ms``): who may sit together, which
groups of four people (or fewer and bots) to make now, where each sits, what happens after the
answers, which entries are stale, and how long a player may still wait.

- **Rank bands.** Two people of different entries may sit together while their rank titles (their
  places in §13's table) are at most ``band`` apart, where ``band`` is that of the one who has
  waited longer: :data:`BAND_START` title at first, twice as many every :data:`BAND_DOUBLING_MS` of
  waiting (1, 2, 4, 8, 16: most tables fill within the first two steps, from people one or two
  titles apart; the rare far ranks wait a few seconds, not minutes).
  Nobody sits with an account of a blocked pair (a mute of the last day, ``tuolaji.server.quick_blocks``).
- **Groups.** The oldest entry first: the people closest in rank that complete four, each pair of
  them within the band. Partners (an entry of two) sit at seats 0 and 2, or 1 and 3.
- **Bots.** Once an entry has waited its ``bots_after_ms``, it sits down with whoever else in the
  queue accepts bots and fits the bands (nearest ranks first), and its ``bot``s fill the seats left.
- **Answers.** Everyone matched answers within :data:`ANSWER_MS`; if one does not, the match is
  off: the entries whose people all answered go back to the queue with their old place (the front),
  the others leave it.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from tuolaji.matching.entries import QueueEntry, Seeker

SEATS: Final = 4
BAND_START: Final = 1
"""Rank titles apart two people may be when they start waiting."""
BAND_DOUBLING_MS: Final = 1000
"""The band doubles every this long of waiting (after 5 s, every title of §13 fits)."""
MAX_DOUBLINGS: Final = 5
"""The band stops growing after this many doublings (wider than §13's 20 titles)."""
ANSWER_MS: Final = 5000
"""How long a matched player has to answer before the match goes on without them."""
AWAY_GRACE_MS: Final = 15_000
"""An entry whose player's connection closed this long ago (and did not come back) leaves the queue."""
PAIR_WAIT_MS: Final = 600_000
"""How long the first of two partners waits for the second (their invite code) before the entry goes."""
EARLY_LEAVE_MS: Final = 300_000
"""Leaving a matched table within this long of being seated counts towards a longer wait next time."""
MAX_CANDIDATES: Final = 24
"""Entries tried (nearest in rank first) to complete one entry's group: the search stays small."""

Pair = frozenset[int]
"""Two accounts that must not sit at one table."""


def band(waited_ms: int) -> int:
    """How many rank titles apart an entry that has waited ``waited_ms`` accepts."""
    return BAND_START << min(MAX_DOUBLINGS, max(0, waited_ms) // BAND_DOUBLING_MS)


def eligible(entry: QueueEntry, now_ms: int) -> bool:
    """Whether ``entry`` may be matched now: complete (no partner awaited), everyone connected, no
    longer held back (``not_before_ms``)."""
    return entry.pair_code is None and entry.away_since_ms is None and now_ms >= entry.not_before_ms


def compatible(a: QueueEntry, b: QueueEntry, now_ms: int, blocked: Collection[Pair]) -> bool:
    """Whether the people of ``a`` and ``b`` may sit at one table now: every two of them within the
    band of the entry that waited longer, and no blocked pair among them."""
    allowed = band(now_ms - min(a.since_ms, b.since_ms))
    for p in a.seekers:
        for q in b.seekers:
            if abs(p.rank - q.rank) > allowed or frozenset((p.account_id, q.account_id)) in blocked:
                return False
    return True


@dataclass(frozen=True)
class Group:
    """Entries to seat at one new table: four people (``bot`` None), or fewer with ``bot``s."""

    entries: tuple[QueueEntry, ...]
    bot: str | None = None

    @property
    def people(self) -> int:
        """How many people sit down."""
        return sum(entry.people for entry in self.entries)


def _distance(anchor: QueueEntry, other: QueueEntry) -> int:
    return max(abs(p.rank - q.rank) for p in anchor.seekers for q in other.seekers)


def _nearest(
    anchor: QueueEntry, pool: Sequence[QueueEntry], need: int, now_ms: int, blocked: Collection[Pair]
) -> list[QueueEntry]:
    """The entries of ``pool`` that may join ``anchor`` (no more than ``need`` people each), nearest in
    rank first, then oldest."""
    fits = [
        entry
        for entry in pool
        if entry.id != anchor.id and entry.people <= need and compatible(anchor, entry, now_ms, blocked)
    ]
    fits.sort(key=lambda entry: (_distance(anchor, entry), entry.since_ms, entry.id))
    return fits[:MAX_CANDIDATES]


def _complete(
    chosen: tuple[QueueEntry, ...], candidates: Sequence[QueueEntry], need: int, now_ms: int, blocked: Collection[Pair]
) -> tuple[QueueEntry, ...] | None:
    """Entries of ``candidates`` (tried in order) that bring ``need`` more people, each compatible
    with every entry chosen; None if there are none."""
    if need == 0:
        return chosen
    for index, entry in enumerate(candidates):
        if entry.people <= need and all(compatible(entry, other, now_ms, blocked) for other in chosen):
            found = _complete((*chosen, entry), candidates[index + 1 :], need - entry.people, now_ms, blocked)
            if found is not None:
                return found
    return None


def _order(entries: Collection[QueueEntry]) -> list[QueueEntry]:
    return sorted(entries, key=lambda entry: (entry.since_ms, entry.id))


def plan(entries: Collection[QueueEntry], now_ms: int, blocked: Collection[Pair] = ()) -> list[Group]:
    """The groups to seat now from one queue's ``entries``: tables of four people first (the oldest
    entry first), then, for entries that waited their ``bots_after_ms``, tables with bots. No entry is
    in two groups."""
    pool = [entry for entry in _order(entries) if eligible(entry, now_ms)]
    used: set[str] = set()
    groups: list[Group] = []
    for anchor in pool:
        if anchor.id in used:
            continue
        free = [entry for entry in pool if entry.id not in used]
        need = SEATS - anchor.people
        found = _complete((anchor,), _nearest(anchor, free, need, now_ms, blocked), need, now_ms, blocked)
        if found is not None:
            groups.append(Group(found))
            used.update(entry.id for entry in found)
    for anchor in pool:
        wait = anchor.bots_after_ms
        if anchor.id in used or wait is None or now_ms - anchor.since_ms < wait:
            continue
        free = [entry for entry in pool if entry.id not in used and entry.bots_after_ms is not None]
        chosen: tuple[QueueEntry, ...] = (anchor,)
        for entry in _nearest(anchor, free, SEATS - anchor.people, now_ms, blocked):
            people = sum(item.people for item in chosen)
            if people + entry.people <= SEATS and all(compatible(entry, other, now_ms, blocked) for other in chosen):
                chosen = (*chosen, entry)
        group = Group(chosen, None if sum(item.people for item in chosen) == SEATS else anchor.bot)
        groups.append(group)
        used.update(entry.id for entry in chosen)
    return groups


def seating(entries: Sequence[QueueEntry]) -> tuple[Seeker | None, ...]:
    """Who sits where (seat 0–3; None: a bot): partners at seats 0 and 2 (a second pair at 1 and 3),
    then everyone else in order in the seats left."""
    seats: list[Seeker | None] = [None] * SEATS
    pairs = [entry for entry in entries if entry.people == 2]
    singles = [entry for entry in entries if entry.people == 1]
    for first, entry in zip((0, 1), pairs, strict=False):
        seats[first], seats[first + 2] = entry.seekers
    empty = [index for index, seat in enumerate(seats) if seat is None]
    for index, entry in zip(empty, singles, strict=False):
        seats[index] = entry.seekers[0]
    return tuple(seats)


def after_answers(
    entries: Sequence[QueueEntry], answered: Mapping[int, str]
) -> tuple[list[QueueEntry], list[QueueEntry]]:
    """A match whose time to answer ran out: (the entries that go back to the queue, the ones that
    leave it). An entry goes back when all its people answered (``answered``: account → the client it
    answered from, which becomes its connection), keeping its place; the others leave."""
    back: list[QueueEntry] = []
    gone: list[QueueEntry] = []
    for entry in entries:
        if all(account in answered for account in entry.accounts):
            seekers = tuple(
                replace(seeker, client=answered[seeker.account_id], away_ms=None) for seeker in entry.seekers
            )
            back.append(replace(entry, seekers=seekers))
        else:
            gone.append(entry)
    return back, gone


def stale(entries: Collection[QueueEntry], now_ms: int) -> list[QueueEntry]:
    """Entries that leave the queue now: a player away longer than :data:`AWAY_GRACE_MS`, or a
    partner awaited longer than :data:`PAIR_WAIT_MS`."""
    return [
        entry
        for entry in _order(entries)
        if (entry.away_since_ms is not None and now_ms - entry.away_since_ms >= AWAY_GRACE_MS)
        or (entry.pair_code is not None and now_ms - entry.since_ms >= PAIR_WAIT_MS)
    ]


def estimate_ms(recent_waits: Sequence[int], waited_ms: int, bots_after_ms: int | None) -> int | None:
    """How much longer a player who has waited ``waited_ms`` may still wait: the median of the queue's
    ``recent_waits`` less what they waited, or their wait for bots if that is sooner; None when
    nothing is known (no recent waits, no bots)."""
    guesses = []
    if recent_waits:
        guesses.append(max(0, round(statistics.median(recent_waits)) - waited_ms))
    if bots_after_ms is not None:
        guesses.append(max(0, bots_after_ms - waited_ms))
    return min(guesses) if guesses else None


def early_leave(seated_ms: int, now_ms: int) -> bool:
    """Whether leaving a matched table at ``now_ms`` after being seated at ``seated_ms`` is early."""
    return now_ms - seated_ms < EARLY_LEAVE_MS
