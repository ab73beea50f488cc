"""Issue 44: whatever the deal, every card of a 54-card hand shows a strip of at least 28 × 40 CSS px that a tap
lands on, at the five screen sizes of tests/web/layout.py and the smallest phone upright and on its side (where the
hand scrolls in its own area: each card is measured scrolled into view), and the table around the hand keeps its
panels apart.

The hands are laid out by the client's own ``Hand`` (hand.js) in the table's own hand slot of a real table in
play against bots on a real server: the table's hand element is taken out of the page (the table goes on drawing
into it there) and a ``Hand`` of chosen cards takes its place, so the felt, the trick, the status line, the timer
and the action bar around it are the real ones. The table waits in a trick's review window (R33), the four plays
on the felt and the longest action bar (English, 撤牌 with its cost when it is offered); then the connection
drops, and the reconnect strip and the offline status line squeeze the felt further.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live_server import LiveServer
from tests.web.client import Player
from tests.web.layout import CARD_STRIPS, SIZES, SMALLEST, layout_problems, settle

pytestmark = pytest.mark.browser

MIN_STRIP = (28, 40)
"""Issue 44: the narrowest strip of a hand card a finger can tap (CSS px, wide × tall)."""

RANKS = "3456789JQKA"
"""The ranks that are not trumps at level T (the 2s and the level's rank are, R9)."""

Hand = tuple[list[str], str, str | None]
"""A hand to lay out: its cards, the level's rank and the trump suit (None: no trump suit)."""


def plain(suit: str, count: int) -> list[str]:
    """``count`` cards of ``suit`` that are not trumps at level T, four decks' worth at most (44)."""
    cards = [rank + suit for rank in reversed(RANKS) for _ in range(4)]
    assert count <= len(cards)
    return cards[:count]


TRUMPS = ["BJ"] * 4 + ["SJ"] * 4 + [rank + suit for rank in "T2" for suit in "HSCD" for _ in range(4)]
"""The 40 trumps of level T that belong to no suit's group: jokers, every 10 and every 2 (R9)."""


def made(trumps: int, trump: str | None = "H", **suits: int) -> Hand:
    """A hand at level T of ``trumps`` cards of :data:`TRUMPS` (then hearts if ♥ is trump) and so many cards
    of each plain suit (``S=11, C=8``)."""
    extra = plain("H", trumps - len(TRUMPS)) if trumps > len(TRUMPS) else []
    cards = TRUMPS[:trumps] + extra + [card for suit, count in suits.items() for card in plain(suit, count)]
    assert len(cards) == 54, (trumps, suits)
    return cards, "T", trump


WORST_HANDS: dict[str, Hand] = {
    # No trump suit: five display groups (trumps, ♠, ♥, ♣, ♦), so the most gaps between groups.
    "five groups": made(10, None, S=11, H=11, C=11, D=11),
    # Each group one under a phone row (12 cards): the gaps are what would push a row past its width.
    "groups just under a row": made(11, None, S=11, H=10, C=11, D=11),
    # Each group one or two over a phone row: kept whole, they would take eight rows at 375 px.
    "groups just over a row": made(13, S=13, C=14, D=14),
    # Only trumps: one group split over every row.
    "all trumps": made(54),
    # Tiny groups first, then one suit as long as four decks allow.
    "tiny groups then one long suit": made(1, S=1, C=8, D=44),
    "two long groups": made(10, S=44),
    "uneven groups": made(3, S=20, C=2, D=29),
}
"""Hands that stress the rows: the most groups (each gap between groups costs room), groups just under and just
over a row, one group over every row, tiny groups beside long ones."""


def is_trump(code: str, level: str, trump: str | None) -> bool:
    """R9, as cards.js's ``isTrump``: jokers, the level's rank, the 2s and the trump suit."""
    return code in ("SJ", "BJ") or code[0] in (level, "2") or code[1] == trump


def skewed_hands(count: int, seed: int) -> list[Hand]:
    """``count`` hands of 54 cards from four decks, each with a random level and trump suit (or none) and its
    display groups (trumps, then each plain suit) of random, often very uneven sizes."""
    rng = random.Random(seed)
    deck = [rank + suit for suit in "SHCD" for rank in "23456789TJQKA"] + ["SJ", "BJ"]
    hands: list[Hand] = []
    for _ in range(count):
        level = rng.choice("3456789TJQKA")
        trump = rng.choice(["S", "H", "C", "D", None])
        weights = {group: rng.expovariate(1.0) ** 3 + 1e-3 for group in "TSHCD"}
        # A weighted draw without replacement (Efraimidis–Spirakis): the cards of heavier groups come first.
        keyed = [
            (rng.random() ** (1 / weights["T" if is_trump(code, level, trump) else code[1]]), code) for code in deck * 4
        ]
        cards = [code for _, code in sorted(keyed, reverse=True)[:54]]
        hands.append((cards, level, trump))
    return hands


PROBE = """async () => {
  const {Hand} = await import('/static/hand.js');
  const table = document.querySelector('#hand');
  const probe = document.createElement('div');
  table.replaceWith(probe);
  probe.id = 'hand';
  window.__probe = new Hand(probe);
}"""
"""Take the table's hand out of the page and put a Hand of its own in its place (``__probe``)."""

SHOW = "([cards, level, trumpSuit]) => window.__probe.setCards(cards, {level, trumpSuit})"
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two animation frames: what a new hand's height moves (the felt, the trick's refitted plays) is laid out."""

STRIPS_OF_EACH = f"""(hands) => hands.map(([cards, level, trumpSuit]) => {{
  window.__probe.setCards(cards, {{level, trumpSuit}});
  const strips = ({CARD_STRIPS})();
  return {{
    rows: document.querySelectorAll('#hand .hand-row').length,
    width: Math.min(...strips.map((s) => s.width)),
    height: Math.min(...strips.map((s) => s.height)),
    missed: strips.filter((s) => s.hits < 9).length,
    outside: strips.filter((s) => s.left < -0.5 || s.right > innerWidth + 0.5).length,
  }};
}})"""
"""For each hand, laid out in turn: its rows, its narrowest and shortest strip, its cards where a tap would miss
and its cards outside the window (the Hand lays its rows out at once, in ``setCards``)."""


DEALT_LAST = f"""([cards, level, trumpSuit, last]) => {{
  const ctx = {{level, trumpSuit}};
  const before = [...cards];
  for (const code of last) before.splice(before.indexOf(code), 1);
  window.__probe.setCards(before, ctx);
  window.__probe.setCards(cards, ctx);
  const flights = document.getAnimations().filter((a) => a.animationName === 'deal-in');
  const seen = [];
  for (const ms of [0, 50, 100, 150, 200]) {{
    for (const flight of flights) {{
      flight.pause();
      flight.currentTime = ms;
    }}
    seen.push(({CARD_STRIPS})());
  }}
  for (const flight of flights) flight.finish();
  return {{flights: flights.length, seen}};
}}"""
"""Lay out the hand without the cards ``last``, then deal those (they arrive as in a deal: at most four at a
time) and measure every card's strip at five moments of their flight."""


def wait_in_review(page: Page, player: Player) -> None:
    """Play my first turn and wait until the trick's four plays stand in its review window (R33)."""
    player.wait_for_play()
    assert player.wait_for_turn_or_end()
    player.play_hint()
    expect(page.locator("#table-screen")).to_have_attribute("data-phase", "review")
    expect(page.locator(".trick .play")).to_have_count(4)


def worst_hand_problems(page: Page) -> dict[str, list[str]]:
    """The layout checker's problems with each of :data:`WORST_HANDS` laid out in the table's hand slot (the
    window just resized: the page is let settle first)."""
    settle(page)
    found = {}
    for name, hand in WORST_HANDS.items():
        page.evaluate(SHOW, list(hand))
        page.evaluate(TWO_FRAMES)
        problems = layout_problems(page)
        if problems:
            found[name] = problems
    return found


def random_hand_problems(page: Page, hands: list[Hand]) -> dict[str, Any]:
    """What is wrong with the strips of these hands, laid out in turn (empty: nothing). Every hand of 54 must
    take as many rows as any other (the fewest the width allows), so that the table around it is laid out as for
    :data:`WORST_HANDS`, which the whole layout checker saw."""
    measured = page.evaluate(STRIPS_OF_EACH, [list(hand) for hand in hands])
    rows = {m["rows"] for m in measured}
    narrowest = min(m["width"] for m in measured)
    shortest = min(m["height"] for m in measured)
    missed = sum(m["missed"] + m["outside"] for m in measured)
    if len(rows) == 1 and narrowest >= MIN_STRIP[0] and shortest >= MIN_STRIP[1] and not missed:
        return {}
    return {"rows": rows, "strip": (narrowest, shortest), "missed": missed}


def deal_problems(page: Page, rng: random.Random) -> dict[str, Any]:
    """Each of :data:`WORST_HANDS` with four of its cards still being dealt: while they drop into place, every
    other card keeps a strip of :data:`MIN_STRIP` that all nine taps land on (what is wrong, by hand)."""
    found: dict[str, Any] = {}
    for name, (cards, level, trump) in WORST_HANDS.items():
        dealt = page.evaluate(DEALT_LAST, [cards, level, trump, rng.sample(cards, 4)])
        bad = [
            (moment, strip["code"], round(strip["width"], 1), round(strip["height"], 1), strip["hits"])
            for moment, strips in enumerate(dealt["seen"])
            for strip in strips
            if not strip["arriving"]
            and (strip["width"] < MIN_STRIP[0] or strip["height"] < MIN_STRIP[1] or strip["hits"] < 9)
        ]
        arriving = {sum(strip["arriving"] for strip in strips) for strips in dealt["seen"]}
        if dealt["flights"] != 4 or arriving != {4} or bad:
            found[name] = {"flights": dealt["flights"], "arriving": arriving, "bad": bad[:5]}
    return found


def test_every_hand_card_shows_a_tappable_strip_at_every_size(
    browser: Browser, server: LiveServer, screenshots: Path
) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 812}, locale="en-GB")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots(review_seconds="60")
    wait_in_review(page, player)
    page.evaluate(PROBE)
    random_hands = skewed_hands(40, seed=44)
    rng = random.Random(44)
    found: dict[str, Any] = {}
    for width, height in (*SIZES, *SMALLEST):
        page.set_viewport_size({"width": width, "height": height})
        for what, problems in (
            ("worst hands", worst_hand_problems(page)),
            ("random hands", random_hand_problems(page, random_hands)),
            ("dealing", deal_problems(page, rng)),
        ):
            if problems:
                found[f"{width}x{height} {what}"] = problems
        if width == 375:
            player.shot("phone-review-worst-hands")
    # The connection drops during the review: the reconnect strip and the offline status line take more of the
    # window's height, and on a phone the felt's trick area gets shorter than three rows of trick cards.
    server.stop()
    expect(page.locator("#reconnect")).to_be_visible()
    for width, height in (*SIZES, *SMALLEST):
        page.set_viewport_size({"width": width, "height": height})
        problems = worst_hand_problems(page)
        if problems:
            found[f"{width}x{height} offline"] = problems
    assert found == {}
    assert player.errors == []
    page.close()
