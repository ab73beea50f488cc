"""The quick-match queue of many nodes, in Redis (:class:`RedisQueue`, on the bus's link): every
change several nodes may attempt at once is one Lua script (``tuolaji.server.redis_queue_scripts``);
a change to an entry is made on the text read before, and tried again if another node changed the
entry meanwhile. A call raises ``BusDown`` while Redis does not answer."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from redis.commands.core import AsyncScript

from tuolaji.matching.decide import EARLY_LEAVE_MS, after_answers, early_leave
from tuolaji.matching.entries import PendingMatch, QueueEntry, QueueKey, Seeker
from tuolaji.server import redis_queue_scripts as lua
from tuolaji.server.bus import node_of
from tuolaji.server.limits import MatchLeaves
from tuolaji.server.queue_store import RECENT_WAITS, AlreadyQueued, Answer, Expired, Held, QueueStore
from tuolaji.server.redis_link import RedisLink, key

CLOSING_MS = 5000
"""A node that ends a match has this long to finish; after it, another node may end it instead."""
RETRIES = 5
"""Attempts of a change to an entry that other nodes keep changing meanwhile."""
ENTRIES, WHERE, PAIRS, DUE, CLOSING, CLOSER = (
    key("qm", name) for name in ("entries", "where", "pairs", "due", "closing", "closer")
)


def _match_key(match_id: str) -> str:
    return key("qm", "match", match_id)


def _answers_key(match_id: str) -> str:
    return key("qm", "answers", match_id)


def _flat(entries: Sequence[QueueEntry]) -> list[str]:
    """``entry-id text k accounts×k`` for each entry (the scripts' form)."""
    args: list[str] = []
    for entry in entries:
        args += [entry.id, entry.encode(), str(entry.people), *map(str, entry.accounts)]
    return args


def _answers(flat: Sequence[Any]) -> dict[int, str]:
    return {int(flat[i]): str(flat[i + 1]) for i in range(0, len(flat), 2)}


class RedisQueue(QueueStore):
    """The queue on ``link`` (the Redis bus's), shared by every node."""

    def __init__(self, link: RedisLink, leaves: MatchLeaves | None = None) -> None:
        self.link = link
        self.leaves = leaves or MatchLeaves()
        register = link.redis.register_script
        self._put, self._swap, self._remove = register(lua.PUT), register(lua.SWAP), register(lua.REMOVE)
        self._take, self._answer, self._decline = register(lua.TAKE), register(lua.ANSWER), register(lua.DECLINE)
        self._claim, self._commit, self._requeue = register(lua.CLAIM), register(lua.COMMIT), register(lua.REQUEUE)

    async def _call(self, call: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        """``call(*args, **kwargs)`` on Redis (``BusDown`` while it does not answer)."""
        return await self.link.call(functools.partial(call, *args, **kwargs))

    async def _run(self, script: AsyncScript, keys: list[str], args: list[str]) -> Any:
        """One of the scripts, on ``keys`` with ``args``."""
        return await self._call(script, keys=keys, args=args)

    # ------------------------------------------------------------------ entries

    async def _place(self, account_id: int, where: str) -> Held | None:
        """The place ``where`` (an entry id, or ``m:`` and a match id) of ``account_id``."""
        redis = self.link.redis
        if where.startswith("m:"):
            text = await self._call(redis.get, _match_key(where[2:]))
            if text is None:
                return None
            match = PendingMatch.decode(text)
            entry = next((entry for entry in match.entries if account_id in entry.accounts), None)
            return Held(entry, match) if entry is not None else None
        text = await self._call(redis.hget, ENTRIES, where)
        return Held(QueueEntry.decode(text)) if text is not None else None

    async def held(self, account_id: int) -> Held | None:
        where = await self._call(self.link.redis.hget, WHERE, str(account_id))
        return await self._place(account_id, str(where)) if where is not None else None

    async def put(self, entry: QueueEntry) -> None:
        args = [entry.id, entry.encode(), entry.pair_code or "", *map(str, entry.accounts)]
        for _ in range(RETRIES):
            where = await self._run(self._put, [ENTRIES, WHERE, PAIRS], args)
            if not where:
                return
            held = await self._place(entry.accounts[0], str(where))
            if held is not None:
                raise AlreadyQueued(held)
        raise AlreadyQueued(Held(entry))

    async def _swap_entry(self, old: QueueEntry, new: QueueEntry, code: str = "", *claim: int) -> int | str:
        """Replace ``old`` by ``new`` if unchanged (1; 0: it changed), claiming ``claim``'s accounts
        for it (one's other place: that place's reference) and dropping the partner ``code``."""
        args = [old.id, old.encode(), new.encode(), code, *map(str, claim)]
        result = await self._run(self._swap, [ENTRIES, WHERE, PAIRS], args)
        return result if isinstance(result, str) else int(result)

    async def join_pair(self, code: str, seeker: Seeker) -> QueueEntry | None:
        redis = self.link.redis
        for _ in range(RETRIES):
            held = await self.held(seeker.account_id)
            if held is not None:
                raise AlreadyQueued(held)
            entry_id = await self._call(redis.hget, PAIRS, code)
            text = await self._call(redis.hget, ENTRIES, str(entry_id)) if entry_id is not None else None
            if text is None:
                return None
            first = QueueEntry.decode(text)
            joined = QueueEntry(
                first.id, first.key, (*first.seekers, seeker), first.since_ms, first.bots_after_ms, first.bot,
                first.not_before_ms,
            )  # fmt: skip
            if await self._swap_entry(first, joined, code, seeker.account_id) == 1:
                return joined
        return None

    async def remove(self, account_id: int) -> Held | None:
        for _ in range(RETRIES):
            held = await self.held(account_id)
            if held is None:
                return None
            entry, match = held.entry, held.match
            if match is None:
                args = [entry.id, entry.encode(), entry.pair_code or "", *map(str, entry.accounts)]
                if await self._run(self._remove, [ENTRIES, WHERE, PAIRS], args):
                    return held
                continue
            keys = [WHERE, _answers_key(match.id), DUE, CLOSING, CLOSER]
            args = ["m:" + match.id, match.id, *map(str, entry.accounts)]
            if await self._run(self._decline, keys, args):
                return held
        return None

    async def _change(self, account_id: int, change: Callable[[QueueEntry], QueueEntry | None]) -> Held | None:
        """Change ``account_id``'s queued entry by ``change`` (None: leave it); where it is now."""
        for _ in range(RETRIES):
            held = await self.held(account_id)
            if held is None or held.match is not None:
                return held
            new = change(held.entry)
            if new is None or await self._swap_entry(held.entry, new) == 1:
                return Held(new or held.entry)
        return await self.held(account_id)

    async def rebind(self, account_id: int, client: str) -> Held | None:
        return await self._change(account_id, lambda entry: entry.with_seeker(account_id, client))

    async def away(self, account_id: int, client: str, now_ms: int) -> None:
        def mark(entry: QueueEntry) -> QueueEntry | None:
            seeker = entry.seeker(account_id)
            if seeker is None or seeker.client != client:
                return None
            return entry.with_seeker(account_id, None, now_ms)

        await self._change(account_id, mark)

    async def entries(self) -> list[QueueEntry]:
        texts = await self._call(self.link.redis.hvals, ENTRIES)
        return [QueueEntry.decode(text) for text in texts]

    async def drop(self, entries: Sequence[QueueEntry]) -> list[QueueEntry]:
        dropped = []
        for entry in entries:
            args = [entry.id, entry.encode(), entry.pair_code or "", *map(str, entry.accounts)]
            if await self._run(self._remove, [ENTRIES, WHERE, PAIRS], args):
                dropped.append(entry)
        return dropped

    async def sweep(self, now_ms: int) -> None:
        entries = await self.entries()
        nodes = sorted({node_of(s.client) for entry in entries for s in entry.seekers if s.away_ms is None})
        if not nodes:
            return
        redis = self.link.redis
        alive = await self._call(redis.mget, [key("node", node) for node in nodes])
        dead = {node for node, beat in zip(nodes, alive, strict=True) if beat is None}
        for entry in entries:
            for seeker in entry.seekers:
                if seeker.away_ms is None and node_of(seeker.client) in dead:
                    await self.away(seeker.account_id, seeker.client, now_ms)

    # ------------------------------------------------------------------ matches

    async def take(self, match: PendingMatch) -> bool:
        keys = [ENTRIES, WHERE, DUE, _match_key(match.id)]
        pairs = [item for entry in match.entries for item in (entry.id, entry.encode())]
        args = [match.id, str(match.deadline_ms), match.encode(), str(len(match.entries)), *pairs]
        args += map(str, match.accounts)
        return bool(await self._run(self._take, keys, args))

    async def answer(self, match_id: str, account_id: int, client: str, now_ms: int) -> Answer:
        keys = [WHERE, _answers_key(match_id), DUE, _match_key(match_id)]
        people = await self._call(self.link.redis.get, _match_key(match_id))
        if people is None:
            return Answer("gone")
        match = PendingMatch.decode(people)
        args = [match_id, str(account_id), client, str(len(match.accounts)), str(now_ms)]
        result = await self._run(self._answer, keys, args)
        if not result:
            return Answer("gone")
        if not isinstance(result, list):
            return Answer("waiting")
        return Answer("complete", PendingMatch.decode(result[0]), _answers(result[1]))

    async def expire(self, now_ms: int) -> list[Expired]:
        redis = self.link.redis
        due = await self._call(redis.zrangebyscore, DUE, "-inf", f"({now_ms}", start=0, num=20)
        lapsed = await self._call(redis.zrangebyscore, CLOSING, "-inf", f"({now_ms}", start=0, num=20)
        ended = []
        for match_id in dict.fromkeys([*due, *lapsed]):
            expired = await self._end(str(match_id), now_ms)
            if expired is not None:
                ended.append(expired)
        return ended

    async def _end(self, match_id: str, now_ms: int) -> Expired | None:
        token = secrets.token_hex(8)
        keys = [DUE, CLOSING, CLOSER, _match_key(match_id), _answers_key(match_id)]
        args = [match_id, str(now_ms), str(now_ms + CLOSING_MS), token]
        claimed = await self._run(self._claim, keys, args)
        if not claimed:
            return None
        match = PendingMatch.decode(claimed[0])
        back, gone = after_answers(match.entries, _answers(claimed[1]))
        keys = [CLOSING, CLOSER, _match_key(match_id), _answers_key(match_id), ENTRIES, WHERE]
        args = [match_id, token, "m:" + match_id, str(len(back)), *_flat(back), *map(str, match.accounts)]
        kept = await self._run(self._commit, keys, args)
        if kept is None:
            return None  # someone declined meanwhile: the match is ended again at the next expiry
        ids = {str(entry_id) for entry_id in kept}
        return Expired(match, [e for e in back if e.id in ids], gone + [e for e in back if e.id not in ids])

    async def requeue(self, entries: Sequence[QueueEntry]) -> None:
        args = _flat(entries)
        if args:
            await self._run(self._requeue, [ENTRIES, WHERE], args)

    # ------------------------------------------------------------------ waits and leaves

    async def record_waits(self, key_: QueueKey, waits_ms: Sequence[int]) -> None:
        name = key("qm", "waits", key_.preset, key_.kind)
        pipe = self.link.redis.pipeline(transaction=False)
        pipe.lpush(name, *map(str, waits_ms))
        pipe.ltrim(name, 0, RECENT_WAITS - 1)
        await self._call(pipe.execute)

    async def recent_waits(self, key_: QueueKey) -> list[int]:
        name = key("qm", "waits", key_.preset, key_.kind)
        return [int(wait) for wait in await self._call(self.link.redis.lrange, name, 0, RECENT_WAITS - 1)]

    async def seated(self, account_ids: Sequence[int], table_id: str, now_ms: int) -> None:
        pipe = self.link.redis.pipeline(transaction=False)
        for account in account_ids:
            pipe.set(key("qm", "seated", str(account)), f"{table_id}|{now_ms}", px=EARLY_LEAVE_MS)
        await self._call(pipe.execute)

    async def left(self, account_id: int, table_id: str, now_ms: int) -> None:
        redis = self.link.redis
        seated_key = key("qm", "seated", str(account_id))
        seated = await self._call(redis.get, seated_key)
        table, _, at = str(seated or "").partition("|")
        if seated is None or table != table_id:
            return
        await self._call(redis.delete, seated_key)
        if not early_leave(int(at), now_ms):
            return
        leaves = key("qm", "leaves", str(account_id))
        count = int(await self._call(redis.hincrby, leaves, "count", 1))
        pipe = redis.pipeline(transaction=False)
        pipe.hset(leaves, "until", str(now_ms + round(self.leaves.delay(count) * 1000)))
        pipe.expire(leaves, round(self.leaves.forget_after))
        await self._call(pipe.execute)

    async def leave_wait(self, account_id: int, now_ms: int) -> int:
        until = await self._call(self.link.redis.hget, key("qm", "leaves", str(account_id)), "until")
        return max(0, int(until) - now_ms) if until else 0
