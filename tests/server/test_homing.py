"""When a node tells a client the node of its table (``tuolaji.server.homing``): never about itself
or the node the client asked for and was not put on, once per table and node, a few times at most,
and never with ``--no-node-hints``. (Across real nodes: tests/cluster/test_home.py.)"""

from __future__ import annotations

import pytest

from tuolaji.server.homing import MAX_HINTS, Hints, Homing


def test_a_client_is_told_its_tables_node_once() -> None:
    homing, hints = Homing("a"), Hints()
    assert homing.hint(hints, "t1", "b") == {"v": 2, "type": "table_node", "table_id": "t1", "node": "b"}
    assert homing.hint(hints, "t1", "b") is None  # a `table` message again (a sync, a summary change)
    assert homing.hint(hints, "t1", "c") is not None  # the table moved on to c
    assert homing.hint(hints, "t1", "a") is None  # ... and here: nothing to tell


def test_a_client_is_not_sent_to_the_node_it_asked_for_and_was_not_put_on() -> None:
    """The proxy did not route ``?node=b`` to b (it does not route by node, or b is down): no loop."""
    homing = Homing("a")
    assert homing.hint(Hints.asking("b"), "t1", "b") is None
    assert homing.hint(Hints.asking("a"), "t1", "b") is not None  # put where it asked; the table went on


def test_a_table_that_keeps_moving_does_not_keep_its_clients_moving() -> None:
    homing, hints = Homing("a"), Hints()
    told = [homing.hint(hints, "t1", f"n{index}") for index in range(MAX_HINTS + 2)]
    assert [message is not None for message in told] == [True] * MAX_HINTS + [False, False]


def test_a_node_told_to_give_no_hints_gives_none() -> None:
    assert Homing("a", on=False).hint(Hints(), "t1", "b") is None


@pytest.mark.parametrize(
    ("query", "asked"),
    [("b", "b"), ("n8001", "n8001"), (None, None), ("", None), ("b;c", None), ("ｂ", None), ("x" * 65, None)],
)
def test_what_a_client_asks_for_is_a_node_name_or_nothing(query: str | None, asked: str | None) -> None:
    assert Hints.asking(query).asked == asked
