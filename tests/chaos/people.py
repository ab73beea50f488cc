"""The people of a chaos run: scripted WebSocket clients at tables of people and bots.

A :class:`Slot` is a table's company: the people's seats (seat 0's person makes the table) and the
bots'. Each :class:`Person` connects to any node that runs (a node that does not answer in time, or
stops answering pings, is left for another), says ``hello`` with its token and is taken back to its
seat by the server; it keeps its ``state`` stream by the protocol's rules (``watch``), asks ``sync``
on a gap, plays the hint on its turn, bids now and then, presses start, and rejoins its seat when it
lost it. Sometimes, as people do, it escapes from a hand (R43), leaves between hands (R47) or takes
its follows back until the table is dissolved (撤牌 over 400, R32); an escaper waits out a cool-down,
so it gives its seat to a new guest (:class:`Crowd` makes one).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import WebSocketException

from tests.chaos.nodes import Node, connect_to, next_message
from tests.chaos.observers import Observer
from tests.chaos.watch import Message, Sight, Stream, Watch

TABLE_OPTIONS = {"deal_interval_ms": 0, "bid_window_seconds": 0.5, "review_seconds": 0.3, "turn_seconds": 20}
PASSING = frozenset({"table_moving", "service_unavailable", "server_restarting", "rate_limited", "internal"})
"""Refusals that mean "not now": the person decides again."""
RETRY = 1.0
"""Seconds before a request refused for a passing reason (or a join, a start) is sent again."""
RESEND = 4.0
"""Seconds after which a request nobody answered is sent again (it may have been lost with a node)."""


@dataclass(frozen=True)
class Habits:
    """How people behave: chances per hand of an escape, a 撤牌 spree and a leave between hands, and
    how long they think before a move (seconds, uniform)."""

    escape: float = 0.01
    spree: float = 0.004
    leave: float = 0.02
    think: tuple[float, float] = (0.05, 0.3)


@dataclass
class Slot:
    """One table's company: people at ``people_seats`` (seat 0 makes the table), ``bots`` by seat;
    ``solo`` (one person): ``play_now`` with three bots of that kind."""

    index: int
    people_seats: tuple[int, ...]
    bots: dict[int, str]
    solo: str | None = None
    table: str | None = None
    tables: list[str] = field(default_factory=list)


class Person:
    """One scripted person; :meth:`run` until :attr:`done`."""

    def __init__(self, crowd: Crowd, slot: Slot, seat: int, token: str, account_id: int, seed: int) -> None:
        self.crowd, self.slot, self.seat = crowd, slot, seat
        self.token, self.account_id = token, account_id
        self.rng = random.Random(seed)
        self.name = f"p{account_id}"
        self.sight = Sight(crowd.watch, self.name)
        self.done = False
        self.ws: ClientConnection | None = None
        self.node: Node | None = None
        self.stream = Stream()
        self.at: str | None = None
        """The table this person sits at, as the server last said."""
        self.summary: Message | None = None
        self.state: Message | None = None
        self.seats: dict[str, int] = {}
        """The seat this person was given at each table it sat at (the server's ``table`` messages)."""
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[Any, ...]] = {}
        self._done_keys: set[tuple[Any, ...]] = set()
        self._due: dict[tuple[Any, ...], float] = {}
        self._plan: dict[str, Any] = {}
        self._sent: dict[tuple[Any, ...], float] = {}
        self._sync = False

    # ------------------------------------------------------------------ the connection

    async def run(self) -> None:
        """Stay connected to some node (until done), reconnecting after a short wait."""
        backoff = 0.3
        while not self.done:
            node = self.crowd.pick_node(self.rng)
            if node is not None:
                with contextlib.suppress(OSError, TimeoutError, WebSocketException):
                    await self._session(node)
                    backoff = 0.3
            if not self.done:
                await asyncio.sleep(backoff * self.rng.uniform(0.5, 1.5))
                backoff = min(backoff * 2, 3.0)

    async def _session(self, node: Node) -> None:
        async with connect_to(node) as ws:
            self.ws, self.node, self.stream = ws, node, Stream()
            self.crowd.watch.counts["connections"] += 1
            self.crowd.trail(self, "connected")
            try:
                await self._send("hello", token=self.token)
                while not self.done:
                    msg = await next_message(ws)
                    if msg is not None:
                        self._on(msg)
                    await self._decide()
            finally:
                self.crowd.trail(self, f"disconnected {ws.close_code}")
                self.ws = self.node = None

    def drop(self) -> None:
        """Cut this person's connection at once (a node's sockets dropped)."""
        ws = self.ws
        if ws is not None:
            ws.transport.abort()

    async def _send(self, kind: str, key: tuple[Any, ...] | None = None, **fields: Any) -> None:
        ws = self.ws
        if ws is None:
            return
        ref = next(self._ids)
        if key is not None:
            self._pending[ref] = key
            self._done_keys.add(key)
            self._sent[key] = time.monotonic()
        self.crowd.trail(self, f"> {ref} {kind} {fields if kind != 'hello' else ''}")
        await ws.send(json.dumps({"v": 2, "type": kind, "id": ref, **fields}))

    # ------------------------------------------------------------------ what comes

    def _on(self, msg: Message) -> None:
        kind = msg["type"]
        if kind in ("welcome", "table", "left", "error", "hand_end"):
            brief = {key: value for key, value in msg.items() if key not in ("v", "type", "account", "settlement")}
            if kind == "table":
                brief["table"] = (msg["table"]["id"], msg["table"]["state"])
            self.crowd.trail(self, f"< {kind} {brief}")
        if kind == "welcome":
            if self.at is not None and msg["table"] != self.at:
                self.sight.boundary(self.at)
                self.crowd.watch.counts["welcomed without their seat"] += 1
            self.at, self.summary, self.state = msg["table"], None, None
            self._pending.clear()
            self._forget_moves()
        elif kind == "table":
            self._on_summary(msg)
        elif kind == "state":
            self._on_state(msg)
        elif kind == "hand_end":
            self.sight.hand_end(msg)
        elif kind == "left":
            self._on_left(msg)
        elif kind == "error":
            self._on_error(msg)
        elif kind == "ack":
            self._pending.pop(msg["ref"], None)

    def _on_summary(self, msg: Message) -> None:
        table = msg["table"]
        self.crowd.watch.summary(table)
        if msg["seat"] is None:
            return
        self.seats[table["id"]] = msg["seat"]
        if self.at != table["id"]:
            self.state = None
        self.at, self.summary = table["id"], table
        if table["state"] in ("waiting", "stopped"):
            # A match ended: hand numbers start again, so do the decisions keyed by them.
            self.sight.boundary(table["id"])
            self._forget_moves()
            self._plan = {}
        if msg["seat"] == 0 and self.slot.table != table["id"]:
            self.slot.table = table["id"]
            self.slot.tables.append(table["id"])

    def _on_state(self, msg: Message) -> None:
        seat = msg["view"]["seat"] if msg["view"] is not None else self.seats.get(msg["table_id"], -1)
        if self.seats.get(msg["table_id"], -1) != seat:
            where = f"{msg['table_id']} seat {seat} (its seats: {self.seats})"
            self.crowd.watch.violation("states meant for another client", f"{self.name}: {where}")
            return
        verdict = self.crowd.watch.accept(self.stream, msg, self.name)
        self._sync = self._sync or verdict in ("gap", "refuse")
        if verdict in ("take", "gap"):
            self.state = msg
            self.sight.state(msg)
            if msg["full"]:
                self._forget_moves()

    def _forget_moves(self) -> None:
        """A new connection or a full picture: a move sent before may have been lost on the way."""
        moves = ("play", "bid", "retract", "autoplay", "escape", "leave")
        self._done_keys = {key for key in self._done_keys if key[0] not in moves}

    def _on_left(self, msg: Message) -> None:
        table, reason = msg["table_id"], msg["reason"]
        self.sight.boundary(table)
        if table == self.at:
            self.at, self.summary, self.state = None, None, None
        self.crowd.watch.counts[f"left: {reason}"] += 1
        if reason == "closed":
            self.crowd.watch.closed(table)
            if self.slot.table == table:
                self.slot.table = None
        if reason == "escaped" or (reason == "closed" and self._plan.get("spree")):
            self.crowd.retire(self)

    def _on_error(self, msg: Message) -> None:
        ref = msg.get("ref")
        key = self._pending.pop(ref, None) if isinstance(ref, int) else None
        code = msg["code"]
        self.crowd.watch.counts[f"error: {code}"] += 1
        if key is not None and code in PASSING | {"seat_taken", "not_ready_state", "rate_limited"}:
            self._done_keys.discard(key)
            self._due[key] = time.monotonic() + RETRY
        if code == "escape_cooldown":
            self.crowd.retire(self)
        elif code in ("no_table", "bad_invite") and key is not None and key[0] == "join":
            self.crowd.watch.closed(key[1])  # it closed while this person was away
            if self.slot.table == key[1]:
                self.slot.table = None
        elif code in ("not_seated", "already_seated") and self.ws is not None:
            self.drop()  # the server's idea of our seat differs: reconnect and be told where we sit

    # ------------------------------------------------------------------ what to do

    def _once(self, key: tuple[Any, ...], wait: float = 0.0) -> bool:
        """Whether to act on decision ``key`` now: not done yet (or sent without an answer long ago),
        and ``wait`` passed since first seen."""
        now = time.monotonic()
        if key in self._done_keys:
            return key in self._pending.values() and now - self._sent.get(key, now) > RESEND
        due = self._due.setdefault(key, now + wait)
        return now >= due

    async def _decide(self) -> None:
        if self.ws is None or self.done:
            return
        if self._sync:
            self._sync = False
            await self._send("sync")
        if self.at is None:
            await self._find_seat()
        elif self.summary is not None and self.summary["state"] in ("waiting", "stopped"):
            await self._get_ready()
        elif self.state is not None and self.state["view"] is not None and self.state["table_id"] == self.at:
            await self._play(self.state)

    async def _find_seat(self) -> None:
        slot = self.slot
        if slot.table is None:
            key = ("create", len(slot.tables), int(time.monotonic() // 5))
            if self.seat == 0 and self._once(key, 0.2):
                options = self.crowd.table_options
                if slot.solo is not None:
                    await self._send("play_now", key, options=options, bot=slot.solo)
                else:
                    await self._send("create_table", key, options=options, seat=0)
            return
        join = ("join", slot.table, int(time.monotonic() // 5))
        if self._once(join, 0.2):
            await self._send("join", join, table=slot.table, seat=self.seat)

    async def _get_ready(self) -> None:
        summary = self.summary
        assert summary is not None
        stamp = (summary["id"], summary["hands_played"], int(time.monotonic() // 5))
        if self.seat == 0:
            for seat, bot in self.slot.bots.items():
                if summary["seats"][seat]["kind"] == "empty" and self._once(("bot", seat, *stamp), 0.1):
                    await self._send("add_bot", ("bot", seat, *stamp), seat=seat, bot=bot)
        mine = summary["seats"][self.seat]
        if mine["kind"] == "human" and not mine["ready"] and self._once(("start", *stamp), 0.2):
            await self._send("start", ("start", *stamp))

    async def _play(self, state: Message) -> None:
        view = state["view"]
        seat, habits = view["seat"], self.crowd.habits
        if seat is None:
            return
        hand = (state["table_id"], state["hand"])
        if self._plan.get("hand") != hand:
            self._plan = self._new_plan(hand)
        if view["phase"] == "finished":
            if self._plan["leave"] and self._once(("leave", *hand), 0.1):
                await self._send("leave", ("leave", *hand))
            return
        if view["autoplay"][seat] and self._once(("autoplay", *hand, view["tricks_played"]), 1.0):
            await self._send("autoplay", ("autoplay", *hand, view["tricks_played"]), on=False)
        if self._plan["escape"] is not None and view["tricks_played"] >= self._plan["escape"]:
            if self._once(("escape", *hand)):
                await self._send("leave", ("escape", *hand))
            return
        point = (*hand, view["tricks_played"], len(view["trick"]), sum(view["retraction_points"]))
        if self._plan["spree"] and view["can_retract"] and self._once(("retract", *point)):
            await self._send("retract", ("retract", *point))
        elif view["phase"] in ("dealing", "bidding") and view["bid"] is None and view["bid_options"]:
            if self._plan["bid"] and self._once(("bid", *hand), self.rng.uniform(*habits.think)):
                option = view["bid_options"][0]
                await self._send("bid", ("bid", *hand), suit=option["suit"], count=option["count"])
        elif (
            view["phase"] == "playing"
            and view["to_move"] == seat
            and view["hint"]
            and self._once(("play", *point), self.rng.uniform(*habits.think))
        ):
            await self._send("play", ("play", *point), cards=view["hint"])

    def _new_plan(self, hand: tuple[str, int]) -> dict[str, Any]:
        """What this person will do in this hand, decided when it begins."""
        habits, rng = self.crowd.habits, self.rng
        escape = rng.randrange(1, 20) if rng.random() < habits.escape else None
        spree = escape is None and rng.random() < habits.spree
        leave = escape is None and not spree and rng.random() < habits.leave
        return {"hand": hand, "escape": escape, "spree": spree, "leave": leave, "bid": rng.random() < 0.6}


class Crowd:
    """Every person of the run: the slots, the nodes they use, the watch they report to."""

    def __init__(
        self,
        nodes: Sequence[Node],
        watch: Watch,
        habits: Habits,
        rng: random.Random,
        trail: Path | None = None,
        table_options: dict[str, Any] | None = None,
    ) -> None:
        self.nodes = nodes
        self.table_options = table_options or TABLE_OPTIONS
        """The options of the tables the people make."""
        self._trail = trail.open("a") if trail is not None else None
        self.watch = watch
        self.habits = habits
        self.rng = rng
        self.slots: list[Slot] = []
        self.people: list[Person] = []
        self.retired: list[Person] = []
        self.observers: list[Observer] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self.accounts: list[int] = []

    def trail(self, person: Person, text: str) -> None:
        """Note what ``person`` did or was told (the run's ``people.log``, for finding out why)."""
        self.note(person.name, f"s{person.slot.index}.{person.seat}", person.node, text)

    def note(self, who: str, where: str, node: Node | None, text: str) -> None:
        """A line of the run's ``people.log``: ``who`` (at ``where``, through ``node``) did or was told ``text``."""
        if self._trail is not None:
            self._trail.write(f"{time.time():.3f} {who} {where} {node.name if node is not None else '-'} {text}\n")

    def pick_node(self, rng: random.Random) -> Node | None:
        """Any node whose process runs (it may be paused: then the connection times out)."""
        running = [node for node in self.nodes if node.running]
        return rng.choice(running) if running else None

    def later(self, work: Any) -> None:
        """Run ``work`` (a coroutine) in the background."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def guest(self) -> tuple[str, int]:
        """A new guest account (through any answering node, trying again until one answers)."""
        while True:
            node = self.pick_node(self.rng)
            if node is not None and node.answering:
                with contextlib.suppress(httpx.HTTPError):
                    made = await self.guest_on(node)
                    if made is not None:
                        return made
            await asyncio.sleep(0.3)

    async def guest_on(self, node: Node) -> tuple[str, int] | None:
        """A new guest account made on ``node`` (its token and id), or None if the node refused.
        Raises ``httpx.HTTPError`` when the node does not answer."""
        async with httpx.AsyncClient(timeout=5) as http:
            answer = await http.post(node.url + "/api/guest", json={})
        if answer.status_code != 201:
            return None
        body = answer.json()
        self.accounts.append(body["account"]["id"])
        return str(body["token"]), int(body["account"]["id"])

    async def seat_person(self, slot: Slot, seat: int) -> None:
        """A new guest at ``seat`` of ``slot``, playing from now on."""
        token, account_id = await self.guest()
        person = Person(self, slot, seat, token, account_id, self.rng.getrandbits(32))
        self.people.append(person)
        self.later(person.run())

    async def fill(self, slots: Sequence[Slot]) -> None:
        """Seat the people of ``slots``, and put an observer of each on every node."""
        self.slots.extend(slots)
        await asyncio.gather(*(self.seat_person(slot, seat) for slot in slots for seat in slot.people_seats))
        for slot in slots:
            for node in self.nodes:
                observer = Observer(self, slot, node)
                self.observers.append(observer)
                self.later(observer.run())

    def retire(self, person: Person) -> None:
        """``person`` escaped (R43, R32): it waits out its cool-down, so a new guest takes its seat."""
        if person.done:
            return
        person.done = True
        self.watch.counts["people replaced"] += 1
        self.people.remove(person)
        self.retired.append(person)
        person.drop()
        self.later(self.seat_person(person.slot, person.seat))

    def drop(self, node: Node) -> int:
        """Cut every connection of the people to ``node`` (and of the observers); how many people's."""
        dropped = [person for person in self.people if person.node is node]
        for person in dropped:
            person.drop()
        for observer in self.observers:
            if observer.node is node:
                observer.drop()
        return len(dropped)

    async def stop(self) -> None:
        """Every person stops; their connections close."""
        for person in self.people:
            person.done = True
        for observer in self.observers:
            observer.done = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._trail is not None:
            self._trail.close()
            self._trail = None


def make_slots(count: int, rng: random.Random) -> list[Slot]:
    """``count`` table companies: one to four people, the other seats bots (``heuristic``, ``random``)."""
    slots = []
    for index in range(count):
        people = rng.choice((1, 2, 2, 3, 4))
        seats = tuple(range(people)) if people < 4 else (0, 1, 2, 3)
        bots = {seat: rng.choice(("heuristic", "heuristic", "random")) for seat in range(people, 4)}
        solo = rng.choice(("heuristic", "random")) if people == 1 and rng.random() < 0.5 else None
        if solo is not None:
            bots = dict.fromkeys((1, 2, 3), solo)
        slots.append(Slot(index, seats, bots, solo))
    return slots
