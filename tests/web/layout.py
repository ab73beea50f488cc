"""The layout checker: what a screen shows, measured in the browser (boxes, fonts, taps), never eyeballed.

:func:`layout_problems` walks every visible panel, button and text of the page and returns each
problem it finds as a sentence:

- **overlap**: two panels whose boxes intersect (a panel may hold another: the trick holds its plays and
  the centre message; nothing else). Panels are the top bar, the reconnect strip, the felt's parts
  (seats, the corner panels, the trick, each play), the table screen's rows (status line, bid buttons,
  timer, hand, action bar) and a shown toast. A dialog lies over the page by design and must fit the
  window; under a modal one nothing else is checked (its own buttons and text are);
- **viewport**: a panel, a button or a card of the hand outside the window (a button in an area that scrolls,
  such as a long list, or a card of a hand that scrolls, is checked scrolled into view);
- **clipped**: a seat or corner panel whose content overflows it, any box of the top bar or the table that
  hides part of what it holds (text cut off where it does not end in "…"; a box that scrolls is not cut off), a
  play on the felt that runs out of the trick's area (where the felt is short, the trick's cards must shrink to
  fit it);
- **scroll**: the hand scrolls in its own area where the window is at least 360 × 640 (upright or on its side):
  only on smaller phones may it (docs/CLIENT.md, "Screens");
- **covered**: a button that a tap at its centre would not reach (something lies over it);
- **tap**: a button, link or field smaller than 40 × 28 CSS px (or 28 × 40), 離開 smaller than
  44 × 32, a card of the hand whose visible strip is under 28 × 40 or that taps spread over it miss
  (measured while no card is selected: a selected card stands raised over the row above; a card being dealt
  takes no taps until it lands);
- **text**: visible text under 11 px (the SVG card faces are pictures, not text);
- **missing**: at a table, one of the four seats, the trick's area or (while playing) the score not shown.

:func:`check_sizes` runs it at each of a set of window sizes on one page (the window resized as a phone
turns), for whatever the page shows now. Two sets:

- :data:`ALL_SIZES`, the common real windows of phones and small tablets upright and on their side, from the
  smallest (320 × 568) up, and laptops and desktops: 19 sizes. Checked by one test of their own
  (tests/web/test_every_size.py), over the table's worst moments in the three languages;
- :data:`SIZES`, five of them (a phone upright and on its side, a tablet, a laptop, a desktop), for the other
  browser tests, which check their own moments and should stay quick; tests/web/test_hand_layout.py adds
  :data:`SMALLEST`, where the hand's rows are fewest to a row and the hand scrolls.
"""

from __future__ import annotations

from collections.abc import Iterable

from playwright.sync_api import Page

SIZES: tuple[tuple[int, int], ...] = ((375, 812), (812, 375), (768, 1024), (1280, 800), (1920, 1080))
"""A phone upright and on its side, a tablet, a laptop and a desktop (CSS px)."""

PHONES: tuple[tuple[int, int], ...] = ((320, 568), (360, 640), (375, 667), (390, 844), (412, 915), (430, 932))
"""Common phones upright (CSS px): iPhone SE (1st), many Androids, iPhone SE 2/8, iPhone 12–15, Pixel/Galaxy,
iPhone Pro Max."""

SMALLEST: tuple[tuple[int, int], ...] = ((320, 568), (568, 320))
"""The smallest phone upright and on its side: the hand of 54 cards scrolls in its own area there."""

ALL_SIZES: tuple[tuple[int, int], ...] = (
    *PHONES,
    *((height, width) for width, height in PHONES),
    *SIZES,
    (1024, 768),
    (1366, 768),
)
"""Every size the table is checked at: :data:`PHONES` upright and on their side, the five :data:`SIZES`, a small
tablet on its side or a small laptop (1024 × 768) and the commonest laptop (1366 × 768)."""

CARD_STRIPS = """() => {
  const strips = [];
  const hand = document.querySelector('#hand');
  const scrolls = hand !== null && hand.scrollHeight > hand.clientHeight + 1;
  const start = hand ? hand.scrollTop : 0;
  for (const card of document.querySelectorAll('#hand .card')) {
    // A hand that scrolls in its own area (the smallest screens): each card is measured scrolled into view.
    if (scrolls) card.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = card.getBoundingClientRect();
    const next = card.nextElementSibling;
    const nextRow = card.parentElement.nextElementSibling;
    const right = next ? Math.min(r.right, next.getBoundingClientRect().left) : r.right;
    const bottom = nextRow ? Math.min(r.bottom, nextRow.getBoundingClientRect().top) : r.bottom;
    const width = right - r.left;
    const height = bottom - r.top;
    let hits = 0;
    for (const fx of [0.08, 0.5, 0.92]) {
      for (const fy of [0.08, 0.5, 0.92]) {
        const hit = document.elementFromPoint(r.left + width * fx, r.top + height * fy);
        if (hit && hit.closest('.card') === card) hits += 1;
      }
    }
    const arriving = card.classList.contains('arrived');
    const outside = r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5;
    strips.push({code: card.dataset.code, width, height, hits, arriving, outside, left: r.left, right: r.right,
      top: r.top});
  }
  if (hand) hand.scrollTop = start;
  return strips;
}"""
"""Each hand card's visible strip (up to the next card of its row and the next row), how many of nine
points spread over that strip a tap would land on that very card (``elementFromPoint``), whether the card
is still arriving (being dealt: it drops into its place and takes no taps until it lands, 0.25 s) and whether it
lies outside the window. In a hand that scrolls, each card is measured once scrolled into view."""


LAYOUT = r"""() => {
  const problems = [];
  const W = innerWidth, H = innerHeight, EPS = 0.5;
  const shown = (el) => {
    if (!el || !el.isConnected || el.closest('[hidden]')) return false;
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
      if (node.tagName === 'DIALOG' && !node.open) return false;
    }
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1;
  };
  const name = (el) => {
    let text = el.tagName.toLowerCase();
    if (el.id) text += '#' + el.id;
    const classes = [...el.classList].filter((c) => !['active', 'turn', 'clocked', 'settled', 'taking'].includes(c));
    if (classes.length) text += '.' + classes.join('.');
    if (el.dataset.seat !== undefined) text += `[seat ${el.dataset.seat}]`;
    if (el.dataset.action) text += `[${el.dataset.action}]`;
    return text;
  };
  const modal = [...document.querySelectorAll('dialog')].find((d) => d.open && d.matches(':modal'));
  const root = modal ?? document.body;
  const within = (el) => root.contains(el);
  const outside = (r) => r.left < -EPS || r.top < -EPS || r.right > W + EPS || r.bottom > H + EPS;

  // Panels: they may not overlap (but a panel may hold another) and must be inside the window.
  const screen = document.querySelector('.screen:not([hidden])');
  const atTable = !modal && screen && screen.id === 'table-screen';
  let panels = [];
  if (!modal) {
    panels = [...document.querySelectorAll('.topbar, #reconnect, .toast.show')];
    if (atTable) {
      panels.push(...screen.querySelectorAll(':scope > :not(.felt), .felt > *, .trick .play'));
    }
  }
  panels = panels.filter(shown);
  const box = new Map(panels.map((el) => [el, el.getBoundingClientRect()]));
  // A dialog lies over the page by design (the settlement too, while the next hand is dealt): it must fit the window.
  for (const el of [...panels, ...[...document.querySelectorAll('dialog[open]')].filter(shown)]) {
    if (outside(el.getBoundingClientRect())) problems.push(`viewport: ${name(el)} is outside the ${W}×${H} window`);
  }
  const drawnInTrick = (a, b) => a.classList.contains('trick') && (b.classList.contains('centre-msg') || a.contains(b));
  for (let i = 0; i < panels.length; i++) {
    for (let j = i + 1; j < panels.length; j++) {
      const a = panels[i], b = panels[j];
      if (a.contains(b) || b.contains(a) || drawnInTrick(a, b) || drawnInTrick(b, a)) continue;
      const p = box.get(a), q = box.get(b);
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > EPS && h > EPS) problems.push(`overlap: ${name(a)} and ${name(b)} (${w.toFixed(0)}×${h.toFixed(0)} px)`);
    }
  }
  // Cut off: a seat or corner panel whose content overflows it, or any box that hides what overflows it on one
  // side (not one that scrolls there, nor text that ends in "…", such as a long name) and has more than it shows.
  const panel = (el) => el.matches('.felt > .seat, .table-info, .score-box, #me');
  const hides = (value) => value === 'hidden' || value === 'clip';
  const boxes = modal ? [] : [...document.querySelectorAll('.topbar, .topbar *, #reconnect')];
  if (atTable) boxes.push(screen, ...screen.querySelectorAll(':scope *:not(svg, svg *, .card)'));
  for (const el of boxes) {
    const style = getComputedStyle(el);
    const cut = style.textOverflow !== 'ellipsis';
    const wide = (panel(el) || (cut && hides(style.overflowX))) && el.scrollWidth > el.clientWidth + 1;
    const tall = (panel(el) || (cut && hides(style.overflowY))) && el.scrollHeight > el.clientHeight + 1;
    if ((wide || tall) && shown(el)) {
      const whole = `${el.scrollWidth}×${el.scrollHeight}`;
      problems.push(`clipped: ${name(el)} shows ${el.clientWidth}×${el.clientHeight} of ${whole} px`);
    }
  }
  if (atTable) {
    const trick = screen.querySelector('.trick');
    const area = trick.getBoundingClientRect();
    const size = `${area.width.toFixed(0)}×${area.height.toFixed(0)}`;
    for (const play of [...trick.querySelectorAll('.play')].filter(shown)) {
      const r = play.getBoundingClientRect();
      const out = r.left < area.left - EPS || r.top < area.top - EPS || r.right > area.right + EPS
        || r.bottom > area.bottom + EPS;
      if (out) problems.push(`clipped: ${name(play)} runs out of the trick's ${size} px area`);
    }
    const seats = [...screen.querySelectorAll('.felt > .seat')].filter(shown);
    if (seats.length !== 4) problems.push(`missing: ${seats.length} of the 4 seats shown`);
    if (!shown(screen.querySelector('.trick'))) problems.push('missing: the trick\'s area');
    const phase = screen.dataset.phase;
    if ((phase === 'playing' || phase === 'review') && !shown(screen.querySelector('.score-box'))) {
      problems.push('missing: the score');
    }
    // The hand scrolls in its own area only on the smallest screens (under 360 × 640, upright or on its side).
    const hand = screen.querySelector('#hand');
    const scrolls = hand && shown(hand) && hand.scrollHeight > hand.clientHeight + 1;
    if (scrolls && Math.min(W, H) >= 360 && Math.max(W, H) >= 640) {
      problems.push(`scroll: the hand shows ${hand.clientHeight} of its ${hand.scrollHeight} px and scrolls`);
    }
    for (const card of scrolls ? [] : screen.querySelectorAll('#hand .card')) {
      if (outside(card.getBoundingClientRect())) {
        problems.push(`viewport: hand card ${card.dataset.code} is outside the window`);
      }
    }
  }

  // Taps: big enough, inside the window, not covered.
  const scrollers = (el) => {
    const found = [];
    for (let node = el.parentElement; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const scrolls = /auto|scroll/.test(style.overflowY + style.overflowX)
        && (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1);
      if (scrolls) found.push([node, node.scrollTop, node.scrollLeft]);
    }
    return found;
  };
  const taps = [...root.querySelectorAll('button, select, input:not([type=hidden]), a[href], [role=button]')]
    .filter((el) => within(el) && shown(el));
  for (const tap of taps) {
    // A check box or radio button is tapped through its label.
    const el = (tap.matches('input[type=checkbox], input[type=radio]') && tap.closest('label')) || tap;
    const r = el.getBoundingClientRect();
    const big = (r.width >= 40 - EPS && r.height >= 28 - EPS) || (r.width >= 28 - EPS && r.height >= 40 - EPS);
    if (!big) problems.push(`tap: ${name(el)} is ${r.width.toFixed(0)}×${r.height.toFixed(0)} px (under 40×28)`);
    if (tap.dataset.action === 'leave' && (r.width < 44 - EPS || r.height < 32 - EPS)) {
      problems.push(`tap: ${name(el)} is ${r.width.toFixed(0)}×${r.height.toFixed(0)} px (under 44×32)`);
    }
    // One in an area that scrolls (a long list) is checked scrolled into view, and the area scrolled back.
    const scrolled = outside(r) ? scrollers(el) : [];
    if (scrolled.length) el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const seen = scrolled.length ? el.getBoundingClientRect() : r;
    if (outside(seen)) problems.push(`viewport: ${name(el)} is outside the window`);
    else {
      const x = (seen.left + seen.right) / 2, y = (seen.top + seen.bottom) / 2;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== el && !el.contains(hit) && !(el.tagName === 'SELECT' && hit.closest('select') === el)) {
        problems.push(`covered: ${name(el)} is under ${name(hit)}`);
      }
    }
    for (const [area, top, left] of scrolled) { area.scrollTop = top; area.scrollLeft = left; }
  }

  // Text: nothing under 11 px.
  const skip = new Set(['svg', 'script', 'style', 'option', 'title', 'template']);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.nodeType === 1 && (skip.has(node.localName) || node.hidden)
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType !== 3) continue;
    const el = node.parentElement;
    if (!el || seen.has(el) || !node.textContent.trim()) continue;
    seen.add(el);
    if (!shown(el)) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const words = node.textContent.trim().slice(0, 24);
    if (size < 11 - 0.01) problems.push(`text: "${words}" in ${name(el)} is ${size.toFixed(1)} px`);
  }
  return problems;
}"""


def layout_problems(page: Page, strips: bool = True) -> list[str]:
    """Every layout problem of what ``page`` shows now (see the module docstring); [] when none.
    ``strips=False`` leaves out the hand's card strips (nine taps a card: the slow part)."""
    problems: list[str] = page.evaluate(LAYOUT)
    # A selected card stands raised over the row above it: strips are measured with nothing selected.
    modal = page.locator("dialog[open]:modal").count()
    if strips and not modal and not page.locator("#hand .card.selected").count():
        for strip in page.evaluate(CARD_STRIPS):
            missed = strip["hits"] < 9 and not strip["arriving"]
            if strip["outside"]:
                problems.append(f"viewport: hand card {strip['code']} is outside the window")
            if strip["width"] < 28 - 0.5 or strip["height"] < 40 - 0.5 or missed:
                problems.append(
                    f"tap: hand card {strip['code']} shows a strip of {strip['width']:.0f}×{strip['height']:.0f} px"
                    f" where {strip['hits']} of 9 taps land"
                )
    return problems


SETTLED = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(async () => {
  const moving = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
  await Promise.all(moving.map((a) => a.finished.catch(() => undefined)));
  done();
})))"""
"""Two animation frames (the page lays itself out after a resize), then every finite animation's end."""


def settle(page: Page) -> None:
    """Wait until the page has laid itself out (after a resize) and what moves has landed."""
    page.evaluate(SETTLED)


def check_sizes(page: Page, sizes: Iterable[tuple[int, int]] = SIZES) -> dict[str, list[str]]:
    """:func:`layout_problems` at each window size of ``sizes`` (``"375x812"`` → problems); the page is
    left at the last size."""
    found: dict[str, list[str]] = {}
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        problems = layout_problems(page)
        if problems:
            found[f"{width}x{height}"] = problems
    return found
