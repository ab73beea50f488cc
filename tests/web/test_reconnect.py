"""The page reconnects by itself (issue 13): "reconnecting…" shows while the socket retries after having been
open or when the server says it restarts, and the page comes back to the same table without a reload."""

from __future__ import annotations

import json
import os
import re
import signal
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.live_server import LiveServer
from tests.web.client import Player
from tests.web.conftest import SERVER_ARGS

pytestmark = pytest.mark.browser


def test_server_restarting_then_back_at_the_same_table(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="zh-TW")
    routes: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def through(ws: WebSocketRoute) -> None:
        routes.append((ws, ws.connect_to_server()))

    page.route_web_socket(re.compile(r"/ws$"), through)
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots()
    player.bid_during_deal()
    player.wait_for_play()
    names = page.locator(".seat .nick").all_inner_texts()
    page.evaluate("() => { window.__before = 'same page'; }")
    banner = page.locator("#reconnect")
    expect(banner).to_be_hidden()
    # The server says it restarts (as a graceful restart will), then the socket closes with 1012.
    to_page, to_server = routes[-1]
    to_page.send(json.dumps({"v": 2, "type": "server_restarting"}))
    expect(banner).to_be_visible()
    expect(banner).to_have_text("伺服器正在重新啟動，馬上重新連線…")
    player.shot("reconnecting")
    count = len(routes)
    to_server.close()
    to_page.close(code=1012, reason="service restart")
    # It reconnects by itself: welcome names the table, then the table and a full state come (R46).
    page.wait_for_function("() => document.body.dataset.conn !== 'open'")
    page.wait_for_function("() => document.body.dataset.conn === 'open'")
    assert len(routes) == count + 1
    expect(banner).to_be_hidden()
    expect(page.locator("#table-screen")).to_be_visible()
    assert page.locator(".seat .nick").all_inner_texts() == names
    expect(page.locator("#hand .card").first).to_be_visible()
    assert page.evaluate("() => window.__before") == "same page"  # no reload
    expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
    if player.wait_for_turn_or_end():
        player.play_hint()
    assert player.errors == []
    page.close()


def test_after_a_crash_the_page_comes_back_to_its_table(
    browser: Browser, live_server_factory: Callable[..., LiveServer], screenshots: Path
) -> None:
    """kill -9 of the server: the page says the connection is lost and retries; the server, started
    again on the same database, restores the table from its log, and the page is back at it."""
    first = live_server_factory(args=SERVER_ARGS)
    port = str(urlparse(first.url).port)
    page = browser.new_page(viewport={"width": 375, "height": 812}, locale="en-US")
    player = Player(page, first.url, screenshots)
    player.enter_as_guest()
    nick = page.locator("#me-nick").inner_text()
    player.start_with_bots()
    player.wait_for_play()
    names = page.locator(".seat .nick").all_inner_texts()
    banner = page.locator("#reconnect")
    first.kill()
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Connection lost: reconnecting…")
    live_server_factory(db_path=first.db_path, args=(*SERVER_ARGS, "--port", port))
    expect(banner).to_be_hidden(timeout=20_000)
    expect(page.locator("#me-nick")).to_have_text(nick)  # the same account: the token is kept
    expect(page.locator("#table-screen")).to_be_visible()
    expect(page.locator("#hand .card").first).to_be_visible()
    assert page.locator(".seat .nick").all_inner_texts() == names
    assert player.errors == []
    page.close()


def test_a_server_that_stops_answering_is_left_and_the_page_comes_back(
    browser: Browser, live_server_factory: Callable[..., LiveServer], screenshots: Path
) -> None:
    """The node freezes (SIGSTOP: its sockets stay open, nothing closes them): the page's `ping` goes
    unanswered, it says the connection is lost and reconnects by itself, and it is back at its table
    once the server answers again (issue 48)."""
    # Bots slow enough that 託管 cannot finish the hand while the page reconnects (R46).
    server = live_server_factory(args=(*SERVER_ARGS, "--bot-delay", "0.5"))
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots()
    player.wait_for_play()
    names = page.locator(".seat .nick").all_inner_texts()
    banner = page.locator("#reconnect")
    expect(banner).to_be_hidden()
    os.kill(server.pid, signal.SIGSTOP)
    try:
        # Nothing closes the socket: only the page's own watch can tell (a ping, then its answer's wait).
        expect(banner).to_be_visible(timeout=30_000)
        expect(banner).to_have_text("Connection lost: reconnecting…")
    finally:
        os.kill(server.pid, signal.SIGCONT)
    page.wait_for_function("() => document.body.dataset.conn === 'open'", timeout=30_000)
    expect(banner).to_be_hidden()
    expect(page.locator("#table-screen")).to_be_visible()
    assert page.locator(".seat .nick").all_inner_texts() == names
    expect(page.locator("#hand .card").first).to_be_visible()
    # The connection it left closed once the server woke (R46: 託管 at once); the new one took the seat back.
    expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
    assert player.errors == []
    page.close()
