"""Table seating in-process (R3, R20, R43, R46, R47): join, watch, bots, start, leave, escape,
disconnect and reconnect, with a fake clock."""

from __future__ import annotations

from tests.room.tablekit import (
    SEED,
    TableDriver,
    acts,
    client,
    entries,
    kinds,
    of,
    person,
    seat_people_and_bots,
    sends,
    states_to,
)
from tuolaji.game.round import Phase
from tuolaji.game.settlement import Balance, Change
from tuolaji.room.commands import (
    AddBot,
    Detach,
    HandSettled,
    Join,
    Leave,
    Player,
    PlayNow,
    Refresh,
    RemoveBot,
    RequestAutoPlay,
    Start,
    Sync,
    Watch,
)
from tuolaji.room.effects import (
    Ack,
    Arm,
    Closed,
    Disarm,
    Record,
    Refuse,
    Seated,
    Send,
    SendState,
    SendSummary,
    StoreHand,
)
from tuolaji.room.table import TableState


def playing(driver: TableDriver) -> None:
    """Fire the clock until the hand is in its playing phase (dealt, bid, bidding closed)."""
    driver.run_until(lambda: driver.table.round is not None and driver.table.round.phase is Phase.PLAYING)


# ---------------------------------------------------------------------- join, watch


def test_join_records_the_seat_and_sends_the_joiner_everything() -> None:
    driver = TableDriver()
    out = driver.join(1, 2)
    assert entries(out) == [{"t": "sit", "seat": 2, "player": person(1).to_json()}]
    assert of(out, Seated) == [Seated(1, 2)]
    [summary] = of(out, SendSummary)
    assert summary.recipients == ()  # the joiner's one `table` message comes with the full picture
    seat = summary.summary["seats"][2]
    assert seat["kind"] == "human" and seat["account"] == person(1).to_json()
    assert seat["connected"] and not seat["ready"] and not seat["autoplay"]
    assert summary.summary["state"] == "waiting" and summary.summary["dealer"] is None
    [table] = sends(out, "table", "c1")
    assert table.fields["seat"] == 2 and table.fields["table"]["seats"][2]["account"]["id"] == 1
    [state] = of(out, SendState)
    assert state.recipients == (("c1", 2),) and state.full and state.views == {} and state.hand == 0
    assert isinstance(out[0], Record)  # the log entry comes first
    assert out[-1] == Ack("c1", "join1")
    assert driver.table.seat_of(1) == 2 and driver.table.client_seat("c1") == 2


def test_a_taken_seat_is_refused_and_nothing_is_recorded() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    out = driver.do(Join("c2", person(2), 0, ref=5))
    [refusal] = out
    assert isinstance(refusal, Refuse)
    assert (refusal.client, refusal.code, refusal.ref) == ("c2", "seat_taken", 5)
    assert refusal.params == {"seat": 0, "table": "t1"}
    assert driver.table.seat_of(2) is None and driver.table.seats[0].player == person(1)
    out = driver.do(AddBot("c1", 0, "random", ref=6))
    assert [(effect.code, effect.ref) for effect in of(out, Refuse)] == [("seat_taken", 6)] and not entries(out)


def test_already_seated_or_watching_is_refused() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    for command in (
        Join("c1", person(2), 1, ref=1),  # this connection already sits
        Join("c9", person(1), 1, ref=2),  # this account already sits (another connection)
        Watch("c1", ref=3),
    ):
        out = driver.do(command)
        assert [effect.code for effect in of(out, Refuse)] == ["already_seated"] and not entries(out)
        assert not of(out, Ack)
    assert [seat.kind for seat in driver.table.seats] == ["human", "empty", "empty", "empty"]


def test_a_spectator_sits_down_at_an_empty_seat() -> None:
    """The table screen offers a spectator the empty seats (and an invite link leads there first)."""
    driver = TableDriver()
    driver.join(1, 0)
    driver.do(Watch("w"))
    out = driver.do(Join("w", person(3), 1, ref=4))
    assert entries(out) == [{"t": "sit", "seat": 1, "player": person(3).to_json()}] and out[-1] == Ack("w", 4)
    assert driver.table.client_seat("w") == 1 and "w" not in driver.table.watchers
    assert of(out, SendSummary)[-1].summary["spectators"] == 0
    out = driver.do(Watch("w", ref=5))
    assert [effect.code for effect in of(out, Refuse)] == ["already_seated"]


def test_a_spectator_gets_a_full_state_without_any_hand() -> None:
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    playing(driver)
    out = driver.do(Watch("w", ref="watch"))
    assert not entries(out)  # watching is not durable
    [table] = sends(out, "table", "w")
    assert table.fields["seat"] is None and table.fields["table"]["spectators"] == 1
    [state] = states_to(out, "w")
    assert state.full and state.recipients == (("w", None),) and state.hand == 1
    view = state.views[None]
    assert view.seat is None and view.hand == () and view.hint == () and view.bid_options == ()
    assert sum(view.hand_sizes) == 216 and view.phase == "playing"
    [summary] = of(out, SendSummary)
    assert summary.summary["spectators"] == 1 and summary.recipients == (("c1", 0),)  # "w" got it above
    assert out[-1] == Ack("w", "watch")
    # The next broadcast reaches the spectator too, still without cards; the player sees their hand.
    out = driver.fire()
    later = [state for state in of(out, SendState) if ("w", None) in state.recipients]
    assert later and all(state.views[None].hand == () for state in later)
    assert all(len(state.views[0].hand) > 0 for state in later)
    out = driver.do(Leave("w", ref=9))
    assert sends(out, "left", "w")[0].fields == {"table_id": "t1", "reason": "left"}
    assert of(out, SendSummary)[0].summary["spectators"] == 0 and not entries(out)


# ---------------------------------------------------------------------- bots and start


def test_add_and_remove_a_bot_while_waiting() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    out = driver.do(AddBot("c1", 3, "random", ref="add"))
    assert entries(out) == [{"t": "bot", "seat": 3, "bot": "random"}]
    seat = of(out, SendSummary)[0].summary["seats"][3]
    assert (seat["kind"], seat["bot"], seat["ready"], seat["connected"], seat["autoplay"]) == (
        "bot",
        "random",
        True,
        True,
        True,
    )
    assert out[-1] == Ack("c1", "add")
    out = driver.do(RemoveBot("c1", 3, ref="remove"))
    assert entries(out) == [{"t": "free", "seat": 3}] and not of(out, Seated)
    assert of(out, SendSummary)[0].summary["seats"][3]["kind"] == "empty" and out[-1] == Ack("c1", "remove")
    for command, code in ((RemoveBot("c1", 3, ref=1), "seat_empty"), (RemoveBot("c1", 0, ref=2), "seat_empty")):
        out = driver.do(command)
        assert [effect.code for effect in of(out, Refuse)] == [code] and not entries(out)
    out = driver.do(AddBot("stranger", 1, "random", ref=3))
    assert [effect.code for effect in of(out, Refuse)] == ["not_seated"] and not entries(out)


def test_a_bot_cannot_be_removed_during_a_hand() -> None:
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    out = driver.do(RemoveBot("c1", 2, ref="r"))
    [refusal] = of(out, Refuse)
    assert (refusal.code, refusal.rule, refusal.ref) == ("hand_in_progress", "R47", "r")
    assert not entries(out) and driver.table.seats[2].bot == "heuristic"


def test_a_match_starts_only_with_four_seats_filled_and_every_person_ready() -> None:
    """R20, R47: four seats, and every person pressed start."""
    driver = TableDriver()
    driver.join(1, 0)
    out = driver.start(1)
    assert entries(out) == [{"t": "ready", "seat": 0}] and of(out, SendSummary)[0].summary["seats"][0]["ready"]
    driver.do(AddBot("c1", 1, "random"))
    out = driver.do(AddBot("c1", 2, "random"))
    assert kinds(out) == ["bot"] and driver.table.match is None
    out = driver.join(2, 3)
    assert kinds(out) == ["sit"] and driver.state() is TableState.WAITING  # p2 has not pressed start
    out = driver.start(2)
    assert kinds(out) == ["ready", "match", "round"]
    assert entries(out)[1] == {"t": "match", "seed": SEED}
    round_entry = entries(out)[2]
    assert round_entry["number"] == 1 and round_entry["started_ms"] == driver.now
    assert [seat["player"] is not None for seat in round_entry["seats"]] == [True, False, False, True]
    assert driver.state() is TableState.PLAYING and driver.table.number == 1
    assert of(out, SendSummary)[-1].summary["state"] == "playing"
    assert of(out, Arm) == [Arm(driver.now)]  # deal_interval_ms=0: the deal is due at once (R15)
    [state] = of(out, SendState)
    assert {seat for _, seat in state.recipients} == {0, 3} and state.hand == 1
    out = driver.start(1)
    [refusal] = of(out, Refuse)
    assert (refusal.code, refusal.rule) == ("not_ready_state", "R20") and not entries(out)


def test_the_last_bot_added_starts_a_ready_table() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    driver.start(1)
    driver.do(AddBot("c1", 1, "random"))
    driver.do(AddBot("c1", 2, "random"))
    out = driver.do(AddBot("c1", 3, "random"))
    assert kinds(out) == ["bot", "match", "round"] and driver.state() is TableState.PLAYING


def test_play_now_starts_at_once_with_three_bots() -> None:
    driver = TableDriver()
    out = driver.do(PlayNow("c1", person(1), "random", ref="go"))
    assert kinds(out) == ["sit", "bot", "bot", "bot", "ready", "match", "round"]
    assert [entry.get("bot") for entry in entries(out)[1:4]] == ["random"] * 3
    assert of(out, Seated) == [Seated(1, 0)] and of(out, Ack) == [Ack("c1", "go")]
    assert driver.state() is TableState.PLAYING
    assert [seat["kind"] for seat in driver.table.summary()["seats"]] == ["human", "bot", "bot", "bot"]
    driver.run_until(lambda: driver.round.phase is Phase.PLAYING)
    assert driver.round.bid is not None  # the bots bid on the whole deck (R16)


# ---------------------------------------------------------------------- leaving


def test_leaving_while_waiting_frees_the_seat() -> None:
    """R47: no match, no penalty."""
    driver = TableDriver()
    driver.join(1, 0)
    driver.join(2, 1)
    driver.start(2)
    out = driver.do(Leave("c2", ref="bye"))
    assert kinds(out) == ["free"] and entries(out)[0]["seat"] == 1
    assert of(out, Seated) == [Seated(2, None)]
    assert sends(out, "left", "c2")[0].fields == {"table_id": "t1", "reason": "left"}
    assert out[-1] == Ack("c2", "bye") and driver.table.seats[1].kind == "empty"
    assert driver.state() is TableState.WAITING and not driver.table.closed


def test_leaving_between_hands_ends_the_match() -> None:
    """R47: leaving between hands ends the match with no penalty."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    for number in (1, 2):
        driver.do(RequestAutoPlay(client(number), True))
    driver.run_to_hand_end()
    assert driver.state() is TableState.BETWEEN and driver.armed is not None
    out = driver.do(Leave("c2", ref="bye"))
    assert kinds(out) == ["free", "end_match"]
    assert of(out, Seated) == [Seated(2, None)] and not of(out, StoreHand)
    assert sends(out, "left", "c2")[0].fields["reason"] == "left"
    assert of(out, Disarm) and driver.armed is None  # the next hand is not coming
    summary = of(out, SendSummary)[-1].summary
    assert summary["state"] == "waiting" and summary["hands_played"] == 0 and summary["dealer"] is None
    assert not summary["seats"][0]["ready"]  # a new match needs a new start (R47)
    assert driver.table.match is None and driver.table.seat_of(1) == 0


def test_leaving_during_a_hand_is_an_escape_settled_before_the_seat_is_freed() -> None:
    """R43: an escape ends the hand at once; the seat is freed after the settlement; R47 the match ends."""
    driver = TableDriver(settle=False)
    seat_people_and_bots(driver, [1, 2])
    playing(driver)
    out = driver.do(Leave("c2", ref="run"))
    assert acts(out) == [{"type": "escape", "seat": 1}] and kinds(out) == ["act", "settle"]
    [store] = of(out, StoreHand)
    assert store.result.kind == "escape" and store.result.escaped == 1 and store.number == 1
    assert store.seats[1].account_id == 2
    assert not of(out, Seated) and driver.table.seat_of(2) == 1  # still seated until settled
    assert driver.table.summary()["state"] == "between" and of(out, Disarm)
    out = driver.do(HandSettled(1, 77))
    assert {send.client for send in sends(out, "hand_end")} == {"c1", "c2"}
    assert sends(out, "hand_end", "c1")[0].fields["result"]["kind"] == "escape"
    assert kinds(out) == ["free", "end_match"] and of(out, Seated) == [Seated(2, None)]
    assert sends(out, "left", "c2")[0].fields["reason"] == "escaped"
    assert driver.state() is TableState.WAITING and driver.table.match is None and not driver.table.closed
    assert driver.table.seat_of(1) == 0


def test_the_last_person_escaping_closes_the_table() -> None:
    driver = TableDriver()
    seat_people_and_bots(driver, [1])
    playing(driver)
    out = driver.do(Leave("c1"))
    assert len(of(out, StoreHand)) == 1
    assert kinds(out) == ["act", "settle", "free", "end_match", "close", "free", "free", "free"]
    assert of(out, Closed) == [Closed("empty")] and driver.table.closed
    assert of(out, Seated) == [Seated(1, None)]
    out = driver.do(Join("c5", person(5), 0, ref=1))
    assert [(effect.code, effect.ref) for effect in of(out, Refuse)] == [("no_table", 1)] and not entries(out)
    assert sends(driver.attach(1), "left", "c1")[0].fields["reason"] == "closed"


# ---------------------------------------------------------------------- disconnect, reconnect


def test_a_disconnect_during_a_hand_switches_to_autoplay_and_a_reconnect_back() -> None:
    """R46: the seat goes to 託管 at once; reconnecting gives the full state and turns it off."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    playing(driver)
    out = driver.do(Detach("c2"))
    assert acts(out) == [{"type": "autoplay", "seat": 1, "on": True, "reason": "disconnect"}]
    seat = of(out, SendSummary)[-1].summary["seats"][1]
    assert not seat["connected"] and seat["autoplay"] and driver.round.autoplay[1]
    assert all(("c2", 1) not in state.recipients for state in of(out, SendState))
    driver.run_until(lambda: len(driver.round.tricks) >= 2)  # the 託管 seat plays on its own
    out = driver.attach(2, "c2b")
    assert acts(out) == [{"type": "autoplay", "seat": 1, "on": False, "reason": "reconnect"}]
    [table] = sends(out, "table", "c2b")
    assert table.fields["seat"] == 1
    full = [state for state in states_to(out, "c2b") if state.full]
    assert len(full) == 1 and len(full[0].views[1].hand) == len(driver.round.hands[1])
    seat = of(out, SendSummary)[-1].summary["seats"][1]
    assert seat["connected"] and not seat["autoplay"] and not driver.round.autoplay[1]
    assert driver.table.client_seat("c2b") == 1 and driver.table.client_seat("c2") is None


def test_a_person_still_away_when_the_hand_ends_is_removed_and_the_match_ends() -> None:
    """R46: removed at the end of the hand (no escape penalty: no escape recorded); R3 the match ends."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    playing(driver)
    driver.do(Detach("c2"))
    out = driver.run_to_hand_end()
    assert not any(action["type"] == "escape" for action in acts(out))
    [store] = of(out, StoreHand)
    assert store.result.kind == "played"
    assert kinds(out)[-2:] == ["free", "end_match"] and entries(out)[-2]["seat"] == 1
    assert of(out, Seated) == [Seated(2, None)] and not sends(out, "left", "c2")
    assert driver.state() is TableState.WAITING and driver.table.seat_of(1) == 0 and not driver.table.closed
    assert sends(driver.attach(2), "left", "c2") == [Send("c2", "left", {"table_id": "t1", "reason": "removed"})]


def test_a_disconnect_while_waiting_frees_the_seat() -> None:
    driver = TableDriver()
    driver.join(1, 0)
    driver.join(2, 1)
    out = driver.do(Detach("c2"))
    assert kinds(out) == ["free"] and of(out, Seated) == [Seated(2, None)] and not sends(out, "left")
    assert driver.table.seats[1].kind == "empty"
    assert not driver.do(Detach("c2"))  # an unknown connection: nothing


def test_a_disconnect_keeps_autoplay_the_player_asked_for() -> None:
    """RULES-NOTES R46: a reconnect turns 託管 off only if the disconnect turned it on."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    playing(driver)
    driver.do(RequestAutoPlay("c2", True))
    assert not acts(driver.do(Detach("c2")))
    out = driver.attach(2)
    assert not acts(out) and driver.round.autoplay[1] and of(out, SendSummary)[-1].summary["seats"][1]["autoplay"]


def test_start_is_pressed_again_for_a_new_match() -> None:
    """R47: after a match ended, the remaining people press start again."""
    driver = TableDriver()
    seat_people_and_bots(driver, [1, 2])
    driver.do(RequestAutoPlay("c1", True))
    driver.do(RequestAutoPlay("c2", True))
    driver.run_to_hand_end()
    driver.do(Leave("c2"))
    driver.join(3, 1)
    out = driver.start(3)
    assert kinds(out) == ["ready"] and driver.state() is TableState.WAITING
    out = driver.do(Start("c1"))
    assert kinds(out) == ["ready", "match", "round"] and entries(out)[1]["seed"] == SEED + 1


def test_refresh_shows_the_players_new_titles() -> None:
    """R42: titles follow the accounts; they are the accounts' (reloaded), not the table log's."""
    driver = TableDriver()
    driver.join(1, 0)
    titled = Player(1, "p1", "秀才", "臨時工")
    out = driver.do(Refresh({0: titled}))
    assert not entries(out) and of(out, SendSummary)[0].summary["seats"][0]["account"] == titled.to_json()
    assert driver.do(Refresh({0: titled})) == []  # nothing changed
    assert driver.do(Refresh({0: Player(9, "p9")})) == []  # not who sits there
    assert driver.table.seats[0].player == titled


# ---------------------------------------------------------------------- what leaving costs (R43)


def test_each_seat_is_told_what_leaving_costs_and_a_guarded_leave_asks_first() -> None:
    """R43: during a hand each person's state says what leaving would cost (6× its bases, floored at
    what it holds); a ``leave`` with ``escape`` false is refused with those figures and changes
    nothing; with ``escape`` true (or left out) it is the escape. Between hands it costs nothing."""
    driver = TableDriver(settle=False)
    rich = Player(1, "p1", "秀才", "助理主管", Balance(150, 1000))  # bases 2 and 8: 12 points, 48 silver
    poor = Player(2, "p2", "布衣", "待業", Balance(3, 4))  # bases 1 and 1, floored: 3 points, 4 silver
    driver.do(Join("c1", rich, 0))
    driver.do(Join("c2", poor, 1))
    assert kinds(driver.do(Leave("c2", escape=False))) == ["free"]  # waiting: it costs nothing (R47)
    assert [state.escape_costs for state in of(driver.do(Sync("c1")), SendState)] == [{}]
    driver.do(Join("c2", poor, 1))
    for seat in (2, 3):
        driver.do(AddBot("c1", seat, "heuristic"))
    driver.start(1)
    driver.start(2)
    playing(driver)
    [full] = of(driver.do(Sync("c1")), SendState)
    assert full.escape_costs == {0: Change(-12, -48)}
    [broadcast] = of(driver.do(RequestAutoPlay("c1", False, ref="off")), SendState)
    assert broadcast.escape_costs == {0: Change(-12, -48), 1: Change(-3, -4)}
    out = driver.do(Leave("c2", ref="maybe", escape=False))
    assert [(refusal.code, refusal.rule, refusal.params) for refusal in of(out, Refuse)] == [
        ("would_escape", "R43", {"rule": "R43", "points": 3, "silver": 4})
    ]
    assert not entries(out) and driver.table.seat_of(2) == 1 and driver.table.hand_running()
    out = driver.do(Leave("c2", ref="go", escape=True))
    assert acts(out) == [{"type": "escape", "seat": 1}]
