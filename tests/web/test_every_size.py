"""The table at every common screen size (issue 44: close the class, not the instance): the layout checker
(tests/web/layout.py) over :data:`~tests.web.layout.ALL_SIZES` — phones from 320 × 568 to 430 × 932 upright
and on their side, tablets, laptops, desktops — in the three languages, at the table's worst moments:

- the lobby;
- the bid window after the deal: 54 cards in hand, five bids to choose from and 不叫 (a real 600-second window,
  the server started with a seed that leaves the player a bid; the bids rewritten on their way to the page);
- the player's first turn (54 cards, the turn timer);
- a trick's review window (R33) with the action bar at its fullest — 提醒, 撤牌 with its cost, 上一輪 — and
  54 cards in hand (the server's view rewritten on its way to the page: the longest bar the client can draw);
- a waiting room (who is ready, who is missing, the empty seats and their buttons);
- the review window again with the connection gone: the reconnect strip and the offline status line take room.

Each moment is held still while it is measured: once it shows, the page gets no more of the server's
frames (the picture stays as it was, however long the checks take). On the smallest phone (320 × 568) the
hand scrolls in its own area (docs/CLIENT.md, "Screens"): a finger's swipe scrolls it and selects nothing, a
tap still selects.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, WebSocketRoute, expect

from tests.live_server import LiveServer
from tests.web.client import Player
from tests.web.layout import ALL_SIZES, check_sizes, settle
from tests.web.test_hand_layout import WORST_HANDS
from tests.web.test_pass_button import bid_left_at_seat_0

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
"""English first: its labels are usually the longest."""

FIVE_GROUPS = WORST_HANDS["five groups"][0]


class Frames:
    """The server's frames on their way to the page: passed on, rewritten by :attr:`edit`, or held back
    (:attr:`frozen`: the page keeps showing what it shows; the answers to its pings still come, so it
    does not take the connection for lost)."""

    def __init__(self) -> None:
        self.frozen = False
        self.edit: Callable[[dict[str, Any]], None] | None = None

    def route(self, ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if self.frozen and data.get("type") != "pong":
                return
            if data.get("type") == "state" and data.get("view") and self.edit:
                self.edit(data["view"])
                message = json.dumps(data)
            ws.send(message)

        ws.on_message(upstream.send)
        upstream.on_message(to_page)


FIVE_BIDS = [{"suit": suit, "count": count} for suit, count in (("S", 1), ("S", 2), ("H", 1), ("C", 1), ("D", 1))]
"""What a hand of two ♠ and one each of ♥ ♣ ♦ of the level's rank may bid while nobody has (R16): a common deal."""


def fullest(view: dict[str, Any]) -> None:
    """The moments at their fullest. The bid window: nobody has bid yet and five bids to choose from. The first
    trick's review window: 54 cards in hand, 提醒 and 撤牌 offered and a trick before it to show with 上一輪 (this
    one, as the second trick's review would have it): the longest action bar."""
    if view["phase"] == "bidding":
        view["bid_options"] = FIVE_BIDS
        view["bid"] = None
        view["bids"] = []
    if view["phase"] == "review":
        view["hand"] = FIVE_GROUPS
        view["can_remind"] = True
        view["can_retract"] = True
        trick = view["trick"]
        view["last_trick"] = view["last_trick"] or {
            "leader": trick[0]["seat"],
            "plays": trick,
            "winner": trick[0]["seat"],
            "points": 0,
            "multiplier": 1,
        }


SMALLEST: ViewportSize = {"width": 320, "height": 568}
"""The smallest phone: 54 cards at 28 × 40 px strips do not fit beside the felt, the hand scrolls in its own area."""
SHOTS = ((320, 568), (568, 320), (360, 640))
"""Screenshots of the review window at the smallest phones (docs/screenshots/table-WxH.png)."""


def swipe_scrolls_the_smallest_hand(page: Page) -> None:
    """At 320 × 568 the hand of 54 cards scrolls in its own area: a finger's swipe up scrolls it and selects
    nothing, a tap still selects the card under it."""
    page.set_viewport_size(SMALLEST)
    settle(page)
    hand = page.locator("#hand")
    assert hand.evaluate("el => el.classList.contains('scrolls') && getComputedStyle(el).touchAction") == "pan-y"
    hand.evaluate("el => { el.scrollTop = 0; }")
    box = hand.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] - 12
    # A finger as Chromium's DevTools protocol makes one: the page pans and taps as on a phone.
    finger = page.context.new_cdp_session(page)
    finger.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        finger.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 12 * step}]})
    finger.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finger.detach()
    page.wait_for_function("() => document.querySelector('#hand').scrollTop > 20")
    assert page.locator("#hand .card.selected").count() == 0
    card = page.locator("#hand .card").first
    card.scroll_into_view_if_needed()
    card.tap(position={"x": 8, "y": 12})
    expect(page.locator("#hand .card.selected")).to_have_count(1)
    card.tap(position={"x": 8, "y": 12})
    expect(page.locator("#hand .card.selected")).to_have_count(0)


def waiting_room(browser: Browser, server: LiveServer, screenshots: Path) -> dict[str, list[str]]:
    """The layout checker's problems in a waiting room (someone else's new table: who is ready, who is missing,
    the empty seats with their buttons) at every size in every language."""
    page = browser.new_page(locale="en-GB")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.fill_create_form().locator("button[value=create]").click()
    expect(page.locator(".waiting-list li")).to_have_count(4)
    found = every_size_and_language(page)
    assert player.errors == []
    page.close()
    return found


def every_size_and_language(page: Page) -> dict[str, list[str]]:
    """The layout checker's problems at each of :data:`ALL_SIZES` in each language ("en 375x667" → problems)."""
    found: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        page.locator("#lang").select_option(lang)
        for size, problems in check_sizes(page, ALL_SIZES).items():
            found[f"{lang} {size}"] = problems
    return found


def test_the_table_at_every_size_in_every_language(browser: Browser, tmp_path: Path, screenshots: Path) -> None:
    seed = next(seed for seed in range(200) if bid_left_at_seat_0(seed))
    args = ("--bot-delay", "0.03", "--log-level", "info", "--seed", str(seed))
    frames = Frames()
    frames.edit = fullest
    found: dict[str, dict[str, list[str]]] = {}
    with LiveServer(tmp_path / "db.sqlite3", args) as server:
        page = browser.new_page(viewport={"width": 375, "height": 667}, locale="en-GB", has_touch=True)
        page.route_web_socket(re.compile(r"/ws$"), frames.route)
        player = Player(page, server.url, screenshots)
        player.enter_as_guest()
        found["lobby"] = every_size_and_language(page)
        # A bid window and a turn that outlast the checks, a review window after each trick (R33).
        player.start_with_bots(bid_window_seconds="600", deal_interval_ms="0", review_seconds="60", turn_seconds="600")
        table = page.locator("#table-screen")
        expect(table).to_have_attribute("data-phase", "bidding")
        expect(page.locator(".bid-bar [data-action=pass]")).to_be_visible()
        expect(page.locator(".bid-bar [data-action=bid]")).to_have_count(len(FIVE_BIDS))
        assert player.hand_size() == 54
        frames.frozen = True
        found["bid window"] = every_size_and_language(page)
        frames.frozen = False
        page.locator(".bid-bar [data-action=pass]").click()
        player.wait_for_play()
        assert player.wait_for_turn_or_end()
        frames.frozen = True
        assert player.hand_size() == 54
        found["my turn"] = every_size_and_language(page)
        frames.frozen = False
        page.locator("[data-action=hint]").click()
        page.locator("[data-action=play]").click()  # then the trick's review window (R33)
        expect(table).to_have_attribute("data-phase", "review")
        expect(page.locator(".trick .play")).to_have_count(4)
        frames.frozen = True
        for action in ("remind", "retract", "last-trick"):
            expect(page.locator(f".action-bar [data-action={action}]")).to_be_visible()
        assert player.hand_size() == 54
        found["review"] = every_size_and_language(page)
        for width, height in SHOTS:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            player.shot(f"table-{width}x{height}")
        swipe_scrolls_the_smallest_hand(page)
        found["waiting room"] = waiting_room(browser, server, screenshots)
        server.stop()
        expect(page.locator("#reconnect")).to_be_visible()
        found["offline"] = every_size_and_language(page)
    assert {moment: problems for moment, problems in found.items() if problems} == {}
    assert player.errors == []
    page.close()
