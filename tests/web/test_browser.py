"""A person plays through the browser client against three bots (issue 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.live_server import LiveServer
from tests.web.client import DESKTOP, RECORD_SOUNDS, Player, sounds
from tests.web.layout import CARD_STRIPS, layout_problems, settle

pytestmark = pytest.mark.browser

PHONE: ViewportSize = {"width": 375, "height": 812}
MIN_STRIP = (28, 40)
"""Issue 16: every card of a 54-card hand shows a strip at least this wide and tall (CSS px) that a tap lands on."""

REPLAY_TAGS = """() => {
  const boxes = (selector) => [...document.querySelectorAll(selector)].map((el) => el.getBoundingClientRect());
  const tags = boxes('.replay-board .seat-tag');
  const plays = boxes('.replay-board .play');
  const inside = tags.every((r) => r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0);
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const covered = tags.some((tag) => plays.some((play) => meet(tag, play)));
  return {count: tags.length, inside, covered};
}"""


def check_card_strips(player: Player) -> None:
    """Each of the 54 cards shows a tappable strip of at least MIN_STRIP, inside the viewport (issue 16), even
    while the last cards dealt are still dropping into place (my first turn may come at once, R19): those take no
    taps until they land, and nothing of them narrows or covers another card's strip."""
    strips = player.page.evaluate(CARD_STRIPS)
    assert len(strips) == 54
    width = player.page.viewport_size["width"] if player.page.viewport_size else 0
    narrowest = min(strip["width"] for strip in strips)
    shortest = min(strip["height"] for strip in strips)
    assert narrowest >= MIN_STRIP[0] and shortest >= MIN_STRIP[1], (narrowest, shortest)
    missed = [s for s in strips if s["hits"] < 9 and not s["arriving"]]
    assert missed == [], missed
    assert all(strip["left"] >= 0 and strip["right"] <= width for strip in strips)


def check_replay(player: Player) -> None:
    """The replay shows the four starting hands, a slider over the tricks, and seat labels nothing covers."""
    page = player.page
    if page.locator("#history-open").is_visible():
        page.locator("#history-open").click()
    else:
        page.locator("#me").click()  # a phone: its own profile lists the latest hands
    page.locator(".history-item [data-action=replay]").first.click()
    position = page.locator("#replay-pos")
    expect(position).to_contain_text(re.compile(r"1/\d+"))
    expect(page.locator(".replay-board .play")).to_have_count(4)
    expect(page.locator(".replay-hand")).to_have_count(4)
    for seat in range(4):
        expect(page.locator(f".replay-hand[data-seat='{seat}'] .c")).to_have_count(54)
    played = page.locator(".replay-hand .c.played").count()
    on_board = page.locator(".replay-board .play .play-cards > *").count()
    assert played == on_board and played >= 4  # the first trick's cards, struck in their hands
    page.locator("[data-action=next]").click()
    expect(position).to_contain_text(re.compile(r"2/\d+"))
    slider = page.locator("#replay-slider")
    last = int(slider.get_attribute("max") or 0)
    assert last >= 5
    slider.fill(str(last))
    expect(position).to_contain_text(f"{last + 1}/{last + 1}")
    assert page.locator(".replay-hand .c.played").count() == 216  # every card played by the last trick
    tags = page.evaluate(REPLAY_TAGS)
    assert tags == {"count": 4, "inside": True, "covered": False}, tags


def play_hand(player: Player, prefix: str, reload_after: int = 8) -> None:
    """Bid, select by dragging, use the hint, reload once mid-hand, and play to the settlement."""
    page = player.page
    player.bid_during_deal(screenshot=f"{prefix}bidding")
    player.wait_for_play()
    turns = 0
    reloaded = False
    while player.wait_for_turn_or_end():
        problems = layout_problems(page, strips=False)  # the strips: check_card_strips, below
        assert problems == [], (turns, problems)
        if turns == 0 and player.hand_size() == 54:
            check_card_strips(player)
        if turns == 0:
            # Select three cards by pressing and dragging across them, then drop the selection.
            player.drag_select(1, 3)
            assert player.selected() == 3
            player.clear_selection()
        if turns == 1:
            player.check_last_trick()
        if turns >= reload_after and not reloaded and not player.is_lead():
            reloaded = True
            page.locator("[data-action=hint]").click()
            player.shot(f"{prefix}mid-hand")
            player.clear_selection()
            size = player.hand_size()
            names = page.locator(".seat .nick").all_inner_texts()
            page.reload()
            # R46: the seat was on 託管 while away, so a few cards may have been played for it meanwhile.
            player.wait_for_play()
            expect(page.locator("#hand .card").first).to_be_visible()
            assert 0 < player.hand_size() <= size
            assert page.locator(".seat .nick").all_inner_texts() == names
            expect(page.locator("[data-action=autoplay]")).to_have_attribute("aria-pressed", "false")
            expect(page.locator("[data-action=last-trick]")).to_be_visible()  # the full state after the reload
            if not player.wait_for_turn_or_end():
                break
        player.play_hint()
        turns += 1
    settle = page.locator("#settle-dialog")
    expect(settle).to_be_visible()
    expect(settle.locator("#result-head")).not_to_be_empty()
    player.shot(f"{prefix}settlement")
    assert reloaded, f"the hand ended after only {turns} of my plays"
    # Sounds: my turn and the settlement (synthesised; sound.js announces each cue it plays).
    assert {"turn", "settlement"} <= set(sounds(page)), sounds(page)


def test_whole_hand_against_bots(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    page = browser.new_page(viewport=DESKTOP, locale="zh-TW")
    page.add_init_script(RECORD_SOUNDS)
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    expect(page.locator("#me-points")).to_contain_text("積分 0 布衣")
    expect(page.locator("#me-silver")).to_contain_text("銀子 1000")
    player.shot("lobby")
    player.start_with_bots()
    play_hand(player, "")
    page.locator("[data-action=close-settlement]").click()
    expect(page.locator("#settle-dialog")).to_be_hidden()
    # The finished hand is in the history and replays trick by trick.
    check_replay(player)
    player.shot("replay")
    assert player.errors == []
    page.close()


def test_whole_hand_on_a_phone(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="zh-CN")
    page = context.new_page()
    page.add_init_script(RECORD_SOUNDS)
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.shot("phone-lobby")
    player.start_with_bots()
    play_hand(player, "phone-")
    page.locator("[data-action=close-settlement]").click()
    check_replay(player)
    player.shot("phone-replay")
    assert player.errors == []
    context.close()


def test_hard_bots_on_a_phone(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, locale="zh-TW")
    page = context.new_page()
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    # At a new table, a bot of the chosen level joins an empty seat.
    page.locator("#create-open").click()
    page.locator("#create-form button[value=create]").click()
    page.locator(".action-bar select[data-bot-level]").select_option(label="困難")
    page.locator(".seat [data-action=add-bot]").first.click()
    added = page.locator(".seat .badge.bot")
    expect(added).to_have_text(["困難"])
    expect(added).to_have_attribute("data-bot", "search")
    page.locator("[data-action=leave]").click()
    # The choice is remembered for "play now with bots".
    expect(page.locator("#bot-level")).to_have_value("search")
    player.shot("phone-bot-level")
    player.start_with_bots()
    expect(page.locator("#create-form [name=bot]")).to_have_value("search")
    bots = page.locator(".seat .badge.bot")
    expect(bots).to_have_text(["困難"] * 3)
    assert page.locator(".seat .badge.bot[data-bot=search]").count() == 3
    player.shot("phone-hard-bots")
    player.wait_for_play()
    if player.wait_for_turn_or_end():
        player.play_hint()
    expect(page.locator(".trick .play:not([data-seat='0'])").first).to_be_visible()
    assert player.errors == []
    context.close()


def test_refused_lead_shows_its_reason(browser: Browser, server: LiveServer, screenshots: Path) -> None:
    """A refused lead reads in the page's language with the seeds' terms and links to R13 in the rule book."""
    page = browser.new_page(viewport=DESKTOP, locale="zh-TW")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots(illegal_follow="reject")
    for _hand in range(6):  # a lead with both trumps and another suit in hand; a hand may bring none
        player.bid_during_deal()
        player.wait_for_play()
        while player.wait_for_turn_or_end():
            if player.is_lead() and player.has_off_suit():
                reason = player.try_invalid_lead()
                assert "領牌" in reason and "規則 R13" in reason, reason
                assert not re.search(r"seat \d|play |R13:|[A-Za-z]{4,}", reason), reason
                link = page.locator(".status-line.error a.rule-link")
                expect(link).to_have_attribute("href", "#rules/R13")
                player.shot("refused-lead")
                link.click()
                expect(page.locator("#rules-dialog")).to_be_visible()
                expect(page.locator("#rule-R13.focus")).to_be_in_viewport()
                expect(page.locator("#rule-R13")).to_contain_text("領牌不能甩牌")
                page.locator("[data-action=close-rules]").click()
                expect(page.locator("#rules-dialog")).to_be_hidden()
                player.clear_selection()
                player.play_hint()
                assert player.errors == []
                return
            player.play_hint()
        page.locator("[data-action=close-settlement]").click()
    pytest.fail("never had the lead with trumps and another suit in six hands")


def test_hand_sorts_by_power_and_language_is_remembered(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    page.goto(server.url)
    expect(page.locator("#guest")).to_have_text("Play as guest")
    # R9 with level 10 and trump ♥: jokers, 正10, 副10s, 正2, 副2s, ♥ A..3, then ♠ ♣ ♦ A..3.
    shuffled = ["3S", "TD", "2C", "AH", "BJ", "TH", "KS", "2H", "SJ", "3H", "AD", "TS", "5C"]
    ordered = page.evaluate(
        "cards => import('/static/cards.js').then(m => m.sortCards(cards, {level: 'T', trumpSuit: 'H'}))",
        shuffled,
    )
    assert ordered == ["BJ", "SJ", "TH", "TS", "TD", "2H", "2C", "AH", "3H", "KS", "3S", "5C", "AD"]
    page.locator("#lang").select_option("zh-Hans")
    expect(page.locator("#guest")).to_have_text("游客试玩")
    page.reload()
    expect(page.locator("#guest")).to_have_text("游客试玩")
    page.locator("#lang").select_option("zh-Hant")
    expect(page.locator("#guest")).to_have_text("訪客試玩")


HAND_ROWS = """async (codes) => {
  const {Hand} = await import('/static/hand.js');
  const root = document.createElement('div');
  document.body.append(root);
  new Hand(root).setCards(codes, {level: 'T', trumpSuit: 'H'});
  const rows = [...root.querySelectorAll('.hand-row')].map((row) => [...row.children].map((el) => el.dataset.group));
  root.remove();
  return rows;
}"""
"""The display group of each card in each row of a Hand drawn full width with these cards (level 10, ♥ trump)."""


def test_the_hand_takes_as_few_rows_as_the_width_allows(browser: Browser, server: LiveServer) -> None:
    page = browser.new_page(viewport=PHONE, locale="en-GB")
    page.goto(server.url)
    plain = {suit: [rank + suit for rank in "AKQJ9876543"] for suit in "SCD"}  # 2s and 10s are trumps (R9)
    trumps = ["BJ", "SJ", "TH", "TS", "TD", "TC", "2H", "2S", "2C", "2D", "AH", "KH", "QH"]
    # 13 trumps, 13 spades, 14 clubs and 14 diamonds: each group kept whole took eight rows at 375 px.
    hand = trumps + plain["S"] + ["AS", "KS"] + plain["C"] + ["AC", "KC", "QC"] + plain["D"] + ["AD", "KD", "QD"]
    rows = page.evaluate(HAND_ROWS, hand)
    width = max(len(row) for row in rows)
    assert sum(len(row) for row in rows) == 54
    assert len(rows) == -(-54 // width), [len(row) for row in rows]
    # Where those rows leave room, each group stays whole: here trumps and spades, then clubs and diamonds.
    few = trumps[:5] + plain["S"][:6] + plain["C"][:7] + plain["D"][:5]
    rows = page.evaluate(HAND_ROWS, few)
    groups = [rows[0][0], rows[0][-1], rows[1][0], rows[1][-1]]
    assert len(set(groups)) == 4
    assert rows == [[groups[0]] * 5 + [groups[1]] * 6, [groups[2]] * 7 + [groups[3]] * 5]
    page.close()


PLAYS_FIT_THE_FELT = """() => {
  const trick = document.querySelector('#table-screen .trick');
  const rows = [...document.querySelectorAll('#table-screen .trick .play')].map((slot) => {
    const row = slot.querySelector('.play-cards');
    const side = slot.classList.contains('pos-left') || slot.classList.contains('pos-right');
    const want = side ? trick.clientWidth / 2 - 4 : trick.clientWidth;
    return {n: row.children.length, fit: row.style.getPropertyValue('--fit'), want: `${want}px`};
  }).filter((row) => row.n > 1);
  return rows.length > 0 && rows.every((row) => row.fit === row.want) ? rows : null;
}"""
"""The multi-card plays on the felt, once each is fitted to the felt's present width (else null)."""


def test_plays_on_the_felt_are_refitted_when_the_window_narrows(
    browser: Browser, server: LiveServer, screenshots: Path
) -> None:
    page = browser.new_page(viewport=DESKTOP, locale="en-GB")
    player = Player(page, server.url, screenshots)
    player.enter_as_guest()
    player.start_with_bots()
    player.bid_during_deal()
    player.wait_for_play()
    while player.wait_for_turn_or_end():
        if page.locator("#table-screen .trick .play-cards:has(> :nth-child(2))").count():
            wide = page.wait_for_function(PLAYS_FIT_THE_FELT).json_value()
            page.set_viewport_size(PHONE)
            narrow = page.wait_for_function(PLAYS_FIT_THE_FELT).json_value()
            assert [row["n"] for row in narrow] == [row["n"] for row in wide]
            assert all(float(a["fit"][:-2]) < float(b["fit"][:-2]) for a, b in zip(narrow, wide, strict=True))
            settle(page)
            assert layout_problems(page) == []
            break
        player.play_hint()
    else:
        pytest.fail("no trick with a play of two cards or more before the end of the hand")
    assert player.errors == []
    page.close()
