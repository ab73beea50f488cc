// Private tables (PROTOCOL.md §2.6): the invite link, the dialog that shows and copies it (and lets the
// creator list the table), and a link opened from the address bar (/#join/CODE).

import { h } from "./dom.js";
import { addStrings, t } from "./i18n.js";

addStrings({
  private_table: ["私人牌桌（凭邀请链接入座）", "私人牌桌（憑邀請連結入座）", "Private table (invite link only)"],
  invite: ["邀请朋友", "邀請朋友", "Invite friends"],
  invite_title: ["邀请朋友来这张桌", "邀請朋友來這張桌", "Invite friends to this table"],
  invite_body: [
    "这是私人牌桌，大厅里看不到。把链接发给朋友：打开就能旁观、入座（没有账号也可以游客进来）。",
    "這是私人牌桌，大廳裡看不到。把連結傳給朋友：打開就能旁觀、入座（沒有帳號也可以訪客進來）。",
    "This table is private: it is not in the lobby. Send your friends the link: opening it takes them to the seats (as a guest if they have no account).",
  ],
  invite_copy: ["复制链接", "複製連結", "Copy link"],
  invite_copied: ["链接已复制", "連結已複製", "Link copied"],
  make_public: ["公开到大厅", "公開到大廳", "List it in the lobby"],
  made_public: ["这张桌已公开到大厅", "這張桌已公開到大廳", "The table is listed in the lobby now"],
});

/**
 * @param {string} code a table's invite code
 * @returns {string} the link that opens it
 */
function inviteLink(code) {
  return `${location.origin}/#join/${code}`;
}

/** @returns {string|null} the invite code of a link opened from the address bar, if any */
export function inviteFromAddress() {
  const match = /^#join\/([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  return match ? match[1] : null;
}

/** Take the invite code out of the address (it was used; a reload should not use it again). */
export function forgetAddress() {
  window.history.replaceState(null, "", `${location.pathname}${location.search}`);
}

/**
 * Show a private table's invite link; its creator also gets "list it in the lobby".
 * @param {HTMLDialogElement} dialog
 * @param {{code: string, creator: boolean, publish: () => void, copied: () => void}} what
 */
export function openInvite(dialog, what) {
  const link = inviteLink(what.code);
  const field = /** @type {HTMLInputElement} */ (h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("invite") }));
  const copy = async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      document.execCommand("copy");
    }
    what.copied();
  };
  dialog.replaceChildren(h("div.invite", {},
    h("h2", {}, t("invite_title")),
    h("p", {}, t("invite_body")),
    field,
    h("div.row.end", {},
      what.creator
        ? h("button", { type: "button", dataset: { action: "make-public" }, onclick: () => { dialog.close(); what.publish(); } }, t("make_public"))
        : null,
      h("button.primary", { type: "button", dataset: { action: "copy-invite" }, onclick: copy }, t("invite_copy")),
      h("button", { type: "button", dataset: { action: "close-invite" }, onclick: () => dialog.close() }, t("close")))));
  if (!dialog.open) dialog.showModal();
  field.select();
}
