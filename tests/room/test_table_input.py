"""No client input makes a table raise (issue 46, item 3): every table message type of the schema
(``tuolaji.wire.inbound.SCHEMAS``, with ``join`` and ``watch``), with any values its validators let
through, sent by seated people, a spectator and a stranger between clock fires of a private table
in play, is answered by the table (done or refused), never by an exception. An exception there is
what made the server rebuild the table from its log, so no such input can freeze a table."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.room.tablekit import TableDriver, client, person
from tuolaji.bots import BOT_NAMES
from tuolaji.cards import KINDS, format_card
from tuolaji.room.commands import AddBot, Join, MakePrivate
from tuolaji.room.phrases import PHRASES
from tuolaji.wire.inbound import SCHEMAS, ProtocolError, parse_client_message, table_command

CODE = "AbC-_09xyzAbC-_0"
CARDS = [format_card(kind) for kind in range(KINDS)]
SENDERS = (1, 1, 2, 2, 3)
"""People 1 and 2 are seated, 3 is a stranger (or a spectator once it watched)."""
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "seat": st.integers(0, 3),
    "suit": st.sampled_from("SHCDshcd"),
    "count": st.integers(1, 4),
    "cards": st.lists(st.sampled_from(CARDS), min_size=1, max_size=4) | st.lists(st.sampled_from(CARDS), max_size=25),
    "laogai": st.booleans(),
    "escape": st.booleans(),
    "on": st.booleans(),
    "bot": st.sampled_from(BOT_NAMES),
    "phrase": st.sampled_from(PHRASES),
    "invite": st.sampled_from([CODE, "wrong", "A" * 64]),
    "table": st.just("t1"),
}
TABLE_TYPES = [*sorted(kind for kind, schema in SCHEMAS.items() if schema.table is not None), "join", "watch"]


def message(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    fields = {name: VALUES[name] for name in SCHEMAS[kind].fields}
    return st.fixed_dictionaries({"v": st.just(2), "type": st.just(kind), "id": st.integers(1, 99)}, optional=fields)


steps = st.lists(
    st.one_of(
        st.just("fire"), st.tuples(st.sampled_from(SENDERS), st.one_of(*(message(kind) for kind in TABLE_TYPES)))
    ),
    max_size=60,
)


@settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(steps=steps, first_turn=st.booleans())
def test_no_message_a_client_may_send_makes_a_table_raise(steps: list[Any], first_turn: bool) -> None:
    driver = TableDriver()
    driver.do(MakePrivate(CODE, 1))
    driver.join(1, 0)
    driver.do(Join(client(2), person(2), 1, invite=CODE))
    for seat in (2, 3):
        driver.do(AddBot(client(1), seat, "heuristic"))
    driver.start(1)
    driver.start(2)
    driver.run_to_turn(0 if first_turn else 1)
    for step in steps:
        if step == "fire":
            if driver.armed is not None:
                driver.fire()
            continue
        number, data = step
        try:
            msg = parse_client_message(json.dumps(data))
        except ProtocolError:
            continue
        command = table_command(client(number), person(number), msg)
        if command is not None:
            driver.do(command)
