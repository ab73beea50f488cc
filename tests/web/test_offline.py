"""While the server restarts (issue 44): the page greys its moves out and says it reconnects, a play sent
just before the connection went is said to be unanswered (never dropped silently), and afterwards the
player plays on at the same table while a spectator is back at the table it watched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, ViewportSize, WebSocketRoute, expect

from tests.live_server import LiveServer, free_port
from tests.web.client import Player
from tests.web.conftest import SERVER_ARGS
from tests.web.layout import layout_problems

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 375, "height": 812}


def test_moves_during_a_restart_are_held_or_said_and_a_spectator_comes_back(
    browser: Browser, tmp_path: Path, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    db, port = tmp_path / "restart.sqlite3", free_port()
    server = LiveServer(db, SERVER_ARGS, port=port).start()
    try:
        seated = browser.new_context(viewport=PHONE, locale="zh-TW")
        watching = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-TW")
        contexts.extend((seated, watching))
        a = seated.new_page()
        swallowed: list[str] = []

        def through(ws: WebSocketRoute) -> None:
            """Pass everything on, but the first play (it never reaches the server: its answer never comes)."""
            to_server = ws.connect_to_server()

            def from_page(message: str | bytes) -> None:
                if isinstance(message, str) and '"type":"play"' in message and not swallowed:
                    swallowed.append(message)
                    return
                to_server.send(message)

            ws.on_message(from_page)

        a.route_web_socket(re.compile(r"/ws$"), through)
        player = Player(a, server.url, screenshots)
        player.enter_as_guest()
        player.start_with_bots()
        player.wait_for_play()
        viewer = Player(watching.new_page(), server.url, screenshots)
        viewer.enter_as_guest()
        b = viewer.page
        b.locator(".table-item [data-action=watch]").click()
        expect(b.locator("#table-screen")).to_be_visible()
        names = b.locator(".seat .nick").all_inner_texts()

        assert player.wait_for_turn_or_end()
        size = player.hand_size()
        a.locator("[data-action=hint]").click()
        a.locator("[data-action=play]").click()
        server.stop()  # SIGTERM to the process this test started: a graceful restart
        status = a.locator(".status-line")
        expect(status).to_contain_text("連線中斷時「出牌」還沒有回音：可能沒有送到，連上後請看牌桌再試")
        expect(a.locator("#table-screen")).to_have_attribute("data-online", "false")
        for action in ("hint", "play", "leave", "phrases", "autoplay"):
            expect(a.locator(f"[data-action={action}]")).to_be_disabled()
        expect(a.locator("#reconnect")).to_be_visible()
        expect(a.locator("#turn-timer")).to_be_hidden()
        assert player.hand_size() == size
        problems = layout_problems(a)
        assert problems == [], problems
        player.shot("phone-offline")
        expect(status).to_have_text("重新連接中…：暫時不能出牌", timeout=10_000)
        expect(b.locator("#table-screen")).to_have_attribute("data-online", "false")

        server = LiveServer(db, SERVER_ARGS, port=port).start()
        # The player is back at the same hand, still to play (a restart is not a disconnect, R46), and plays.
        expect(a.locator("#table-screen")).to_have_attribute("data-online", "true", timeout=30_000)
        expect(a.locator("#reconnect")).to_be_hidden()
        expect(a.locator("#table-screen")).to_have_attribute("data-my-turn", "true")
        assert player.hand_size() == size and swallowed
        player.play_hint()
        # The spectator is back at the table it watched, not in the lobby.
        expect(b.locator("#table-screen")).to_have_attribute("data-online", "true", timeout=30_000)
        expect(b.locator("#table-screen")).to_be_visible()
        expect(b.locator("#lobby-screen")).to_be_hidden()
        expect(b.locator(".trick .play").first).to_be_visible()  # the hand goes on under its eyes
        assert b.locator("#hand .card").count() == 0 and b.locator("[data-action=play]").count() == 0
        assert b.locator(".seat .nick").all_inner_texts() == names
        assert player.errors == [] and viewer.errors == []
        assert server.errors() == []
    finally:
        server.stop()
