"""The quick match's loop on one node (:class:`Matcher`): every :data:`TICK_SECONDS` (and as soon as
someone queues here) it reads the queue, lets ``tuolaji.matching.decide`` choose, and carries the choice out.

Every node runs the same loop on the same queue: two nodes may choose the same group, and the
store's atomic take (``QueueStore.take``) lets only one of them have it. The node that takes a match
asks its people (``match_found``, wherever they are connected); the node whose ``accept_match``
completes it seats them (:meth:`Matcher.seat`): a new table here, everyone in their seat, the match
started. Matches whose time ran out end on whichever node sees it first: the entries that answered
go back to the front of the queue. Each node also tells its own queued clients how their wait goes
(``match_status``, when it changed) and its lobby how many people queue (``lobby_queues``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tuolaji.game.options import TableOptions
from tuolaji.matching import decide
from tuolaji.matching.entries import PendingMatch, QueueEntry, QueueKey
from tuolaji.room.commands import SeatMatch
from tuolaji.rules.presets import PRESETS
from tuolaji.server.bus import BusDown, node_of
from tuolaji.server.feed import LobbyFeed
from tuolaji.server.hosting import Hosting
from tuolaji.server.queue_store import QueueStore
from tuolaji.server.quick_blocks import blocked_pairs
from tuolaji.wire.inbound import DEFAULT_BOT
from tuolaji.wire.nodes import Delivery
from tuolaji.wire.outbound import dumps
from tuolaji.wire.quick import match_cancelled, match_found, match_status, queue_counts, queue_status

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25
"""How often a node reads the queue and matches."""
SWEEP_SECONDS = 1.0
"""How often a node looks for queued people of nodes that stopped answering."""
ALL_QUEUES = tuple(QueueKey(preset, kind) for preset in PRESETS for kind in ("laogai", "reject"))


def now_ms() -> int:
    """Wall-clock milliseconds (the queue's times are shared by every node)."""
    return time.time_ns() // 1_000_000


class Matcher:
    """This node's part of matching: see the module docstring."""

    def __init__(self, hosting: Hosting, feed: LobbyFeed) -> None:
        self.hosting = hosting
        self.bus = hosting.bus
        self.store: QueueStore = hosting.services.queue
        self.feed = feed
        self._shown: dict[str, tuple[Any, ...]] = {}
        """Client → what its last ``match_status`` said (size, expected wait), to send only changes."""
        self._swept = 0
        self._kicked = asyncio.Event()

    def kick(self) -> None:
        """Match now rather than at the next tick (someone just queued here)."""
        self._kicked.set()

    def tell(self, client: str, payload: dict[str, Any]) -> None:
        """Send a message to a client, here or on its node."""
        self.bus.deliver(Delivery(client, dumps(payload)))

    def tell_entry(self, entry: QueueEntry, payload: dict[str, Any]) -> None:
        """Send a message to every person of ``entry``."""
        for seeker in entry.seekers:
            self.tell(seeker.client, payload)

    async def run(self) -> None:
        """Match every :data:`TICK_SECONDS`, or at once when kicked (a task for the node's life)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kicked.wait(), TICK_SECONDS)
            self._kicked.clear()
            try:
                await self.tick(now_ms())
            except BusDown:
                pass  # Redis is down: nobody can be matched now; the queue waits in Redis
            except Exception:
                log.exception("quick match: a round of matching failed")

    async def tick(self, now: int) -> None:
        """One round: sweep, drop the stale, match, end the matches whose time ran out, tell."""
        if now - self._swept >= SWEEP_SECONDS * 1000:
            self._swept = now
            await self.store.sweep(now)
        entries = await self.store.entries()
        dropped = await self.store.drop(decide.stale(entries, now))
        for entry in dropped:
            self.tell_entry(entry, match_cancelled("away" if entry.pair_code is None else "no_partner"))
        entries = [entry for entry in entries if entry not in dropped]
        queues: dict[QueueKey, list[QueueEntry]] = defaultdict(list)
        for entry in entries:
            queues[entry.key].append(entry)
        blocked = await blocked_pairs(entries, self.hosting.services.db)
        taken: set[str] = set()
        for key, waiting in queues.items():
            for group in decide.plan(waiting, now, blocked):
                match = PendingMatch(secrets.token_hex(6), key, group.entries, now + decide.ANSWER_MS, group.bot)
                if await self.store.take(match):
                    taken.update(entry.id for entry in match.entries)
                    for entry in match.entries:
                        self.tell_entry(entry, match_found(match, decide.ANSWER_MS))
        back: list[QueueEntry] = []
        for expired in await self.store.expire(now):
            back += expired.back
            for entry in expired.gone:
                self.tell_entry(entry, match_cancelled("no_answer"))
        left = [entry for entry in entries if entry.id not in taken] + back
        await self.show(left, now, {entry.id for entry in back})

    async def show(self, entries: list[QueueEntry], now: int, requeued: Iterable[str] = ()) -> None:
        """Tell this node's queued clients how their wait goes (when it changed) and the lobby how many
        people queue."""
        counts = dict.fromkeys(ALL_QUEUES, 0)
        for entry in entries:
            counts[entry.key] = counts.get(entry.key, 0) + entry.people
        self.feed.set_queues(queue_counts(counts))
        back = set(requeued)
        mine = [
            (entry, seeker)
            for entry in entries
            for seeker in entry.seekers
            if (node_of(seeker.client) == self.bus.node_id and seeker.away_ms is None) or entry.id in back
        ]
        waits = {key: await self.store.recent_waits(key) for key in {entry.key for entry, _ in mine}}
        for entry, seeker in mine:
            waited = now - entry.since_ms
            wait = decide.estimate_ms(waits[entry.key], waited, entry.bots_after_ms)
            # What changes the status: the size, the whole expected wait (not the part left, which the
            # client counts down itself), a hold, the partner.
            expected = None if wait is None else (waited + wait) // 1000
            shown = (counts[entry.key], expected, entry.not_before_ms, entry.seekers)
            if self._shown.get(seeker.client) != shown or entry.id in back:
                self._shown[seeker.client] = shown
                status = queue_status(entry, seeker.account_id, now, counts[entry.key], wait, entry.id in back)
                self.tell(seeker.client, match_status(status))
        here = {seeker.client for _, seeker in mine}
        self._shown = {client: shown for client, shown in self._shown.items() if client in here}

    async def seat(self, match: PendingMatch, clients: dict[int, str]) -> None:
        """Everyone answered ``match`` (from ``clients``): a new table here, each person in their seat
        (partners opposite), bots in the seats left, and the match starts. If a seat cannot be claimed
        (its account sat down elsewhere meanwhile), that entry leaves and the others go back to the queue."""
        now = now_ms()
        entries, _ = decide.after_answers(match.entries, clients)
        table_id = "t" + secrets.token_hex(5)
        claimed: list[int] = []
        try:
            for entry in entries:
                for account in entry.accounts:
                    if await self.bus.claim_seat(account, table_id) is not None:
                        return await self._seat_failed(entries, entry, claimed, table_id)
                    claimed.append(account)
            options = TableOptions(preset=match.key.preset, illegal_follow=match.key.kind)
            host = await self.hosting.new_host(table_id, options)
        except BusDown:
            return await self._seat_failed(entries, None, claimed, table_id)
        seats = decide.seating(entries)
        people = tuple((seeker.client, seeker.player) if seeker is not None else None for seeker in seats)
        host.post(SeatMatch(people, match.bot or DEFAULT_BOT))
        await self.store.record_waits(match.key, [now - e.since_ms for e in entries for _ in e.seekers])
        await self.store.seated(match.accounts, table_id, now)

    async def _seat_failed(
        self, entries: list[QueueEntry], culprit: QueueEntry | None, claimed: list[int], table_id: str
    ) -> None:
        for account in claimed:
            self.bus.seat_changed(account, table_id, None)
        back = [entry for entry in entries if entry is not culprit]
        if culprit is not None:
            self.tell_entry(culprit, match_cancelled("seated_elsewhere"))
        try:
            await self.store.requeue(back)
        except BusDown:
            for entry in back:
                self.tell_entry(entry, match_cancelled("unavailable"))
