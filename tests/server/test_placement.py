"""Where a node's clients are (``tuolaji.server.placement``): moved only by typed place changes and
the lobby's own requests."""

from __future__ import annotations

from tuolaji.server.placement import Place, Placement
from tuolaji.wire.nodes import AtTable, LeftTable, TurnedAway


def test_a_table_message_seats_the_client_and_answers_its_request() -> None:
    places = Placement()
    places.ask("n.1", "t1")
    assert places.busy("n.1") and places.where("n.1") == "t1" and places.at("n.1") is None
    places.apply("n.1", AtTable("t1", 2))
    assert places.at("n.1") == Place("t1", watching=False)
    assert places.asked("n.1") is None
    places.apply("n.2", AtTable("t1", None))
    assert places.at("n.2") == Place("t1", watching=True)
    assert sorted(client for client, _ in places.at_table("t1")) == ["n.1", "n.2"]


def test_a_refusal_ends_only_the_request_it_answers() -> None:
    places = Placement()
    places.ask("n.1", "t1")
    places.apply("n.1", TurnedAway("t2"))  # another table's refusal
    assert places.asked("n.1") == "t1"
    places.apply("n.1", TurnedAway("t1"))
    assert places.asked("n.1") is None and not places.busy("n.1")


def test_a_spectator_sitting_down_keeps_its_chair_until_the_table_answers() -> None:
    places = Placement()
    places.apply("n.1", AtTable("t1", None))
    places.ask("n.1", "t1")
    places.apply("n.1", TurnedAway("t1"))  # the seat was taken
    assert places.at("n.1") == Place("t1", watching=True) and places.asked("n.1") is None
    places.ask("n.1", "t1")
    places.apply("n.1", AtTable("t1", 0))
    assert places.at("n.1") == Place("t1", watching=False)


def test_left_takes_the_client_away_from_that_table_only() -> None:
    places = Placement()
    places.apply("n.1", AtTable("t2", 1))
    places.apply("n.1", LeftTable("t1"))  # late news from a table it already left
    assert places.at("n.1") == Place("t2", watching=False)
    places.apply("n.1", LeftTable("t2"))
    assert places.at("n.1") is None
    places.apply("n.1", None)
    assert not places.busy("n.1")


def test_leaving_and_disconnecting() -> None:
    places = Placement()
    places.seated("n.1", "t1")
    places.stop_watching("n.1")  # a seated player's leave is the table's to decide
    assert places.at("n.1") == Place("t1", watching=False)
    places.apply("n.2", AtTable("t3", None))
    places.stop_watching("n.2")
    assert places.at("n.2") is None
    places.apply("n.2", AtTable("t3", None))
    places.ask("n.2", "t3")
    assert places.tables() == {"t1", "t3"}
    assert places.forget("n.2") == {"t3"}
    places.ask("n.3", "t4")
    assert places.forget("n.1") == {"t1"} and places.forget("n.3") == {"t4"}
    assert places.tables() == set() and places.forget("n.1") == set()


def test_a_client_sent_to_its_table_waits_until_the_table_answers() -> None:
    """After ``hello`` (or when its table moved) a client is sent to its table; until a ``table``
    message from it arrives, the lobby sends it again (a message between nodes may be lost)."""
    places = Placement()
    places.seated("n.1", "t1")
    assert places.waiting("n.1") == "t1"
    places.apply("n.1", AtTable("t1", 2))  # the table took it back
    assert places.waiting("n.1") is None
    places.unheard("n.1")  # the table moved to another node: attached there again
    assert places.waiting("n.1") == "t1"
    places.apply("n.1", LeftTable("t1"))  # the seat was gone: nothing to wait for
    assert places.waiting("n.1") is None and places.at("n.1") is None
    places.unheard("n.2")  # a client at no table waits for nothing
    assert places.waiting("n.2") is None
    places.seated("n.3", "t2")
    assert places.forget("n.3") == {"t2"} and places.waiting("n.3") is None


def test_a_table_message_that_does_not_move_the_client_keeps_its_place() -> None:
    # Every `table` message carries the client's place; only a change makes a new one, so a busy
    # table does not fill the collector's young generation with copies (docs/BENCHMARKS.md).
    places = Placement()
    places.apply("n.1", AtTable("t1", 2))
    kept = places.at("n.1")
    places.apply("n.1", AtTable("t1", 2))
    assert places.at("n.1") is kept
    places.apply("n.1", AtTable("t1", None))
    assert places.at("n.1") == Place("t1", watching=True)
    places.apply("n.1", AtTable("t2", None))
    assert places.at("n.1") == Place("t2", watching=True)
