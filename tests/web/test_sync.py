"""A lost `state` (PROTOCOL.md §3: pub/sub between nodes delivers at most once): the page sees the gap
in `seq`, asks for `sync`, and gets the full picture back."""

from __future__ import annotations

import json
import re
from pathlib import Path

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
