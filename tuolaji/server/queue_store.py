"""Where the quick-match queue is kept: one interface (:class:`QueueStore`), kept in this process
(:class:`MemoryQueue`, one node) or in Redis (``tuolaji.server.redis_queue``, many nodes).

The store keeps the entries (one per account: a second ``put`` of an account is refused with
:class:`AlreadyQueued`), the matches waiting for answers, the recent waits of each queue and, per
account, when it was last seated by a match and its early leaves. Every change that several nodes
may attempt at once is one atomic step of the store: taking a match's entries out of the queue
(:meth:`QueueStore.take`: all of them or none, so no player is matched twice), an answer that
completes a match (:meth:`QueueStore.answer`: one node seats it), a match whose time ran out
(:meth:`QueueStore.expire`: one node puts its entries back). What to decide is
``tuolaji.matching.decide``'s; the store only keeps and hands over.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from tuolaji.matching.decide import after_answers, early_leave
from tuolaji.matching.entries import PendingMatch, QueueEntry, QueueKey, Seeker
from tuolaji.server.limits import MatchLeaves

RECENT_WAITS = 50
"""Waits (queueing to seated) a queue remembers for its estimate."""


@dataclass(frozen=True)
class Held:
    """Where an account is in the queue: its ``entry``, and the ``match`` it is in while that waits
    for answers (None: still queued)."""

    entry: QueueEntry
    match: PendingMatch | None = None


class AlreadyQueued(Exception):
    """The account is in the queue already (``held``): one entry per account."""

    def __init__(self, held: Held) -> None:
        super().__init__(f"account already queued in {held.entry.key}")
        self.held = held


@dataclass(frozen=True)
class Answer:
    """What an answer to a match did: ``status`` ``gone`` (no such match now: it was seated, or its
    time ran out), ``waiting`` (others have not answered yet) or ``complete`` (everyone answered:
    ``match`` is the caller's to seat, its people connected as ``clients``)."""

    status: str
    match: PendingMatch | None = None
    clients: dict[int, str] | None = None


@dataclass(frozen=True)
class Expired:
    """A match whose time to answer ran out: the entries put back in the queue (``back``) and the
    ones that left it (``gone``)."""

    match: PendingMatch
    back: list[QueueEntry]
    gone: list[QueueEntry]


class QueueStore(ABC):
    """The quick-match queue's storage; see the module docstring. The Redis one raises ``BusDown``
    while Redis does not answer."""

    @abstractmethod
    async def put(self, entry: QueueEntry) -> None:
        """Add ``entry`` (raises :class:`AlreadyQueued` if one of its accounts is queued)."""

    @abstractmethod
    async def join_pair(self, code: str, seeker: Seeker) -> QueueEntry | None:
        """``seeker`` joins the entry waiting for a partner with ``code``: the completed entry, or None
        if no entry waits with that code (raises :class:`AlreadyQueued` if ``seeker`` is queued)."""

    @abstractmethod
    async def held(self, account_id: int) -> Held | None:
        """Where ``account_id`` is in the queue, if it is."""

    @abstractmethod
    async def remove(self, account_id: int) -> Held | None:
        """``account_id`` leaves the queue with its whole entry (a match it is in is declined: it
        ends at the next :meth:`expire`); where it was, or None."""

    @abstractmethod
    async def rebind(self, account_id: int, client: str) -> Held | None:
        """``account_id`` is connected again, as ``client``: its entry keeps its place."""

    @abstractmethod
    async def away(self, account_id: int, client: str, now_ms: int) -> None:
        """``client`` of ``account_id`` closed: its queued entry is marked away (unless a newer
        connection took the entry over)."""

    @abstractmethod
    async def entries(self) -> list[QueueEntry]:
        """Every queued entry (not those in a match), in no order."""

    @abstractmethod
    async def drop(self, entries: Sequence[QueueEntry]) -> list[QueueEntry]:
        """Remove these entries from the queue where they are unchanged; the ones removed."""

    @abstractmethod
    async def take(self, match: PendingMatch) -> bool:
        """Move ``match``'s entries from the queue into ``match``, all of them or (one changed or
        gone) none: whether they were taken."""

    @abstractmethod
    async def answer(self, match_id: str, account_id: int, client: str, now_ms: int) -> Answer:
        """``account_id`` (connected as ``client``) answers ``match_id``."""

    @abstractmethod
    async def expire(self, now_ms: int) -> list[Expired]:
        """End the matches whose time to answer ran out (or that one of their people declined)."""

    @abstractmethod
    async def requeue(self, entries: Sequence[QueueEntry]) -> None:
        """Put entries taken for a match back (the match could not be seated), keeping their place."""

    @abstractmethod
    async def record_waits(self, key: QueueKey, waits_ms: Sequence[int]) -> None:
        """People of ``key``'s queue were seated after waiting ``waits_ms``."""

    @abstractmethod
    async def recent_waits(self, key: QueueKey) -> list[int]:
        """The last waits of ``key``'s queue (at most :data:`RECENT_WAITS`)."""

    @abstractmethod
    async def seated(self, account_ids: Sequence[int], table_id: str, now_ms: int) -> None:
        """A match seated these accounts at ``table_id`` at ``now_ms``."""

    @abstractmethod
    async def left(self, account_id: int, table_id: str, now_ms: int) -> None:
        """``account_id`` left ``table_id``: if a match had seated it there a short while ago
        (``decide.early_leave``), that counts as an early leave (:class:`MatchLeaves`)."""

    @abstractmethod
    async def leave_wait(self, account_id: int, now_ms: int) -> int:
        """Milliseconds ``account_id``'s next match waits after its early leaves."""

    @abstractmethod
    async def sweep(self, now_ms: int) -> None:
        """Mark away the people connected to nodes that stopped answering (they may come back through
        another node and :meth:`rebind`)."""


class MemoryQueue(QueueStore):
    """The queue of one node, in memory: every step runs without awaiting, so each is atomic."""

    def __init__(self, leaves: MatchLeaves | None = None) -> None:
        self._entries: dict[str, QueueEntry] = {}
        self._where: dict[int, str] = {}
        """Account → its entry's id, or ``m:`` and its match's id."""
        self._pairs: dict[str, str] = {}
        self._matches: dict[str, PendingMatch] = {}
        self._answers: dict[str, dict[int, str]] = {}
        self._declined: set[str] = set()
        self._waits: dict[QueueKey, deque[int]] = {}
        self._seated: dict[int, tuple[str, int]] = {}
        self._leaves = leaves or MatchLeaves()

    def _held(self, account_id: int) -> Held | None:
        where = self._where.get(account_id)
        if where is None:
            return None
        if where.startswith("m:"):
            match = self._matches[where[2:]]
            entry = next(entry for entry in match.entries if account_id in entry.accounts)
            return Held(entry, match)
        return Held(self._entries[where])

    def _add(self, entry: QueueEntry) -> None:
        self._entries[entry.id] = entry
        for account in entry.accounts:
            self._where[account] = entry.id
        if entry.pair_code is not None:
            self._pairs[entry.pair_code] = entry.id

    def _remove(self, entry: QueueEntry) -> None:
        del self._entries[entry.id]
        for account in entry.accounts:
            if self._where.get(account) == entry.id:
                del self._where[account]
        if entry.pair_code is not None:
            self._pairs.pop(entry.pair_code, None)

    async def put(self, entry: QueueEntry) -> None:
        for account in entry.accounts:
            held = self._held(account)
            if held is not None:
                raise AlreadyQueued(held)
        self._add(entry)

    async def join_pair(self, code: str, seeker: Seeker) -> QueueEntry | None:
        held = self._held(seeker.account_id)
        if held is not None:
            raise AlreadyQueued(held)
        entry_id = self._pairs.get(code)
        if entry_id is None:
            return None
        first = self._entries[entry_id]
        self._remove(first)
        joined = QueueEntry(
            first.id, first.key, (*first.seekers, seeker), first.since_ms, first.bots_after_ms, first.bot,
            first.not_before_ms,
        )  # fmt: skip
        self._add(joined)
        return joined

    async def held(self, account_id: int) -> Held | None:
        return self._held(account_id)

    async def remove(self, account_id: int) -> Held | None:
        held = self._held(account_id)
        if held is None:
            return None
        if held.match is None:
            self._remove(held.entry)
            return held
        for account in held.entry.accounts:
            del self._where[account]
            self._answers[held.match.id].pop(account, None)
        self._declined.add(held.match.id)
        return held

    async def rebind(self, account_id: int, client: str) -> Held | None:
        held = self._held(account_id)
        if held is not None and held.match is None:
            entry = held.entry.with_seeker(account_id, client)
            self._entries[entry.id] = entry
            return Held(entry)
        return held

    async def away(self, account_id: int, client: str, now_ms: int) -> None:
        held = self._held(account_id)
        seeker = held.entry.seeker(account_id) if held is not None and held.match is None else None
        if held is not None and seeker is not None and seeker.client == client:
            self._entries[held.entry.id] = held.entry.with_seeker(account_id, None, now_ms)

    async def entries(self) -> list[QueueEntry]:
        return list(self._entries.values())

    async def drop(self, entries: Sequence[QueueEntry]) -> list[QueueEntry]:
        dropped = [entry for entry in entries if self._entries.get(entry.id) == entry]
        for entry in dropped:
            self._remove(entry)
        return dropped

    async def take(self, match: PendingMatch) -> bool:
        if any(self._entries.get(entry.id) != entry for entry in match.entries):
            return False
        for entry in match.entries:
            self._remove(entry)
            for account in entry.accounts:
                self._where[account] = "m:" + match.id
        self._matches[match.id] = match
        self._answers[match.id] = {}
        return True

    async def answer(self, match_id: str, account_id: int, client: str, now_ms: int) -> Answer:
        match = self._matches.get(match_id)
        late = match is None or match_id in self._declined or now_ms > match.deadline_ms
        if late or self._where.get(account_id) != "m:" + match_id:
            return Answer("gone")
        assert match is not None
        answers = self._answers[match_id]
        answers[account_id] = client
        if len(answers) < len(match.accounts):
            return Answer("waiting")
        self._end(match)
        return Answer("complete", match, dict(answers))

    def _end(self, match: PendingMatch) -> dict[int, str]:
        del self._matches[match.id]
        self._declined.discard(match.id)
        for account in match.accounts:
            if self._where.get(account) == "m:" + match.id:
                del self._where[account]
        return self._answers.pop(match.id)

    async def expire(self, now_ms: int) -> list[Expired]:
        due = [m for m in self._matches.values() if m.id in self._declined or now_ms > m.deadline_ms]
        ended = []
        for match in due:
            back, gone = after_answers(match.entries, self._end(match))
            for entry in back:
                self._add(entry)
            ended.append(Expired(match, back, gone))
        return ended

    async def requeue(self, entries: Sequence[QueueEntry]) -> None:
        for entry in entries:
            if all(account not in self._where for account in entry.accounts):
                self._add(entry)

    async def record_waits(self, key: QueueKey, waits_ms: Sequence[int]) -> None:
        self._waits.setdefault(key, deque(maxlen=RECENT_WAITS)).extend(waits_ms)

    async def recent_waits(self, key: QueueKey) -> list[int]:
        return list(self._waits.get(key, ()))

    async def seated(self, account_ids: Sequence[int], table_id: str, now_ms: int) -> None:
        self._seated = {
            account: (table, at) for account, (table, at) in self._seated.items() if early_leave(at, now_ms)
        }  # only the recent ones matter
        for account in account_ids:
            self._seated[account] = (table_id, now_ms)

    async def left(self, account_id: int, table_id: str, now_ms: int) -> None:
        seated = self._seated.get(account_id)
        if seated is not None and seated[0] == table_id:
            del self._seated[account_id]
            if early_leave(seated[1], now_ms):
                self._leaves.strike(account_id, now_ms / 1000)

    async def leave_wait(self, account_id: int, now_ms: int) -> int:
        return round(self._leaves.wait(account_id, now_ms / 1000) * 1000)

    async def sweep(self, now_ms: int) -> None:
        return None  # one node: its own clients' closings are marked as they happen (away)
