"""A press that spans an update still clicks: the parts of the page with buttons that updates redraw (the
table's action bar, the lobby's list of tables) keep the button under a finger, so a mouse press begun
before a message redraws them and released after lands on the button it began on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, ElementHandle, Page, expect

from tests.live_server import LiveServer
from tests.web.client import LONG, person
from tests.web.conftest import SERVER_ARGS

pytestmark = pytest.mark.browser

REPLACED = """
window.__replaced = [];
const path = (node, top) => {
  const names = [];
  for (let at = node; at && at !== top; at = at.parentNode) {
    const name = at.dataset?.key ?? at.dataset?.seat ?? at.id;
    if (name) names.push(name);
  }
  return names.join("<");
};
const buttons = (node) => node instanceof Element
  ? [...(node.matches("button[data-action]") ? [node] : []), ...node.querySelectorAll("button[data-action]")] : [];
new MutationObserver((records) => {
  const gone = new Set();
  const came = [];
  for (const record of records) {
    if (!(record.target instanceof Element) || !record.target.closest("#table-screen, #lobby-screen")) continue;
    const where = path(record.target, document);
    const key = (button, root) => `${path(button, root.parentNode)}<${where}|${button.dataset.action}`
      + `|${button.dataset.suit ?? ""}${button.dataset.count ?? ""}`;
    for (const node of record.removedNodes) for (const button of buttons(node)) gone.add(key(button, node));
    for (const node of record.addedNodes) for (const button of buttons(node)) came.push(key(button, node));
  }
  for (const key of came) if (gone.has(key)) window.__replaced.push(key);
}).observe(document, { childList: true, subtree: true });
"""
"""Every button of the table or the lobby that an update took away and put back as a new element (the same
action, in the same place): a press begun before the update would not click it."""


def press(page: Page, button: ElementHandle) -> None:
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def test_a_press_on_the_action_bar_spans_the_next_move(
    browser: Browser,
    live_server_factory: Callable[..., LiveServer],
    screenshots: Path,
    contexts: list[BrowserContext],
) -> None:
    server = live_server_factory(args=(*SERVER_ARGS, "--bot-delay", "0.6"))  # the next bot moves 0.6 s after me
    alice = person(browser, contexts, server.url, screenshots, script=REPLACED)
    a = alice.page
    alice.start_with_bots()
    alice.wait_for_play()
    assert alice.wait_for_turn_or_end()
    alice.play_hint()
    moved = """([plays, turn]) => document.querySelectorAll('.trick .play').length !== plays
        || document.querySelector('.seat.turn')?.dataset.seat !== turn"""
    plays = a.locator(".trick .play").count()
    turn = a.locator(".seat.turn").first.get_attribute("data-seat")
    button = a.locator("[data-action=autoplay]").element_handle()
    assert button.get_attribute("aria-pressed") == "false"
    press(a, button)
    a.wait_for_function(moved, arg=[plays, turn], timeout=LONG)  # a bot moved: the bar was drawn again
    a.mouse.up()
    assert button.evaluate("el => el.isConnected")
    expect(a.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "true")
    assert alice.errors == []


def test_a_press_on_a_lobby_seat_spans_a_change_of_the_table(
    browser: Browser, server: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    alice, bob = (person(browser, contexts, server.url, screenshots, script=REPLACED) for _ in range(2))
    a, b = alice.page, bob.page
    alice.fill_create_form().locator("button[value=create]").click()
    expect(a.locator("#table-screen")).to_be_visible()
    sit = b.locator(".table-item [data-action=join][data-seat='2']")
    expect(sit).to_be_visible()
    button = sit.element_handle()
    press(b, button)
    a.locator(".seat[data-seat='1'] [data-action=add-bot]").click()  # the table changes: Bob's list is redrawn
    expect(b.locator(".table-item .seat-chip").nth(1)).not_to_have_class("seat-chip empty")
    b.mouse.up()
    assert button.evaluate("el => el.isConnected")
    expect(b.locator("#table-screen")).to_be_visible()
    expect(b.locator(".seat[data-seat='2'] .nick")).to_contain_text("(you)")
    assert alice.errors == [] and bob.errors == []


def test_no_button_is_drawn_again_as_a_new_element_over_a_whole_hand(
    browser: Browser, server: LiveServer, screenshots: Path, contexts: list[BrowserContext]
) -> None:
    """The deal (a card at a time, the bid buttons), the bids, every trick and its review, the settlement:
    no button of the table is replaced by its equal (the class of a lost press, found wherever it is)."""
    alice = person(browser, contexts, server.url, screenshots, script=REPLACED)
    a = alice.page
    alice.start_with_bots(review_seconds="1")
    alice.bid_during_deal()
    alice.wait_for_play()
    while alice.wait_for_turn_or_end():
        alice.play_hint()
    replaced = a.evaluate("() => window.__replaced")
    assert replaced == [], sorted(set(replaced))
    assert alice.errors == []
