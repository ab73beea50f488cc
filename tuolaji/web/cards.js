// Cards: parsing the wire notation ("AS", "TH", "BJ"), R9 display order, SVG rendering.

const SUITS = "SHCD";
export const RANKS = "23456789TJQKA";
export const SUIT_SYMBOLS = { S: "♠", H: "♥", C: "♣", D: "♦" };
const RED_SUITS = new Set(["H", "D"]);

/**
 * @typedef {{code: string, rank: string, suit: string, joker: "big"|"small"|null}} CardInfo
 * @typedef {{level: string, trumpSuit: string|null}} TrumpContext  level: rank letter; trumpSuit: S H C D or null before bidding ends
 */

/**
 * Split a card string of the wire notation into its parts.
 * @param {string} code e.g. "AS", "TH", "BJ", "SJ"
 * @returns {CardInfo}
 */
function parseCard(code) {
  if (code === "BJ") return { code, rank: "", suit: "", joker: "big" };
  if (code === "SJ") return { code, rank: "", suit: "", joker: "small" };
  return { code, rank: code[0], suit: code[1], joker: null };
}

/**
 * Whether a card is a trump (R8): jokers, level cards, 2s and the trump suit.
 * @param {string} code
 * @param {TrumpContext} ctx
 * @returns {boolean}
 */
export function isTrump(code, ctx) {
  const card = parseCard(code);
  return card.joker !== null || card.rank === ctx.level || card.rank === "2" || card.suit === ctx.trumpSuit;
}

/**
 * Display key, smaller first (R9): jokers, trump-suit level card, other level cards, trump-suit 2,
 * other 2s, the trump suit A..3, then each off-suit (♠ ♥ ♣ ♦) A..3. Equal-power cards sort by suit.
 * @param {string} code
 * @param {TrumpContext} ctx
 * @returns {number}
 */
function sortKey(code, ctx) {
  const card = parseCard(code);
  if (card.joker === "big") return 0;
  if (card.joker === "small") return 1;
  const suitIndex = SUITS.indexOf(card.suit);
  const descending = 12 - RANKS.indexOf(card.rank);
  const own = card.suit === ctx.trumpSuit ? 0 : 1;
  if (card.rank === ctx.level) return 10 + own * 10 + suitIndex;
  if (card.rank === "2") return 30 + own * 10 + suitIndex;
  if (card.suit === ctx.trumpSuit) return 50 + descending;
  return 100 + suitIndex * 20 + descending;
}

/**
 * A sorted copy of the cards in display order (see sortKey).
 * @param {string[]} codes
 * @param {TrumpContext} ctx
 * @returns {string[]}
 */
export function sortCards(codes, ctx) {
  return [...codes].sort((a, b) => sortKey(a, ctx) - sortKey(b, ctx));
}

/**
 * The display group of a card: "T" for trumps, else its suit letter (for the gaps between groups).
 * @param {string} code
 * @param {TrumpContext} ctx
 * @returns {string}
 */
export function displayGroup(code, ctx) {
  return isTrump(code, ctx) ? "T" : parseCard(code).suit;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const W = 60;
const H = 84;
const PIPS = {
  A: [[30, 42]],
  3: [[30, 20], [30, 42], [30, 64]],
  4: [[19, 22], [41, 22], [19, 62], [41, 62]],
  5: [[19, 22], [41, 22], [30, 42], [19, 62], [41, 62]],
  6: [[19, 22], [41, 22], [19, 42], [41, 42], [19, 62], [41, 62]],
  7: [[19, 22], [41, 22], [30, 32], [19, 42], [41, 42], [19, 62], [41, 62]],
  8: [[19, 22], [41, 22], [30, 32], [19, 42], [41, 42], [30, 52], [19, 62], [41, 62]],
  9: [[19, 20], [41, 20], [19, 35], [41, 35], [30, 42], [19, 49], [41, 49], [19, 64], [41, 64]],
  T: [[19, 20], [41, 20], [30, 27], [19, 35], [41, 35], [19, 49], [41, 49], [30, 57], [19, 64], [41, 64]],
  2: [[30, 22], [30, 62]],
};

/**
 * A rank letter for display ("T" → "10"): card ranks and levels.
 * @param {string} rank
 * @returns {string}
 */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/**
 * The inner SVG markup of one card face (a 60×84 view box).
 * @param {string} code
 * @returns {string}
 */
function faceMarkup(code) {
  const card = parseCard(code);
  if (card.joker) {
    const colour = card.joker === "big" ? "red" : "black";
    const letters = "JOKER".split("").map((ch, i) => `<tspan x="8" y="${15 + i * 9.5}">${ch}</tspan>`).join("");
    const star = card.joker === "big" ? "★" : "☆";
    return `<g class="${colour}"><text class="jk-letters">${letters}</text>`
      + `<text class="jk-star" x="35" y="52" text-anchor="middle">${star}</text></g>`;
  }
  const symbol = SUIT_SYMBOLS[card.suit];
  const colour = RED_SUITS.has(card.suit) ? "red" : "black";
  const label = rankLabel(card.rank);
  const corner = `<text class="idx-rank${label.length > 1 ? " ten" : ""}" x="7.5" y="14" text-anchor="middle">${label}</text>`
    + `<text class="idx-suit" x="7.5" y="25" text-anchor="middle">${symbol}</text>`;
  let centre;
  if ("JQK".includes(card.rank)) {
    centre = `<rect class="court" x="15" y="13" width="38" height="58" rx="3"/>`
      + `<text class="court-rank" x="34" y="45" text-anchor="middle">${label}</text>`
      + `<text class="court-suit" x="34" y="64" text-anchor="middle">${symbol}</text>`;
  } else {
    const big = card.rank === "A" ? " ace" : "";
    centre = PIPS[card.rank]
      .map(([x, y]) => `<text class="pip${big}" x="${x + 3}" y="${y + (big ? 9 : 4)}" text-anchor="middle">${symbol}</text>`)
      .join("");
  }
  return `<g class="${colour}">${corner}${centre}</g>`;
}

/**
 * An SVG element showing a card face (or its back when code is null); scales crisply to any CSS size.
 * @param {string|null} code
 * @param {{trump?: boolean}} [opts] trump: tint the face to mark a trump
 * @returns {SVGSVGElement}
 */
function cardSvg(code, opts = {}) {
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVG_NS, "svg"));
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "card-svg");
  svg.setAttribute("aria-hidden", "true");
  if (code === null) {
    svg.innerHTML = `<rect class="back" x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="5"/>`
      + `<rect class="back-inner" x="4" y="4" width="${W - 8}" height="${H - 8}" rx="3"/>`;
    return svg;
  }
  const face = opts.trump ? "face trump" : "face";
  svg.innerHTML = `<rect class="${face}" x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="5"/>${faceMarkup(code)}`;
  return svg;
}

/**
 * A card element: a div holding the SVG, with data-code, a title and an accessible label.
 * @param {string|null} code null for a face-down card
 * @param {{trump?: boolean, className?: string}} [opts]
 * @returns {HTMLDivElement}
 */
export function cardElement(code, opts = {}) {
  const el = document.createElement("div");
  el.className = `card${opts.className ? ` ${opts.className}` : ""}`;
  if (code !== null) {
    el.dataset.code = code;
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardLabel(code));
  }
  el.append(cardSvg(code, opts));
  return el;
}

/**
 * A short readable label for screen readers: "10♥", "A♠"; jokers keep their codes "BJ", "SJ".
 * @param {string} code
 * @returns {string}
 */
function cardLabel(code) {
  const card = parseCard(code);
  if (card.joker) return code;
  return `${rankLabel(card.rank)}${SUIT_SYMBOLS[card.suit]}`;
}

