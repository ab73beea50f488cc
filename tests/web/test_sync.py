"""A lost `state` (PROTOCOL.md §3: pub/sub between nodes delivers at most once): the page sees the gap
in `seq`, asks for `sync`, and gets the full picture back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocketRoute

from tests.live_server import LiveServer
from tests.web.client import Player

pytestmark = pytest.mark.browser


def test_a_gap_in_seq_asks_for_the_full_state(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
    sent: list[dict[str, object]] = []
    received: list[dict[str, object]] = []
    dropped: list[int] = []

    def through(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            sent.append(json.loads(message))
            upstream.send(message)

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            playing = data.get("type") == "state" and data.get("view") and data["view"]["phase"] == "playing"
            if playing and not data["full"] and not dropped:
                dropped.append(data["seq"])  # lost on the way
                return
            received.append(data)
            ws.send(message)

        ws.on_message(to_server)
        upstream.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws$"), through)
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots()
    player.wait_for_play()
    player.wait_for_turn_or_end()
    assert dropped, "no state was dropped"
    assert any(message.get("type") == "sync" for message in sent), "the page did not ask for the full state"
    after = [m for m in received if m.get("type") == "state" and isinstance(m["seq"], int) and m["seq"] > dropped[0]]
    assert after and after[0]["full"] is False  # the next state showed the gap ...
    fulls = [m for m in after if m["full"]]  # ... and the page was sent the full picture
    assert fulls, "no full state came back"
    assert player.errors == []
    page.close()


STREAM_RULES = """async () => {
  const { StateStream } = await import('/static/stream.js');
  const stream = new StateStream();
  const state = (epoch, seq, full, table = 't1') => stream.accept({ table_id: table, epoch, seq, full });
  return [
    state(2, 0, true),    // joined: the full picture
    state(2, 1, false),   // the next one
    state(2, 3, false),   // one lost on the way: shown, and sync asked
    state(2, 3, false),   // seen already
    state(1, 9, true),    // the table's old server, late: never shown, full or not
    state(1, 10, false),
    state(3, 0, false),   // a new server's first state must be full: not shown, sync asked
    state(3, 0, true),    // its full picture
    state(3, 1, false),
    state(0, 0, true, 't2'),  // another table (the client sat down elsewhere)
  ];
}"""


def test_the_state_stream_drops_an_older_servers_states(browser: Browser, server: LiveServer) -> None:
    """PROTOCOL.md §3: every `state` carries the epoch (fencing token) of the server that runs the
    table; the page's stream (`stream.js`) shows a state only if it continues what it showed."""
    page = browser.new_page()
    page.goto(server.url)
    assert page.evaluate(STREAM_RULES) == [
        "show", "show", "show_and_sync", "drop", "drop", "drop", "sync", "show", "show", "show",
    ]  # fmt: skip
    page.close()


RECORD_PHRASES = """window.__phrases = 0;
window.addEventListener('tuolaji:phrase', () => { window.__phrases += 1; });"""


def test_a_late_state_of_an_older_epoch_is_not_shown(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
    page.add_init_script(RECORD_PHRASES)
    pages: list[WebSocketRoute] = []
    states: list[dict[str, Any]] = []

    def through(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        pages.append(ws)

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                states.append(data)
            ws.send(message)

        ws.on_message(upstream.send)
        upstream.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws$"), through)
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots()
    player.wait_for_play()
    assert player.wait_for_turn_or_end(), "the hand ended before the page's first turn"
    shown = player.hand_size()
    newest = states[-1]
    assert newest["epoch"] == 0 and shown > 0  # one server: the epoch stays 0
    # What the table's old server sends late: a full picture with no cards in hand, numbered ahead.
    late = {**newest, "epoch": -1, "seq": newest["seq"] + 5, "full": True, "view": {**newest["view"], "hand": []}}
    marker = {"v": 2, "type": "phrase", "table_id": newest["table_id"], "seat": 1, "account": 0, "phrase": "hello"}
    pages[-1].send(json.dumps(late))
    pages[-1].send(json.dumps(marker))  # handled after the late state: once it shows, the state was handled
    page.wait_for_function("() => window.__phrases >= 1")
    assert player.hand_size() == shown, "a state of an older epoch was shown"
    assert player.errors == []
    page.close()


AGAIN_RULES = """async () => {
  const { Resender, stillApplies, againText } = await import('/static/again.js');
  const i18n = await import('/static/i18n.js');
  i18n.setLanguage('en');
  const view = (fields) => ({
    phase: 'playing', to_move: 1, hand: ['AS', 'AS', '3H'], autoplay: [false, false, false, false],
    bid_options: [], passes: [false, false, false, false], ...fields,
  });
  const at = (fields, seat = 1) => ({ summary: null, seat, view: view(fields), clock: null });
  const play = { type: 'play', cards: ['AS', 'AS'], confirmed: false };
  const bid = { type: 'bid', suit: 'H', count: 2 };
  const pass = { type: 'pass' };
  const on = { type: 'autoplay', on: true };
  const applies = {
    play_my_turn: stillApplies(play, at({})),
    play_not_my_turn: stillApplies(play, at({ to_move: 2 })),
    play_cards_gone: stillApplies(play, at({ hand: ['AS', '3H'] })),
    play_on_autoplay: stillApplies(play, at({ autoplay: [false, true, false, false] })),
    play_watching: stillApplies(play, at({}, null)),
    bid_offered: stillApplies(bid, at({ phase: 'bidding', bid_options: [{ suit: 'H', count: 2 }] })),
    bid_while_dealing: stillApplies(bid, at({ phase: 'dealing', bid_options: [{ suit: 'H', count: 2 }] })),
    bid_outbid: stillApplies(bid, at({ phase: 'bidding', bid_options: [{ suit: 'H', count: 3 }] })),
    bid_window_shut: stillApplies(bid, at({ bid_options: [{ suit: 'H', count: 2 }] })),
    pass_open: stillApplies(pass, at({ phase: 'bidding', bid_options: [{ suit: 'H', count: 2 }] })),
    pass_said: stillApplies(pass, at({
      phase: 'bidding', bid_options: [{ suit: 'H', count: 2 }], passes: [false, true, false, false] })),
    pass_nothing_to_bid: stillApplies(pass, at({ phase: 'bidding' })),
    autoplay_off_now: stillApplies(on, at({})),
    autoplay_on_already: stillApplies(on, at({ autoplay: [false, true, false, false] })),
    autoplay_hand_over: stillApplies(on, at({ phase: 'finished' })),
  };
  const resender = new Resender();
  resender.sent('m1', play);
  resender.sent('m2', on);
  resender.sent('m3', { type: 'autoplay', on: false });
  resender.sent('m4', bid);
  const flow = {
    acked: resender.answered('m4', null),
    refused_for_a_rule: resender.answered('m1', 'not_your_turn'),
    unknown_id: resender.answered('m9', 'table_moving'),
    kept_first: resender.answered('m2', 'table_moving'),
    kept_second: resender.answered('m3', 'table_moving'),
  };
  const due = resender.due(at({ autoplay: [false, true, false, false] }));
  flow.sent = due.send;
  flow.dropped = due.dropped;
  flow.due_again = resender.due(at({}));
  resender.sent('m5', play);
  resender.answered('m5', 'table_moving');
  resender.forget();
  flow.after_forget = resender.due(at({}));
  const texts = [play, bid, pass, on].map(againText);
  return { applies, flow, texts };
}"""


def test_requests_refused_while_the_table_moves_are_sent_again_only_when_they_still_apply(
    browser: Browser, server: LiveServer
) -> None:
    """PROTOCOL.md §3: a play, bid (R14–R18), 不叫 (R19) or 託管 (R45) refused with `table_moving` is
    kept by the page (`again.js`) and sent again with the table's next state if the same request is
    still what the player asked for; a second press of a kind replaces the first; a reconnection
    forgets them. The live path (a node killed under a playing page) is `test_home.py`."""
    page = browser.new_page()
    page.goto(server.url)
    result = page.evaluate(AGAIN_RULES)
    page.close()
    assert result["applies"] == {
        "play_my_turn": True,
        "play_not_my_turn": False,
        "play_cards_gone": False,
        "play_on_autoplay": False,
        "play_watching": False,
        "bid_offered": True,
        "bid_while_dealing": True,
        "bid_outbid": False,
        "bid_window_shut": False,
        "pass_open": True,
        "pass_said": False,
        "pass_nothing_to_bid": False,
        "autoplay_off_now": True,
        "autoplay_on_already": False,
        "autoplay_hand_over": False,
    }
    flow = result["flow"]
    assert flow["acked"] is None and flow["refused_for_a_rule"] is None and flow["unknown_id"] is None
    assert flow["kept_first"] == {"type": "autoplay", "on": True}
    assert flow["kept_second"] == {"type": "autoplay", "on": False}
    # The second 託管 press replaced the first: only "off" is due, and on a seat that is on 託管 it applies.
    assert flow["sent"] == [{"type": "autoplay", "on": False}] and flow["dropped"] == []
    assert flow["due_again"] == {"send": [], "dropped": []}
    assert flow["after_forget"] == {"send": [], "dropped": []}
    assert result["texts"] == ["♠A ♠A", "Bid ♥×2", "Pass (不叫)", "Auto-play"]
