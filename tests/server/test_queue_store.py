"""The quick-match queue's store, one contract for both (tuolaji.server.queue_store): in memory, and in
a real Redis (``TUOLAJI_TEST_REDIS``, emptied first) shared by two nodes' stores that race for the
same entries. One entry per account; a match's entries are taken all or none, and never by two nodes;
answers complete a match once; a match whose time ran out puts back the entries that answered."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import replace

import pytest
from redis.asyncio import Redis

from tuolaji.matching.decide import ANSWER_MS, EARLY_LEAVE_MS
from tuolaji.matching.entries import PendingMatch, QueueEntry, QueueKey, Seeker
from tuolaji.room.commands import Player
from tuolaji.server.queue_store import AlreadyQueued, MemoryQueue, QueueStore
from tuolaji.server.redis_link import RedisLink
from tuolaji.server.redis_queue import RedisQueue

REDIS = os.environ.get("TUOLAJI_TEST_REDIS")
NOW = 1_800_000_000_000
KEY = QueueKey("guigang", "reject")

Stores = Callable[[], QueueStore]


def seeker(account: int, node: str = "a") -> Seeker:
    return Seeker(Player(account, f"p{account}"), f"{node}.{account}", 0)


def single(account: int, since: int = NOW, **fields: object) -> QueueEntry:
    return QueueEntry(f"e{account}", KEY, (seeker(account),), since, **fields)  # type: ignore[arg-type]


@pytest.fixture(params=["memory", "redis"])
async def stores(request: pytest.FixtureRequest) -> AsyncIterator[Stores]:
    """Stores of one queue, as many as asked (the nodes of a card room): the same one in memory, or
    each on its own connection to one Redis."""
    if request.param == "memory":
        memory = MemoryQueue()
        yield lambda: memory
        return
    if not REDIS:
        pytest.skip("set TUOLAJI_TEST_REDIS to a scratch redis:// URL")
    admin = Redis.from_url(REDIS)
    await admin.flushdb()
    await admin.aclose()
    links: list[RedisLink] = []

    def make() -> QueueStore:
        link = RedisLink(REDIS)
        link.up = True
        links.append(link)
        return RedisQueue(link)

    yield make
    for link in links:
        await link.close()
        await link.redis.connection_pool.disconnect()


async def match_of(store: QueueStore, entries: list[QueueEntry], match_id: str = "m1") -> PendingMatch:
    match = PendingMatch(match_id, KEY, tuple(entries), NOW + ANSWER_MS)
    assert await store.take(match)
    return match


async def test_one_entry_per_account_and_where_it_is(stores: Stores) -> None:
    store = stores()
    entry = single(1)
    await store.put(entry)
    with pytest.raises(AlreadyQueued) as refused:
        await store.put(replace(single(1), id="other"))
    assert refused.value.held.entry == entry
    pair = QueueEntry("p", KEY, (seeker(2), seeker(1)), NOW)
    with pytest.raises(AlreadyQueued):
        await store.put(pair)  # its second person is queued
    assert await store.held(2) is None and (await store.held(1)) is not None
    assert await store.entries() == [entry]


async def test_partners_join_by_code_and_the_code_works_once(stores: Stores) -> None:
    store = stores()
    await store.put(single(1, pair_code="c0de"))
    assert await store.join_pair("nope", seeker(2)) is None
    joined = await store.join_pair("c0de", seeker(2))
    assert joined is not None and joined.accounts == (1, 2) and joined.pair_code is None
    assert await store.join_pair("c0de", seeker(3)) is None
    held = await store.held(2)
    assert held is not None and held.entry == joined
    with pytest.raises(AlreadyQueued):
        await store.join_pair("c0de", seeker(1))


async def test_a_match_takes_all_its_entries_or_none(stores: Stores) -> None:
    store = stores()
    for account in (1, 2, 3, 4):
        await store.put(single(account))
    stale = replace(single(4), bot="search")  # not the entry the queue holds
    assert not await store.take(PendingMatch("m0", KEY, (single(1), single(2), single(3), stale), NOW + ANSWER_MS))
    assert len(await store.entries()) == 4
    match = await match_of(store, [single(1), single(2), single(3), single(4)])
    assert await store.entries() == []
    held = await store.held(3)
    assert held is not None and held.match == match and held.entry == single(3)
    with pytest.raises(AlreadyQueued):
        await store.put(single(3))


async def test_nodes_racing_for_the_same_entries_never_match_one_twice(stores: Stores) -> None:
    nodes = [stores(), stores(), stores()]
    for account in range(12):
        await nodes[0].put(single(account))
    snapshot = sorted(await nodes[1].entries(), key=lambda entry: entry.id)
    # Each node makes its own groups of four from the same snapshot, overlapping the others'.
    attempts = [
        PendingMatch(f"m{node}.{start}", KEY, tuple(snapshot[start : start + 4]), NOW + ANSWER_MS)
        for node in range(3)
        for start in range(node, 9, 3)
    ]
    won = await asyncio.gather(*(nodes[index % 3].take(match) for index, match in enumerate(attempts)))
    taken = [account for match, ok in zip(attempts, won, strict=True) if ok for account in match.accounts]
    assert len(taken) == len(set(taken)) and taken
    left = {account for entry in await nodes[2].entries() for account in entry.accounts}
    assert left | set(taken) == set(range(12)) and not left & set(taken)


async def test_the_last_answer_completes_the_match_once(stores: Stores) -> None:
    a, b = stores(), stores()
    for account in (1, 2, 3, 4):
        await a.put(single(account))
    match = await match_of(a, [single(1), single(2), single(3), single(4)])
    for account in (1, 2, 3):
        assert (await b.answer("m1", account, f"b.{account}", NOW)).status == "waiting"
    assert (await a.answer("m1", 9, "a.9", NOW)).status == "gone"  # not one of its people
    done = await a.answer("m1", 4, "a.4", NOW)
    assert done.status == "complete" and done.match == match
    assert done.clients == {1: "b.1", 2: "b.2", 3: "b.3", 4: "a.4"}
    assert (await b.answer("m1", 4, "a.4", NOW)).status == "gone"
    assert await a.held(1) is None and await a.expire(NOW + 10 * ANSWER_MS) == []
    await a.put(single(1))  # free to queue again


async def test_time_running_out_puts_back_those_who_answered_with_their_place(stores: Stores) -> None:
    store = stores()
    entries = [single(1, NOW - 5000), QueueEntry("p", KEY, (seeker(2), seeker(3)), NOW - 3000), single(4)]
    for entry in entries:
        await store.put(entry)
    await match_of(store, entries)
    for account in (1, 2):
        await store.answer("m1", account, f"b.{account}", NOW)
    assert await store.expire(NOW + ANSWER_MS) == []  # not yet
    assert (await store.answer("m1", 3, "b.3", NOW + ANSWER_MS + 1)).status == "gone"  # too late
    [expired] = await store.expire(NOW + ANSWER_MS + 1)
    assert [entry.id for entry in expired.back] == ["e1"] and {e.id for e in expired.gone} == {"p", "e4"}
    [back] = await store.entries()
    assert back.since_ms == NOW - 5000 and back.seekers[0].client == "b.1"
    assert await store.held(2) is None and await store.held(4) is None
    assert await store.expire(NOW + 2 * ANSWER_MS) == []


async def test_leaving_a_match_ends_it_at_once_and_the_others_go_back(stores: Stores) -> None:
    store = stores()
    for account in (1, 2, 3, 4):
        await store.put(single(account))
    await match_of(store, [single(1), single(2), single(3), single(4)])
    for account in (1, 2, 3):
        await store.answer("m1", account, f"a.{account}", NOW)
    removed = await store.remove(3)
    assert removed is not None and removed.match is not None
    assert (await store.answer("m1", 4, "a.4", NOW)).status == "gone"
    [expired] = await store.expire(NOW + 1)
    assert sorted(entry.id for entry in expired.back) == ["e1", "e2"]
    assert await store.held(3) is None and await store.remove(3) is None


async def test_a_closed_connection_marks_the_entry_away_until_the_account_comes_back(stores: Stores) -> None:
    store = stores()
    await store.put(single(1))
    await store.away(1, "a.old", NOW)  # not the entry's connection: nothing happens
    [entry] = await store.entries()
    assert entry.away_since_ms is None
    await store.away(1, "a.1", NOW)
    [entry] = await store.entries()
    assert entry.away_since_ms == NOW
    held = await store.rebind(1, "b.7")
    assert held is not None and held.entry.seekers[0].client == "b.7" and held.entry.away_since_ms is None
    assert await store.drop([entry]) == []  # it changed since
    assert await store.drop([held.entry]) == [held.entry] and await store.held(1) is None


async def test_entries_of_a_seating_that_failed_go_back_unless_queued_again(stores: Stores) -> None:
    store = stores()
    for account in (1, 2, 3, 4):
        await store.put(single(account))
    match = await match_of(store, [single(1), single(2), single(3), single(4)])
    for account in match.accounts:
        await store.answer("m1", account, f"a.{account}", NOW)
    await store.put(single(2, NOW + 1))
    await store.requeue(match.entries)
    assert sorted((entry.id, entry.since_ms) for entry in await store.entries()) == [
        ("e1", NOW),
        ("e2", NOW + 1),
        ("e3", NOW),
        ("e4", NOW),
    ]


async def test_recent_waits_and_early_leaves(stores: Stores) -> None:
    store = stores()
    await store.record_waits(KEY, [100, 200])
    await store.record_waits(KEY, list(range(60)))
    assert len(await store.recent_waits(KEY)) == 50 and await store.recent_waits(QueueKey("nanning", "laogai")) == []
    await store.seated([1, 2], "t1", NOW)
    await store.left(1, "t1", NOW + 1000)  # the first early leave is free
    assert await store.leave_wait(1, NOW + 1000) == 0
    await store.left(2, "t1", NOW + EARLY_LEAVE_MS)  # not early
    await store.seated([1], "t2", NOW + 2000)
    await store.left(1, "t3", NOW + 2500)  # another table
    await store.left(1, "t2", NOW + 3000)
    assert await store.leave_wait(1, NOW + 3000) == 30_000 and await store.leave_wait(2, NOW + 3000) == 0
