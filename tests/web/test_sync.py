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
