"""Typed log entries and their one codec: each kind writes exactly the JSON stored logs hold and reads
it back; logs from before a field was added still load; what is not an entry is refused by name."""

from __future__ import annotations

from typing import Any

import pytest

from tests.room.tablekit import CONFIG, OPTIONS, TableDriver, autoplayer, decoded, seat_people_and_bots, seeds
from tuolaji.cards import parse_cards
from tuolaji.game.actions import Play, SetAutoPlay
from tuolaji.room.commands import MakePrivate, Player
from tuolaji.room.entries import (
    Acted,
    BadEntry,
    BetweenHands,
    BotSat,
    Entry,
    Freed,
    MadePrivate,
    MadePublic,
    MatchBegun,
    MatchEnded,
    MatchResumed,
    Readied,
    RoundBegun,
    Sat,
    SeatRecord,
    Settling,
    Stopped,
    TableClosed,
    entry_from_json,
    entry_to_json,
)
from tuolaji.room.table import Table

ALICE = Player(1, "alice", "布衣", "待業")
ALICE_JSON = {"id": 1, "nickname": "alice", "rank": "布衣", "wealth": "待業"}
SEATS = (SeatRecord(ALICE, None, True, True), *(SeatRecord(None, "random", True, False) for _ in range(3)))
SEATS_JSON = [
    {"player": ALICE_JSON, "bot": None, "ready": True, "away": True},
    *({"player": None, "bot": "random", "ready": True, "away": False} for _ in range(3)),
]
MATCH = {"seed": 7, "levels": ["2", "2"], "dealer": None, "rounds_started": 0, "hands_played": 0}
SETUP = {"seed": 11, "dealer": None, "level": 0}

KINDS: list[tuple[Entry, dict[str, Any]]] = [
    (Sat(2, ALICE), {"t": "sit", "seat": 2, "player": ALICE_JSON}),
    (BotSat(3, "random"), {"t": "bot", "seat": 3, "bot": "random"}),
    (Freed(1), {"t": "free", "seat": 1}),
    (Readied(0), {"t": "ready", "seat": 0}),
    (MatchBegun(123456789012), {"t": "match", "seed": 123456789012}),
    (MatchResumed(), {"t": "resume"}),
    (
        RoundBegun(4, 1_000_500, SEATS, MATCH, SETUP, True, "code", 1),
        {
            "t": "round",
            "number": 4,
            "started_ms": 1_000_500,
            "seats": SEATS_JSON,
            "match": MATCH,
            "setup": SETUP,
            "private": True,
            "invite": "code",
            "creator": 1,
        },
    ),
    (
        Acted(Play(2, tuple(parse_cards("AS AS")))),
        {"t": "act", "action": {"type": "play", "seat": 2, "cards": "AS AS"}},
    ),
    (
        Acted(SetAutoPlay(1, True, "disconnect")),
        {"t": "act", "action": {"type": "autoplay", "seat": 1, "on": True, "reason": "disconnect"}},
    ),
    (Settling(), {"t": "settle"}),
    (BetweenHands(), {"t": "between"}),
    (Stopped(), {"t": "stop"}),
    (MatchEnded(), {"t": "end_match"}),
    (TableClosed("empty"), {"t": "close", "reason": "empty"}),
    (MadePrivate("code", 1), {"t": "private", "code": "code", "creator": 1}),
    (MadePublic(), {"t": "public"}),
]


@pytest.mark.parametrize(("entry", "stored"), KINDS, ids=[stored["t"] for _, stored in KINDS])
def test_each_kind_writes_todays_json_and_reads_it_back(entry: Entry, stored: dict[str, Any]) -> None:
    assert entry_to_json(entry) == stored
    assert list(entry_to_json(entry)) == list(stored)  # the same keys in the same order: the same stored text
    assert entry_from_json(stored) == entry


def test_every_kind_is_covered() -> None:
    assert {stored["t"] for _, stored in KINDS} == {entry.tag for entry, _ in KINDS}
    assert len({entry.tag for entry, _ in KINDS}) == 15


def test_only_a_snapshot_compacts_and_only_a_close_closes() -> None:
    assert [entry.tag for entry, _ in KINDS if entry.compacts] == ["round"]
    assert [entry.tag for entry, _ in KINDS if entry.closes] == ["close"]


def test_a_round_entry_from_before_private_tables_loads_as_a_public_table() -> None:
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    snapshot = next(data for data in driver.log if data["t"] == "round")
    old = {key: value for key, value in snapshot.items() if key not in ("private", "invite", "creator")}
    entry = entry_from_json(old)
    assert isinstance(entry, RoundBegun) and (entry.private, entry.invite, entry.creator) == (False, None, None)
    table = Table.restore("t1", OPTIONS, CONFIG, autoplayer, seeds(), [entry])
    assert table.number == 1 and not table.private and table.players() == driver.table.players()


def test_a_private_tables_snapshot_keeps_it_private() -> None:
    driver = TableDriver()
    driver.do(MakePrivate("code", 1))
    seat_people_and_bots(driver, [1])
    snapshot = next(data for data in driver.log if data["t"] == "round")
    assert (snapshot["private"], snapshot["invite"], snapshot["creator"]) == (True, "code", 1)
    table = Table.restore("t1", OPTIONS, CONFIG, autoplayer, seeds(), decoded([snapshot]))
    assert (table.private, table.invite, table.creator) == (True, "code", 1)


@pytest.mark.parametrize(
    ("stored", "says"),
    [
        ({"t": "teleport", "seat": 1}, "unknown log entry"),
        (["sit", 1], "must be a JSON object"),
        ({"seat": 1}, "unknown log entry"),
        ({"t": "sit", "seat": 1}, "malformed log entry"),
        ({"t": "free", "seat": 7}, "malformed log entry"),
        ({"t": "act", "action": {"type": "fly"}}, "malformed log entry"),
        ({"t": "round", "number": 1}, "malformed log entry"),
        ({"t": "match", "seed": "many"}, "malformed log entry"),
    ],
)
def test_what_is_not_an_entry_is_refused_naming_it(stored: Any, says: str) -> None:
    with pytest.raises(BadEntry, match=says) as refused:
        entry_from_json(stored)
    assert repr(stored) in str(refused.value)


def test_restoring_from_an_entry_that_cannot_apply_names_the_table_and_the_entry() -> None:
    log = [Sat(0, ALICE), MatchResumed()]  # no match to resume
    with pytest.raises(BadEntry, match=r"table t9: log entry 1 \(MatchResumed\(\)\) cannot be applied"):
        Table.restore("t9", OPTIONS, CONFIG, autoplayer, seeds(), log)
