// Bot levels (PROTOCOL.md: add_bot, play_now): the level a player picks for new bots, remembered in localStorage.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const STORAGE_KEY = "tuolaji.bot";
const DEFAULT_BOT = "heuristic";
/** The server's bots, easiest first, with the i18n key of their level. */
const LEVELS = [
  { bot: "random", key: "bot_easy" },
  { bot: "heuristic", key: "bot_normal" },
  { bot: "search", key: "bot_hard" },
];

/** @returns {string} the bot new bots are made of (its canonical name, e.g. "search") */
export function chosenBot() {
  const saved = localStorage.getItem(STORAGE_KEY);
  return LEVELS.some((level) => level.bot === saved) ? /** @type {string} */ (saved) : DEFAULT_BOT;
}

/**
 * Remember the chosen bot and show it in every level picker on the page.
 * @param {string} bot
 */
function chooseBot(bot) {
  localStorage.setItem(STORAGE_KEY, bot);
  for (const select of document.querySelectorAll("select[data-bot-level]")) {
    /** @type {HTMLSelectElement} */ (select).value = bot;
  }
}

/**
 * Make a <select> a level picker: easy / normal / hard, showing and setting the chosen bot. The
 * options carry data-i18n keys, so translatePage() relabels them after a language change.
 * @param {HTMLSelectElement} select
 * @returns {HTMLSelectElement} the same select
 */
export function bindBotLevel(select) {
  select.dataset.botLevel = "";
  select.replaceChildren(...LEVELS.map(({ bot, key }) => h("option", { value: bot, dataset: { i18n: key } }, t(key))));
  select.value = chosenBot();
  select.addEventListener("change", () => chooseBot(select.value));
  return select;
}

/**
 * A bot's level in the current language ("困難" for search), or "" for a name this client does not know.
 * @param {string|null} bot
 * @returns {string}
 */
export function botLevel(bot) {
  const level = LEVELS.find((item) => item.bot === bot);
  return level ? t(level.key) : "";
}
