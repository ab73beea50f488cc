// Interface language: 简体中文, 繁體中文, English. The choice is remembered in localStorage.

const STORAGE_KEY = "tuolaji.lang";
export const LANGUAGES = { "zh-Hans": "简体", "zh-Hant": "繁體", en: "EN" };

/** @type {Record<string, [string, string, string]>} key → [简体, 繁體, English] */
const STRINGS = {
  app_title: ["拖拉机", "拖拉機", "Tractor"],
  app_subtitle: ["四副牌 · 南宁", "四副牌 · 南寧", "four decks · Nanning"],
  login: ["登录", "登入", "Log in"],
  register: ["注册", "註冊", "Register"],
  guest: ["游客试玩", "訪客試玩", "Play as guest"],
  logout: ["退出", "登出", "Log out"],
  username: ["用户名", "使用者名稱", "User name"],
  password: ["密码", "密碼", "Password"],
  or: ["或", "或", "or"],
  score_points: ["积分", "積分", "Points"],
  silver: ["银子", "銀子", "Silver"],
  lobby: ["大厅", "大廳", "Lobby"],
  tables: ["牌桌", "牌桌", "Tables"],
  no_tables: ["还没有牌桌，建一张吧。", "還沒有牌桌，建一張吧。", "No tables yet: create one."],
  create_table: ["建桌", "建桌", "Create table"],
  create: ["建立", "建立", "Create"],
  cancel: ["取消", "取消", "Cancel"],
  play_now: ["和机器人开打", "和機器人開打", "Play now with bots"],
  preset: ["规则", "規則", "Rules"],
  preset_nanning: ["南宁", "南寧", "Nanning"],
  preset_guigang: ["贵港", "貴港", "Guigang"],
  preset_fourdeck: ["四副牌新版", "四副牌新版", "Four-deck (new)"],
  start_level: ["起始级别", "起始級別", "Start level"],
  illegal_follow: ["跟错牌", "跟錯牌", "Wrong follows"],
  mode_laogai: ["劳改", "勞改", "勞改 (punished)"],
  mode_reject: ["严格（拒绝）", "嚴格（拒絕）", "Strict (refused)"],
  turn_seconds: ["出牌时限（秒）", "出牌時限（秒）", "Turn time (s)"],
  bid_window_seconds: ["叫主窗口（秒）", "叫主窗口（秒）", "Bid window (s)"],
  review_seconds: ["复核窗口（秒）", "複核窗口（秒）", "Review window (s)"],
  deal_interval_ms: ["发牌间隔（毫秒）", "發牌間隔（毫秒）", "Deal pace (ms)"],
  sit: ["坐下", "坐下", "Sit"],
  watch: ["旁观", "旁觀", "Watch"],
  empty_seat: ["空位", "空位", "empty"],
  add_bot: ["加机器人", "加機器人", "Add bot"],
  bot_level: ["机器人难度", "機器人難度", "Bot level"],
  bot_easy: ["简单", "簡單", "Easy"],
  bot_normal: ["普通", "普通", "Normal"],
  bot_hard: ["困难", "困難", "Hard"],
  start: ["开始", "開始", "Start"],
  leave: ["离开", "離開", "Leave"],
  history: ["牌局记录", "牌局記錄", "History"],
  left_escaped: ["你在牌局中离开，按逃跑结算", "你在牌局中離開，按逃跑結算", "You left during a hand: settled as an escape"],
  left_removed: ["你离线到牌局结束，已离开牌桌", "你離線到牌局結束，已離開牌桌", "You were away when the hand ended and left the table"],
  left_closed: ["牌桌已解散", "牌桌已解散", "The table was dissolved"],
  laogai_retracted: ["双方各有一次跟错，已撤回重出", "雙方各有一次跟錯，已撤回重出", "One wrong follow on each side: both taken back, play again"],
  session_replaced: ["已在其他窗口登录", "已在其他視窗登入", "This account is now playing in another window"],
  status_waiting: ["等人", "等人", "waiting"],
  status_playing: ["进行中", "進行中", "playing"],
  seat_S: ["南", "南", "S"],
  seat_E: ["东", "東", "E"],
  seat_N: ["北", "北", "N"],
  seat_W: ["西", "西", "W"],
  bot: ["机器人", "機器人", "bot"],
  offline: ["离线", "離線", "offline"],
  autoplay_mark: ["托管", "託管", "auto"],
  dealer_mark: ["庄", "莊", "D"],
  you: ["你", "你", "you"],
  spectating: ["旁观中", "旁觀中", "Watching"],
  level: ["级别", "級別", "Level"],
  trump: ["主", "主", "Trump"],
  level_short: ["级", "級", "Lv"],
  hand_level: ["打 {level}", "打 {level}", "Playing {level}s"],
  our_team: ["我方", "我方", "Us"],
  their_team: ["对方", "對方", "Them"],
  team_ns: ["南北", "南北", "N–S"],
  team_ew: ["东西", "東西", "E–W"],
  no_bid: ["尚未亮主", "尚未亮主", "no bid yet"],
  bid_by: ["{name} 亮 {bid}", "{name} 亮 {bid}", "{name} bid {bid}"],
  bid_show: ["亮 {bid}", "亮 {bid}", "Bid {bid}"],
  bid_reinforce: ["加固 {bid}", "加固 {bid}", "Reinforce {bid}"],
  bid_overturn: ["反主 {bid}", "反主 {bid}", "Overturn {bid}"],
  bid_pass: ["不叫", "不叫", "Pass (不叫)"],
  dealing: ["发牌中 {n}/216", "發牌中 {n}/216", "Dealing {n}/216"],
  bidding_window: ["叫主中…", "叫主中…", "Bidding…"],
  attackers_points: ["闲家得分", "閒家得分", "Attackers"],
  cards_left: ["剩余", "剩餘", "Left"],
  point_cards: ["分牌", "分牌", "Point cards"],
  last_trick: ["上一轮", "上一輪", "Last trick"],
  hint: ["提示", "提示", "Hint"],
  play: ["出牌", "出牌", "Play"],
  remind: ["提醒", "提醒", "Remind"],
  retract: ["撤牌", "撤牌", "Retract"],
  autoplay_on: ["托管", "託管", "Auto-play"],
  autoplay_off: ["取消托管", "取消託管", "Stop auto-play"],
  your_turn: ["轮到你出牌", "輪到你出牌", "Your turn"],
  your_lead: ["轮到你领牌", "輪到你領牌", "Your lead"],
  waiting_for: ["等 {name}", "等 {name}", "Waiting for {name}"],
  select_cards: ["请先选牌", "請先選牌", "Select cards first"],
  reminded: ["队友提醒你：这轮跟牌可能不合规则", "隊友提醒你：這輪跟牌可能不合規則", "Your partner reminds you: your follow may break the rules"],
  reviewing: ["复核中…", "複核中…", "Reviewing…"],
  confirm_wrong_title: ["这样跟牌不合规则", "這樣跟牌不合規則", "This follow breaks the rules"],
  confirm_wrong_body: [
    "劳改模式下仍可出，但若无人撤回，你方会被劳改（对方升 3 级）。",
    "勞改模式下仍可出，但若無人撤回，你方會被勞改（對方升 3 級）。",
    "In 勞改 mode you may still play it, but unless it is taken back your team is sentenced (the other team goes up 3 levels).",
  ],
  play_anyway: ["仍要出", "仍要出", "Play anyway"],
  settlement: ["本盘结算", "本盤結算", "Hand result"],
  defenders_win: ["庄家方胜", "莊家方勝", "Defenders win"],
  attackers_win: ["闲家上台", "閒家上台", "Attackers take the deal"],
  levels_up: ["升 {n} 级", "升 {n} 級", "+{n} levels"],
  no_level_change: ["不升级", "不升級", "no level change"],
  final_score: ["闲家得分", "閒家得分", "Attackers' score"],
  card_points_line: ["牌面分", "牌面分", "Card points"],
  kou_di: ["抠底", "摳底", "Last trick (摳底)"],
  fan_kou: ["反抠", "反摳", "Last trick (反摳)"],
  penalty: ["撤牌罚分", "撤牌罰分", "Retraction penalty"],
  result_laogai: ["{team} 被劳改", "{team} 被勞改", "{team} sentenced (勞改)"],
  result_redeal: ["无人亮主，重新发牌", "無人亮主，重新發牌", "No bid: redeal"],
  result_escape: ["{name} 逃跑", "{name} 逃跑", "{name} escaped"],
  result_dissolved: ["撤牌过多，牌桌解散", "撤牌過多，牌桌解散", "Too many retractions: table dissolved"],
  ranked_hand: ["计分局：积分按升级数结算", "計分局：積分按升級數結算", "Ranked hand: 積分 settled by levels"],
  unranked_hand: ["非计分局（有游客或机器人，或节奏快于标准）：积分和银子只在玩家之间转移", "非計分局（有遊客或機器人，或節奏快於標準）：積分和銀子只在玩家之間轉移", "Not ranked (a guest or bot seated, or faster than the standard pace): 積分 and silver only move between players"],
  cheating: ["作弊：{names}", "作弊：{names}", "Cheating: {names}"],
  team_levels: ["级别", "級別", "Levels"],
  new_title: ["新头衔", "新頭銜", "New title"],
  next_hand: ["继续", "繼續", "Continue"],
  close: ["关闭", "關閉", "Close"],
  replay: ["回放", "回放", "Replay"],
  trick_n: ["第 {n}/{m} 轮", "第 {n}/{m} 輪", "Trick {n}/{m}"],
  prev: ["上一轮", "上一輪", "Previous"],
  next: ["下一轮", "下一輪", "Next"],
  back: ["返回", "返回", "Back"],
  no_history: ["还没有打完的牌局", "還沒有打完的牌局", "No finished hands yet"],
  hand_n: ["第 {n} 盘", "第 {n} 盤", "Hand {n}"],
  winner_seat: ["{name} 赢", "{name} 贏", "{name} won"],
  points_n: ["{n} 分", "{n} 分", "{n} pts"],
  connecting: ["连接中…", "連線中…", "Connecting…"],
  reconnecting: ["连接断开，{s} 秒后重连…", "連線中斷，{s} 秒後重連…", "Connection lost, retrying in {s}s…"],
  error: ["出错了", "出錯了", "Error"],
  language: ["语言", "語言", "Language"],
};

/** Rank titles (積分) and wealth titles (銀子) of RULES.md §13, keyed by their 繁體 name: [简体, English]. */
const TITLES = {
  布衣: ["布衣", "Commoner"], 秀才: ["秀才", "Scholar"], 舉人: ["举人", "Graduate"], 進士: ["进士", "Laureate"],
  縣令: ["县令", "Magistrate"], 通判: ["通判", "Sub-prefect"], 知府: ["知府", "Prefect"],
  道台: ["道台", "Intendant"], 太守: ["太守", "Governor"], 都督: ["都督", "Commander"], 御史: ["御史", "Censor"],
  提督: ["提督", "Admiral"], 巡按: ["巡按", "Inspector"], 天官: ["天官", "Minister of Rites"],
  總督: ["总督", "Viceroy"], 尚書: ["尚书", "Minister"], 太師: ["太师", "Grand Tutor"],
  大將軍: ["大将军", "Grand General"], 宰相: ["宰相", "Chancellor"], 皇上: ["皇上", "Emperor"],
  待業: ["待业", "Jobless"], 臨時工: ["临时工", "Temp"], 契約工: ["契约工", "Contractor"],
  正式工: ["正式工", "Employee"], 助理主管: ["助理主管", "Asst. Supervisor"], 副主管: ["副主管", "Deputy Supervisor"],
  主管: ["主管", "Supervisor"], 助理經理: ["助理经理", "Asst. Manager"], 副經理: ["副经理", "Deputy Manager"],
  經理: ["经理", "Manager"], 助理總裁: ["助理总裁", "Asst. President"], 副總裁: ["副总裁", "Vice President"],
  總裁: ["总裁", "President"], 董事: ["董事", "Director"], 副董事長: ["副董事长", "Vice Chairman"],
  董事長: ["董事长", "Chairman"], 賭王: ["赌王", "King of Gamblers"], 賭聖: ["赌圣", "Saint of Gamblers"],
  賭神: ["赌神", "God of Gamblers"], 玉帝: ["玉帝", "Jade Emperor"],
};

/**
 * Add strings of another module (key → [简体, 繁體, English]); a key already defined is kept.
 * @param {Record<string, [string, string, string]>} table
 */
export function addStrings(table) {
  for (const [key, entry] of Object.entries(table)) {
    if (!(key in STRINGS)) STRINGS[key] = entry;
  }
}

/**
 * Whether a key has a text.
 * @param {string} key
 * @returns {boolean}
 */
export function hasString(key) {
  return key in STRINGS;
}

const INDEX = { "zh-Hans": 0, "zh-Hant": 1, en: 2 };
/** @type {Set<() => void>} */
const listeners = new Set();

/** @returns {keyof typeof INDEX} */
function initialLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && saved in INDEX) return /** @type {keyof typeof INDEX} */ (saved);
  const nav = (navigator.language || "").toLowerCase();
  if (nav.startsWith("zh")) return /(tw|hk|mo|hant)/.test(nav) ? "zh-Hant" : "zh-Hans";
  return "en";
}

let current = initialLanguage();

/** @returns {string} the current language code: "zh-Hans", "zh-Hant" or "en" */
export function language() {
  return current;
}

/**
 * Switch language, remember it, re-translate static text and notify listeners.
 * @param {string} lang
 */
export function setLanguage(lang) {
  if (!(lang in INDEX)) return;
  current = /** @type {keyof typeof INDEX} */ (lang);
  localStorage.setItem(STORAGE_KEY, current);
  translatePage(document);
  for (const fn of listeners) fn();
}

/**
 * Call fn after every language change (views re-render their dynamic text).
 * @param {() => void} fn
 */
export function onLanguageChange(fn) {
  listeners.add(fn);
}

/**
 * A text in the current language: an entry [简体, 繁體, English], or a string the same in all three.
 * @param {string|[string, string, string]} entry
 * @returns {string}
 */
export function pick(entry) {
  return typeof entry === "string" ? entry : entry[INDEX[current]];
}

/**
 * The text of a key in the current language, with {name} placeholders filled in.
 * @param {string} key
 * @param {Record<string, string|number>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const entry = STRINGS[key];
  const text = entry ? pick(entry) : key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? `{${name}}`));
}

/**
 * A rank or wealth title (sent by the server in 繁體) in the current language.
 * @param {string} title
 * @returns {string}
 */
export function title(title) {
  const entry = TITLES[title];
  if (!entry || current === "zh-Hant") return title;
  return current === "zh-Hans" ? entry[0] : entry[1];
}

/**
 * Fill every [data-i18n] element's text (and [data-i18n-placeholder] placeholders) under root.
 * @param {ParentNode} root
 */
export function translatePage(root) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? "");
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    /** @type {HTMLInputElement} */ (el).placeholder = t(/** @type {HTMLElement} */ (el).dataset.i18nPlaceholder ?? "");
  }
}
