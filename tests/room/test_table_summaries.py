"""Who gets the table's summary (``table`` messages): a client that joins, watches, reconnects (also
from 託管, R46) or asks for a sync gets it exactly once, with its full picture; everyone else once."""

from __future__ import annotations

from collections.abc import Sequence

from tests.room.tablekit import TableDriver, client, of, person, seat_people_and_bots, sends, states_to
from tuolaji.game.round import Phase
from tuolaji.room.commands import Detach, Join, Sync, Watch
from tuolaji.room.effects import Effect, Send, SendState, SendSummary


def summaries_to(effects: Sequence[Effect], to: str) -> list[dict[str, object]]:
    """Every summary that reaches the client ``to`` in ``effects``, in order."""
    found: list[dict[str, object]] = []
    for effect in effects:
        if isinstance(effect, Send) and effect.kind == "table" and effect.client == to:
            found.append(effect.fields["table"])
        elif isinstance(effect, SendSummary) and any(recipient == to for recipient, _ in effect.recipients):
            found.append(effect.summary)
    return found


def test_a_joiner_and_a_spectator_get_the_summary_once_and_the_others_too() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    out = driver.do(Join(client(2), person(2), 1, ref=1))
    assert len(summaries_to(out, client(2))) == 1 and len(summaries_to(out, client(1))) == 1
    assert summaries_to(out, client(2)) == summaries_to(out, client(1))
    out = driver.do(Watch("w", ref=2))
    assert [len(summaries_to(out, to)) for to in (client(1), client(2), "w")] == [1, 1, 1]
    assert sends(out, "table", "w")[0].fields["table"]["spectators"] == 1


def test_a_reconnect_and_a_sync_get_the_summary_once() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    driver.join(2, 1)
    out = driver.attach(2, "c2b")
    assert len(summaries_to(out, "c2b")) == 1 and len(summaries_to(out, client(1))) == 1
    out = driver.do(Sync("c2b"))
    assert len(summaries_to(out, "c2b")) == 1 and not summaries_to(out, client(1))


def test_a_reconnect_from_autoplay_gets_one_summary_and_the_state_after_the_change() -> None:
    """R46: 託管 since the disconnect ends; the others hear the change as before."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    driver.run_until(lambda: driver.round.phase is Phase.PLAYING)
    driver.do(Detach(client(2)))
    out = driver.attach(2, "c2b")
    [summary] = summaries_to(out, "c2b")
    assert summary == driver.table.summary()
    assert not driver.round.autoplay[1] and summary["seats"][1]["connected"]  # type: ignore[index]
    [full] = states_to(out, "c2b")
    assert full.full and full.seq == driver.table.seq and not full.views[1].autoplay[1]
    [change] = [state for state in of(out, SendState) if not state.full]
    assert change.recipients == ((client(1), 0),) and [event.type for event in change.events] == ["autoplay"]
    assert summaries_to(out, client(1)) == [summary]
