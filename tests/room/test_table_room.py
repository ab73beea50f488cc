"""Private tables and quick phrases in-process (issue 17), with a fake clock: who a private table lets
in, making it public, what its log keeps, and the phrases' rate limit."""

from __future__ import annotations

from collections.abc import Sequence

from tests.room.tablekit import (
    TableDriver,
    client,
    durable,
    entries,
    kinds,
    of,
    person,
    seat_people_and_bots,
    sends,
)
from tuolaji.room.commands import Join, Leave, MakePrivate, MakePublic, Say, Watch
from tuolaji.room.effects import Ack, Closed, Effect, Refuse, SendSummary
from tuolaji.room.phrases import PHRASE_BURST, PHRASE_EVERY_MS

CODE = "s3cr3t-invite-code"


def codes(out: Sequence[Effect]) -> list[str]:
    """The codes of the refusals among ``out``."""
    return [effect.code for effect in of(out, Refuse)]


def private_table() -> TableDriver:
    """A new table made private by the shell, its creator (person 1) seated at South."""
    driver = TableDriver()
    out = driver.do(MakePrivate(CODE, 1))
    assert entries(out) == [{"t": "private", "code": CODE, "creator": 1}] and not of(out, Closed)
    driver.join(1, 0)
    return driver


def test_a_private_table_lets_in_its_creator_and_whoever_has_the_code() -> None:
    driver = private_table()
    summary = of(driver.steps[-1].effects, SendSummary)[-1].summary
    assert (summary["private"], summary["invite"], summary["creator"]) == (True, CODE, 1)
    for command in (Join(client(2), person(2), 1, ref="a"), Join(client(2), person(2), 1, ref="b", invite="guess")):
        out = driver.do(command)
        assert codes(out) == ["private_table"] and not entries(out) and not of(out, Ack)
        assert of(out, Refuse)[0].params == {"table": "t1"}
    out = driver.do(Watch("w", ref="w1"))
    assert codes(out) == ["private_table"] and "w" not in driver.table.watchers
    out = driver.do(Join(client(2), person(2), 1, ref="c", invite=CODE))
    assert kinds(out) == ["sit"] and out[-1] == Ack(client(2), "c")
    out = driver.do(Watch("w", ref="w2", invite=CODE))
    assert sends(out, "table", "w") and out[-1] == Ack("w", "w2")
    # A spectator came with the code: sitting down needs it no more.
    out = driver.do(Join("w", person(3), 2, ref="d"))
    assert kinds(out) == ["sit"] and driver.table.client_seat("w") == 2
    # The creator comes back after leaving without the code.
    driver.do(Leave(client(1)))
    out = driver.do(Join("c1b", person(1), 0, ref="e"))
    assert kinds(out) == ["sit"]


def test_only_the_creator_makes_it_public_and_then_anyone_may_watch() -> None:
    driver = private_table()
    driver.do(Join(client(2), person(2), 1, invite=CODE))
    driver.do(Watch("w", invite=CODE))
    out = driver.do(MakePublic(client(2), ref=1))
    assert codes(out) == ["not_table_creator"] and not entries(out) and driver.table.private
    out = driver.do(MakePublic("w", ref=2))
    assert codes(out) == ["not_seated"]
    out = driver.do(MakePublic(client(1), ref=3))
    assert entries(out) == [{"t": "public"}] and out[-1] == Ack(client(1), 3)
    summary = of(out, SendSummary)[-1]
    assert not summary.summary["private"] and summary.summary["invite"] == CODE
    assert {recipient for recipient, _ in summary.recipients} == {client(1), client(2), "w"}
    out = driver.do(Watch("w2", ref=4))
    assert out[-1] == Ack("w2", 4)
    out = driver.do(MakePublic(client(1), ref=5))
    assert not entries(out) and out[-1] == Ack(client(1), 5)
    assert durable(driver.rebuilt()) == durable(driver.table)


def test_privacy_survives_a_snapshot_and_a_restart() -> None:
    """The ``round`` entry is a snapshot: the log before it is dropped, the privacy must not be."""
    driver = private_table()
    seat_people_and_bots(driver, [1], start=False)
    driver.start(1)
    snapshot = next(entry for entry in driver.log if entry["t"] == "round")
    assert (snapshot["private"], snapshot["invite"], snapshot["creator"]) == (True, CODE, 1)
    restored = driver.restored()
    assert (restored.private, restored.invite, restored.creator) == (True, CODE, 1)
    restarted = driver.restart(from_snapshot=True)
    out = restarted.do(Watch("w", ref=1))
    assert codes(out) == ["private_table"]
    out = restarted.do(Watch("w", ref=2, invite=CODE))
    assert out[-1] == Ack("w", 2)


def test_a_phrase_reaches_everyone_at_the_table_and_spectators_only_listen() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    driver.join(2, 1)
    driver.do(Watch("w"))
    out = driver.do(Say(client(2), "thanks", ref=1))
    assert not entries(out)  # a phrase is not durable
    body = {"table_id": "t1", "seat": 1, "account": 2, "phrase": "thanks"}
    assert [(send.client, send.fields) for send in sends(out, "phrase")] == [
        (client(1), body),
        (client(2), body),
        ("w", body),
    ]
    assert out[-1] == Ack(client(2), 1)
    out = driver.do(Say("w", "thanks", ref=2))
    assert codes(out) == ["not_seated"] and not sends(out, "phrase")


def test_phrases_are_rate_limited_per_person() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    driver.join(2, 1)
    for index in range(PHRASE_BURST):
        assert sends(driver.do(Say(client(1), "hurry", ref=index)), "phrase")
    out = driver.do(Say(client(1), "hurry", ref="over"))
    assert codes(out) == ["too_many_phrases"] and not sends(out, "phrase")
    assert of(out, Refuse)[0].params == {"wait_ms": PHRASE_EVERY_MS, "table": "t1"}
    assert sends(driver.do(Say(client(2), "sorry")), "phrase")  # another person is not held back
    driver.advance(PHRASE_EVERY_MS // 3)
    out = driver.do(Say(client(1), "hurry"))
    assert of(out, Refuse)[0].params["wait_ms"] == PHRASE_EVERY_MS - PHRASE_EVERY_MS // 3
    driver.advance(PHRASE_EVERY_MS - PHRASE_EVERY_MS // 3)
    assert sends(driver.do(Say(client(1), "hurry")), "phrase")
    assert codes(driver.do(Say(client(1), "hurry"))) == ["too_many_phrases"]
    driver.advance(10 * PHRASE_EVERY_MS)  # the bucket refills to the burst, no further
    for _ in range(PHRASE_BURST):
        assert sends(driver.do(Say(client(1), "bye")), "phrase")
    assert codes(driver.do(Say(client(1), "bye"))) == ["too_many_phrases"]
