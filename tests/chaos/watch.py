"""What the people of a chaos run see, checked as it arrives: every ``state`` against the stream it
continues, every trick and hand end against what the same person saw before, and each table's
progress over time (for the stalls).

The rules a client applies to a table's ``state`` stream (docs/PROTOCOL.md §3), as the browser client
does: a state from an older owner (a smaller ``epoch``) is dropped; a full state starts the stream
afresh; a non-full one must continue it (``seq`` one more; more: messages were lost, ask ``sync``). A
non-full state that goes back (``seq`` not above the last one) or that is the first of a newer owner
is a violation: the client cannot tell whether its picture is stale. Servers without epochs send
none (every state is then epoch 0).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Message = dict[str, Any]
IDLE_STATES = frozenset({"waiting", "stopped", "closed"})
"""Table states in which a table waits for people (it is not expected to move by itself)."""


@dataclass(frozen=True)
class Violation:
    """An invariant broken: its ``kind``, when (wall clock) and what was seen."""

    kind: str
    at: float
    detail: str


@dataclass
class Stream:
    """The last ``state`` one connection accepted from its table."""

    table: str | None = None
    epoch: int = -1
    seq: int = -1


@dataclass
class HandSeen:
    """What one person saw of one hand: its judged tricks by index, the cards it was dealt, its end."""

    table: str
    hand: int
    seat: int | None
    tricks: dict[int, Message] = field(default_factory=dict)
    dealt: Counter[str] | None = None
    hand_id: int | None = None
    result: Message | None = None
    settlement: list[Message] = field(default_factory=list)


@dataclass(frozen=True)
class Mark:
    """A table seen at ``at``: moving (``busy``: it should go on by itself) or waiting for people;
    ``note`` says what it waited for then. ``away``: it waits for a person who is not connected to it
    and not in 託管 — after a takeover or a restart that person's turn runs its full clock (R46), so
    a person whose own node is stopped holds the table for as long as that, but no longer."""

    at: float
    busy: bool
    note: str = ""
    away: bool = False


class Watch:
    """The run's observations and the violations found while it runs (shared by every person)."""

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        self.ends: list[HandSeen] = []
        """Every hand end a person saw, with what that person saw of the hand."""
        self.marks: dict[str, list[Mark]] = {}
        """Each table's progress as the people saw it."""
        self.counts: Counter[str] = Counter()
        self._last: dict[str, tuple[int, int, int]] = {}
        self._idle: dict[str, bool] = {}
        self._away: dict[str, frozenset[int]] = {}
        """Each table's seats of people neither connected nor in 託管, by its last ``table`` message."""

    def violation(self, kind: str, detail: str) -> None:
        self.violations.append(Violation(kind, time.time(), detail))

    def summary(self, table: Message) -> None:
        """A ``table`` message's summary: whether the table waits for people now, and who is away."""
        self._away[table["id"]] = frozenset(
            seat["seat"]
            for seat in table["seats"]
            if seat["kind"] == "human" and not seat["connected"] and not seat["autoplay"]
        )
        self._state(table["id"], table["state"])

    def closed(self, table_id: str) -> None:
        """``table_id`` closed (a ``left`` saying so, or a join refused for it)."""
        self._state(table_id, "closed")

    def _state(self, table_id: str, state: str) -> None:
        idle = state in IDLE_STATES
        if self._idle.get(table_id) != idle:
            self._idle[table_id] = idle
            self.marks.setdefault(table_id, []).append(Mark(time.time(), not idle, state))

    def accept(self, stream: Stream, msg: Message, who: str) -> str:
        """Whether a person takes ``msg`` (a ``state``) on the connection whose stream is ``stream``:
        ``take``, ``gap`` (take it and ask ``sync``), ``drop`` (from an older owner) or ``refuse`` (a
        violation: ask ``sync``)."""
        table, epoch, seq, full = msg["table_id"], int(msg.get("epoch", 0)), int(msg["seq"]), bool(msg["full"])
        self.counts["states"] += 1
        verdict = "take"
        if stream.table == table and epoch < stream.epoch:
            self.counts["stale states dropped"] += 1
            return "drop"
        if stream.table == table and not full:
            if epoch > stream.epoch:
                self.violation("first state of a new owner not full", f"{who} {table}: epoch {stream.epoch} → {epoch}")
                return "refuse"
            if seq <= stream.seq:
                self.violation("seq backwards without a full state", f"{who} {table}: seq {stream.seq} → {seq}")
                return "refuse"
            if seq > stream.seq + 1:
                self.counts["gaps"] += 1
                verdict = "gap"
        stream.table, stream.epoch, stream.seq = table, epoch, seq
        self._progress(table, epoch, seq, msg)
        return verdict

    def _progress(self, table: str, epoch: int, seq: int, msg: Message) -> None:
        point = (epoch, seq, int(msg["hand"]))
        if self._last.get(table) == point:
            return
        self._last[table] = point
        view, clock = msg["view"] or {}, msg["clock"] or {}
        note = f"seq {seq} epoch {epoch} {view.get('phase')} to move {view.get('to_move')} clock {clock.get('kind')}"
        away = clock.get("kind") == "turn" and clock.get("seat") in self._away.get(table, frozenset())
        busy = not self._idle.get(table, False) and not away
        self.marks.setdefault(table, []).append(Mark(time.time(), busy, note, away))


class Sight:
    """What one person saw of its tables' hands (kept across its connections), checked as it comes:
    one trick under one number, one hand under one number."""

    def __init__(self, watch: Watch, who: str) -> None:
        self.watch = watch
        self.who = who
        self.hands: dict[tuple[str, int], HandSeen] = {}
        self.ended: dict[tuple[str, int], int] = {}

    def boundary(self, table: str) -> None:
        """A match at ``table`` ended (or the person left it): hand numbers start again."""
        for key in [key for key in self.hands if key[0] == table]:
            del self.hands[key]
        for key in [key for key in self.ended if key[0] == table]:
            del self.ended[key]

    def state(self, msg: Message) -> None:
        """An accepted ``state``: its judged tricks and, once dealt, the person's cards."""
        view = msg["view"]
        if view is None:
            return
        key = (msg["table_id"], int(msg["hand"]))
        seen = self.hands.setdefault(key, HandSeen(key[0], key[1], view["seat"]))
        tricks = list(enumerate(view["tricks"])) if msg["full"] else []
        if view["tricks_played"] and view["last_trick"] is not None:
            tricks.append((view["tricks_played"] - 1, view["last_trick"]))
        for index, trick in tricks:
            known = seen.tricks.setdefault(index, trick)
            if known != trick:
                self.watch.violation(
                    "two different tricks under one number", f"{self.who} {key} trick {index}: {known} then {trick}"
                )
                seen.tricks[index] = trick
        if seen.dealt is not None or view["seat"] is None or view["cards_dealt"] != 216:
            return
        if msg["full"]:  # the cards in hand and those played so far (a retracted play is back in hand)
            plays = [play for trick in view["tricks"] for play in trick["plays"]] + view["trick"]
            mine = [card for play in plays if play["seat"] == view["seat"] for card in play["cards"]]
            seen.dealt = Counter(view["hand"]) + Counter(mine)
        elif view["phase"] in ("dealing", "bidding"):  # nothing played yet
            seen.dealt = Counter(view["hand"])

    def hand_end(self, msg: Message) -> None:
        """A ``hand_end``: the hand as this person saw it goes to the run's list."""
        hand_id = msg["hand_id"]
        key = (msg["table_id"], int(msg["hand"]))
        if hand_id is None:
            if msg["result"]["kind"] != "redeal":  # a hand that was played ends with its record
                self.watch.violation("hand ends without their record", f"{self.who} {key}: {msg['result']['kind']}")
            self.hands.pop(key, None)
            return
        earlier = self.ended.get(key)
        if earlier is not None and earlier != hand_id:
            self.watch.violation("two different hands under one number", f"{self.who} {key}: {earlier}, {hand_id}")
        self.ended[key] = hand_id
        seen = self.hands.pop(key, None) or HandSeen(key[0], key[1], None)
        seen.hand_id, seen.result, seen.settlement = hand_id, msg["result"], msg["settlement"]
        self.watch.ends.append(seen)
        self.watch.counts["hand ends seen"] += 1
