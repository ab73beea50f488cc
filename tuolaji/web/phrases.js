// Quick phrases (快捷語, PROTOCOL.md §2.7): the fixed list in the three languages, the menu that sends
// them and mutes speakers, and the remembered mutes (with their time: the quick match, §2.8, does not
// seat you with people you muted in the last day). A phrase travels as its id and is worded here,
// in the reader's language. Every phrase that arrives is announced as a window event "tuolaji:phrase"
// (detail: seat, account, phrase, shown), so tests can tell a muted one from one never sent.

import { h } from "./dom.js";
import { addStrings, t } from "./i18n.js";

/** The phrase ids, as `tuolaji.game.phrases.PHRASES` on the server, in menu order. */
export const PHRASES = ["hello", "hurry", "nice_cards", "well_played", "thanks", "sorry", "oops", "wait", "again", "bye"];

addStrings({
  phrase_hello: ["大家好", "大家好", "Hello, everyone"],
  phrase_hurry: ["快点吧", "快點吧", "Hurry up, please"],
  phrase_nice_cards: ["好牌！", "好牌！", "Nice cards!"],
  phrase_well_played: ["打得好！", "打得好！", "Well played!"],
  phrase_thanks: ["谢谢", "謝謝", "Thanks"],
  phrase_sorry: ["不好意思…", "不好意思…", "Sorry…"],
  phrase_oops: ["失误了", "失誤了", "Oops, my mistake"],
  phrase_wait: ["稍等一下", "稍等一下", "One moment, please"],
  phrase_again: ["再来一局！", "再來一局！", "One more game!"],
  phrase_bye: ["再见，下次再玩", "再見，下次再玩", "Bye, see you next time"],
  phrases: ["快捷语", "快捷語", "Phrases"],
  phrases_title: ["说一句", "說一句", "Say something"],
  phrases_spectator: ["旁观者只能看，不能说。", "旁觀者只能看，不能說。", "Spectators listen; only players speak."],
  phrases_mute: ["屏蔽谁的快捷语", "屏蔽誰的快捷語", "Mute someone's phrases"],
  phrases_nobody: ["桌上没有别人。", "桌上沒有別人。", "Nobody else is at the table."],
  phrase_muted: ["已屏蔽", "已屏蔽", "muted"],
  phrase_unmuted: ["显示", "顯示", "shown"],
});

const MUTE_KEY = "tuolaji.phraseMute";
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The remembered mutes: account id → when it was muted (ms since 1970; 0 for mutes kept from before
 * their time was remembered, a plain list of ids).
 * @returns {Map<number, number>}
 */
function mutes() {
  try {
    const saved = JSON.parse(localStorage.getItem(MUTE_KEY) ?? "{}");
    if (Array.isArray(saved)) return new Map(saved.filter((id) => Number.isInteger(id)).map((id) => [id, 0]));
    if (!saved || typeof saved !== "object") return new Map();
    return new Map(Object.entries(saved)
      .filter(([id, at]) => Number.isInteger(Number(id)) && typeof at === "number")
      .map(([id, at]) => [Number(id), at]));
  } catch {
    return new Map();
  }
}

/**
 * @param {number} account a speaker's account id
 * @returns {boolean} whether their phrases are muted here
 */
function isMuted(account) {
  return mutes().has(account);
}

/**
 * Mute or show a speaker's phrases, remembered in this browser with the time of the mute.
 * @param {number} account
 * @param {boolean} on
 */
export function setMuted(account, on) {
  const saved = mutes();
  if (on) saved.set(account, Date.now());
  else saved.delete(account);
  localStorage.setItem(MUTE_KEY, JSON.stringify(Object.fromEntries(saved)));
}

/** @returns {number[]} the accounts muted in the last day: a quick match never seats you with them */
export function recentMutes() {
  const since = Date.now() - DAY_MS;
  return [...mutes()].filter(([, at]) => at >= since).map(([id]) => id);
}

/**
 * A `phrase` message arrived: whether to show it (its speaker is not muted); announces it either way.
 * @param {{seat: number, account: number, phrase: string}} msg
 * @returns {boolean}
 */
export function received(msg) {
  const shown = PHRASES.includes(msg.phrase) && !isMuted(msg.account);
  window.dispatchEvent(new CustomEvent("tuolaji:phrase", {
    detail: { seat: msg.seat, account: msg.account, phrase: msg.phrase, shown },
  }));
  return shown;
}

/**
 * @param {string} phrase an id
 * @returns {string} its text in the reader's language
 */
export function phraseText(phrase) {
  return t(`phrase_${phrase}`);
}

/**
 * Fill and open the phrase menu: the phrases to say (seated people only) and a mute switch per other person.
 * @param {HTMLDialogElement} dialog
 * @param {{seated: boolean, others: {account: number, name: string}[], say: (phrase: string) => void}} what
 */
export function openPhraseMenu(dialog, what) {
  const render = () => {
    const say = what.seated
      ? h("div.phrase-grid", {}, ...PHRASES.map((phrase) => h("button", {
        type: "button", dataset: { phrase },
        onclick: () => { dialog.close(); what.say(phrase); },
      }, phraseText(phrase))))
      : h("p", {}, t("phrases_spectator"));
    const mutes = what.others.length
      ? h("ul.phrase-mutes", {}, ...what.others.map(({ account, name }) => {
        const muted = isMuted(account);
        return h("li", {}, h("span.who", {}, name), h(`button.small${muted ? ".active" : ""}`, {
          type: "button", "aria-pressed": String(muted), dataset: { mute: String(account) },
          onclick: () => { setMuted(account, !isMuted(account)); render(); },
        }, t(muted ? "phrase_muted" : "phrase_unmuted")));
      }))
      : h("p", {}, t("phrases_nobody"));
    dialog.replaceChildren(h("div.phrase-menu", {},
      h("h2", {}, t("phrases_title")), say,
      h("h3", {}, t("phrases_mute")), mutes,
      h("div.row.end", {}, h("button", { type: "button", onclick: () => dialog.close(), dataset: { action: "close-phrases" } }, t("close")))));
  };
  render();
  if (!dialog.open) dialog.showModal();
}
