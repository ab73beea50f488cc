"""The chaos run's stall rules on their own: a table that waits for a person away since a takeover
(R46: the seat to move gets a full turn clock) is not a stall, but such a wait has its own bound."""

from __future__ import annotations

from typing import Any

from tests.chaos.checks import stalls
from tests.chaos.watch import Stream, Watch


def summary(table: str, away: bool) -> dict[str, Any]:
    """A playing table's ``table`` summary: seat 0 a person (connected unless ``away``), three bots."""
    person = {"seat": 0, "kind": "human", "connected": not away, "autoplay": False}
    bots = [{"seat": seat, "kind": "bot", "connected": True, "autoplay": True} for seat in (1, 2, 3)]
    return {"id": table, "state": "playing", "seats": [person, *bots]}


def state(table: str, epoch: int, seq: int, to_move: int, full: bool = False) -> dict[str, Any]:
    """A ``state`` whose turn clock runs for ``to_move``."""
    return {
        "table_id": table,
        "epoch": epoch,
        "seq": seq,
        "full": full,
        "hand": 1,
        "view": {"phase": "playing", "to_move": to_move},
        "clock": {"kind": "turn", "seat": to_move, "remaining_ms": 20_000},
    }


def marks_at(watch: Watch, table: str, times: list[float]) -> None:
    """Give the table's marks the wall-clock times ``times`` (the watch stamps them as they come)."""
    watch.marks[table] = [
        type(mark)(at, mark.busy, mark.note, mark.away) for mark, at in zip(watch.marks[table], times, strict=True)
    ]


def test_a_wait_for_a_person_away_since_a_takeover_is_no_stall_but_is_measured() -> None:
    watch, stream = Watch(), Stream()
    watch.summary(summary("t1", away=False))
    watch.accept(stream, state("t1", 1, 5, to_move=0, full=True), "p")
    # The node stopped; the new owner's first state: seat 0's person is not connected to it (R46).
    watch.summary(summary("t1", away=True))
    watch.accept(stream, state("t1", 2, 0, to_move=0, full=True), "o")
    watch.summary(summary("t1", away=False))  # back: the person moves
    watch.accept(stream, state("t1", 2, 1, to_move=1), "o")
    marks_at(watch, "t1", [0.0, 1.0, 5.0, 13.0])  # the first ``table``, then each state
    busy = [(stall.start, stall.end) for stall in stalls(watch.marks, 20.0, {"t1"})]
    assert busy == [(0.0, 1.0), (1.0, 5.0), (13.0, 20.0)]
    assert [(wait.start, wait.end) for wait in stalls(watch.marks, 20.0, {"t1"}, away=True)] == [(5.0, 13.0)]


def test_a_person_connected_but_slow_to_move_is_waited_for_as_a_stall() -> None:
    watch, stream = Watch(), Stream()
    watch.summary(summary("t1", away=False))
    watch.accept(stream, state("t1", 1, 5, to_move=0, full=True), "p")
    watch.accept(stream, state("t1", 1, 6, to_move=1), "p")
    marks_at(watch, "t1", [0.0, 1.0, 12.0])
    assert [(stall.start, stall.end) for stall in stalls(watch.marks, 12.0, {"t1"})] == [(0.0, 1.0), (1.0, 12.0)]
    assert stalls(watch.marks, 12.0, {"t1"}, away=True) == []
