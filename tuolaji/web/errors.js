// Refusals in the reader's language: an `error` (code + params, PROTOCOL.md §2.5) becomes a sentence
// with the seeds' terms and a link to the rule it cites. The server's English `message` is never shown.

import { rankLabel } from "./cards.js";
import { when } from "./console_words.js";
import { h } from "./dom.js";
import { addStrings, hasString, t } from "./i18n.js";
import { cardsText, classText, listText, shapeText } from "./words.js";

/** Text keys: e.CODE.REASON (params needed), e.CODE.params (params needed), e.CODE (no params). */
addStrings({
  "e.unknown": ["服务器拒绝了这个操作。", "伺服器拒絕了這個操作。", "The server refused that."],
  "e.internal": ["服务器出了点问题，牌局照常进行。", "伺服器出了點問題，牌局照常進行。", "Something went wrong on the server; the game goes on."],
  "e.bad_json": ["这个页面送出的消息服务器看不懂，请刷新页面。", "這個頁面送出的訊息伺服器看不懂，請重新整理頁面。", "The server could not read a message from this page; reload the page."],
  "e.bad_message": ["这个页面送出的消息服务器看不懂，请刷新页面。", "這個頁面送出的訊息伺服器看不懂，請重新整理頁面。", "The server could not read a message from this page; reload the page."],
  "e.unknown_type": ["这个页面送出的消息服务器看不懂，请刷新页面。", "這個頁面送出的訊息伺服器看不懂，請重新整理頁面。", "The server could not read a message from this page; reload the page."],
  "e.bad_request": ["这个页面送出的请求服务器看不懂，请刷新页面。", "這個頁面送出的請求伺服器看不懂，請重新整理頁面。", "The server could not read a request from this page; reload the page."],
  "e.bad_card": ["有一张牌服务器不认得。", "有一張牌伺服器不認得。", "The server does not know one of those cards."],
  "e.too_large": ["消息太大，服务器没有收下。", "訊息太大，伺服器沒有收下。", "That message was too large for the server."],
  "e.rate_limited": ["操作太频繁了，请慢一点再试。", "操作太頻繁了，請慢一點再試。", "Too many requests at once: wait a moment and try again."],
  "e.rate_limited.closing": ["操作太频繁，连接被服务器关闭了。", "操作太頻繁，連線被伺服器關閉了。", "Too many messages: the server closed the connection."],
  "e.auth_required": ["请先登录。", "請先登入。", "Log in first."],
  "e.bad_token": ["登录已失效，请重新登录。", "登入已失效，請重新登入。", "Your session has ended: log in again."],
  "e.session_replaced": ["这个账号已在其他窗口登录。", "這個帳號已在其他視窗登入。", "This account is now playing in another window."],
  "e.starting": ["服务器正在启动，请稍候再试。", "伺服器正在啟動，請稍候再試。", "The server is starting: try again in a moment."],
  "e.escape_cooldown": ["你刚从牌局中逃跑，暂时不能入座。", "你剛從牌局中逃跑，暫時不能入座。", "You left a hand (escape): you cannot sit down for a while."],
  "e.escape_cooldown.params": ["你刚从牌局中逃跑，{seconds} 秒后才能再入座。", "你剛從牌局中逃跑，{seconds} 秒後才能再入座。", "You left a hand (escape): you may sit down again in {seconds} s."],
  "e.rate_limited.joins": ["入座太频繁了，请 {seconds} 秒后再试。", "入座太頻繁了，請 {seconds} 秒後再試。", "Too many tables in a row: try again in {seconds} s."],
  "e.bad_token.logged_out": ["你已登出，这个连接已关闭。", "你已登出，這個連線已關閉。", "You logged out; this connection is closed."],
  "e.rate_limited.tables": ["从这个网络开的牌桌太多了，请 {seconds} 秒后再试。", "從這個網路開的牌桌太多了，請 {seconds} 秒後再試。", "Too many tables opened from your network: try again in {seconds} s."],
  "e.bad_token.expired": ["登录已过期，这个连接已关闭，请重新登录。", "登入已過期，這個連線已關閉，請重新登入。", "Your session expired and this connection is closed: log in again."],
  "e.lobby_full": ["从你的网络打开牌室大厅的窗口太多了，这个窗口暂时看不到牌桌列表。", "從你的網路打開牌室大廳的視窗太多了，這個視窗暫時看不到牌桌列表。", "Too many windows on your network follow the lobby: this one does not get the table list for now."],
  "e.lobby_full.params": ["从你的网络最多 {limit} 个窗口能看牌桌列表，这个窗口暂时看不到。", "從你的網路最多 {limit} 個視窗能看牌桌列表，這個視窗暫時看不到。", "At most {limit} windows on your network follow the lobby: this one does not get the table list for now."],
  "e.server_restarting": ["服务器正在重启，请稍候再试。", "伺服器正在重啟，請稍候再試。", "The server is restarting: try again in a moment."],
  "e.table_moving": ["这张牌桌正转到另一台服务器，请稍候再试。", "這張牌桌正轉到另一台伺服器，請稍候再試。", "This table is moving to another server: try again in a moment."],
  "e.service_unavailable": ["牌室暂时无法开新桌或入座，请稍候再试。", "牌室暫時無法開新桌或入座，請稍候再試。", "The card room cannot open tables or seat anyone right now: try again in a moment."],
  "e.banned": ["这个账号已被封禁。", "這個帳號已被封禁。", "This account is banned."],
  "e.banned.params": ["这个账号已被封禁（{why}），{until}。", "這個帳號已被封禁（{why}），{until}。", "This account is banned ({why}), {until}."],
  "e.muted": ["你已被禁言，不能说快捷语。", "你已被禁言，不能說快捷語。", "You are muted: no quick phrases."],
  "e.muted.params": ["你已被禁言（{why}），{until}不能说快捷语。", "你已被禁言（{why}），{until}不能說快捷語。", "You are muted ({why}): no quick phrases {until}."],
  "e.forbidden": ["你没有权限做这件事。", "你沒有權限做這件事。", "You may not do that."],
  "e.forbidden.params": ["{needs}", "{needs}", "{needs}"],
  "e.already_reported": ["这一盘你已经举报过这位玩家了。", "這一盤你已經檢舉過這位玩家了。", "You reported this player for this hand already."],
  "e.not_in_hand": ["只能举报和你一起打这一盘的玩家。", "只能檢舉和你一起打這一盤的玩家。", "You can report only someone who played this hand with you."],
  "e.bad_report": ["不能举报自己。", "不能檢舉自己。", "You cannot report yourself."],
  "e.report_closed": ["这个举报已经结案了。", "這個檢舉已經結案了。", "That report is closed already."],
  "e.not_in_force": ["现在没有封禁或禁言可解除。", "現在沒有封禁或禁言可解除。", "Nothing of that kind is in force to lift."],
  needs_moderator: ["只有管理员和超级管理员能用管理台。", "只有管理員和超級管理員能用管理台。", "Only moderators and admins may use the console."],
  needs_admin: ["这件事只有超级管理员能做。", "這件事只有超級管理員能做。", "Only an admin may do that."],
  needs_player: ["管理员的账号不能封禁或禁言（先收回角色）。", "管理員的帳號不能封禁或禁言（先收回角色）。", "Staff accounts are not banned or muted (revoke the role first)."],
  needs_another: ["不能对自己的账号这样做。", "不能對自己的帳號這樣做。", "Not on your own account."],
  "e.not_found": ["找不到要的数据。", "找不到要的資料。", "Not found."],
  "e.bad_nickname": ["暱称要 1–20 个字，前后不能有空格，不能有看不见的字符，也不能以 guest 开头。", "暱稱要 1–20 個字，前後不能有空格，不能有看不見的字元，也不能以 guest 開頭。", "A nickname has 1–20 characters, no spaces at either end, no invisible characters, and does not start with guest."],
  "e.bad_nickname.type": ["请填写暱称。", "請填寫暱稱。", "Enter a nickname."],
  "e.bad_nickname.length": ["暱称要 1–20 个字。", "暱稱要 1–20 個字。", "A nickname has 1–20 characters."],
  "e.bad_nickname.spaces": ["暱称前后不能有空格。", "暱稱前後不能有空格。", "A nickname cannot start or end with a space."],
  "e.bad_nickname.invisible": ["暱称里不能有看不见的字符或控制字符。", "暱稱裡不能有看不見的字元或控制字元。", "A nickname cannot contain invisible or control characters."],
  "e.bad_nickname.scripts": ["暱称不能混用不同文字的字母（例如拉丁字母夹着西里尔字母）。", "暱稱不能混用不同文字的字母（例如拉丁字母夾著西里爾字母）。", "A nickname cannot mix letters of different scripts (such as Latin with Cyrillic)."],
  "e.bad_nickname.guest": ["以 guest 开头（或看起来像）的暱称留给游客。", "以 guest 開頭（或看起來像）的暱稱留給訪客。", "Nicknames starting with guest (or looking like it) are kept for guests."],
  "e.bad_password": ["密码要 6–128 个字符，不能太常见。", "密碼要 6–128 個字元，不能太常見。", "A password has 6–128 characters and is not a common one."],
  "e.bad_password.length": ["密码要 6–128 个字符。", "密碼要 6–128 個字元。", "A password has 6–128 characters."],
  "e.bad_password.unicode": ["密码里有无效的字符。", "密碼裡有無效的字元。", "The password holds characters that are not valid text."],
  "e.bad_password.control": ["密码里不能有控制字符或看不见的字符。", "密碼裡不能有控制字元或看不見的字元。", "A password cannot contain control or invisible characters."],
  "e.bad_password.blank": ["密码不能全是空格。", "密碼不能全是空格。", "A password cannot be only spaces."],
  "e.bad_password.weak": ["密码至少要有 4 个不同的字符。", "密碼至少要有 4 個不同的字元。", "A password needs at least 4 different characters."],
  "e.bad_password.nickname": ["密码不能和暱称一样。", "密碼不能和暱稱一樣。", "A password cannot be the nickname."],
  "e.bad_password.common": ["这个密码太常见，很容易被猜到；请换一个。", "這個密碼太常見，很容易被猜到；請換一個。", "That password is too common and easy to guess; choose another."],
  "e.nickname_taken": ["这个暱称已经有人用了。", "這個暱稱已經有人用了。", "That nickname is taken."],
  "e.bad_credentials": ["暱称或密码不对。", "暱稱或密碼不對。", "Wrong nickname or password."],
  "e.no_table": ["找不到这张牌桌（可能已经解散）。", "找不到這張牌桌（可能已經解散）。", "That table is gone (it may have been dissolved)."],
  "e.private_table": ["这是私人牌桌，要用它的邀请链接才能旁观或入座。", "這是私人牌桌，要用它的邀請連結才能旁觀或入座。", "This table is private: open its invite link to watch or sit down."],
  "e.already_queued": ["你已经在快速开始的队列里了：先取消，再重新排队。", "你已經在快速開始的隊列裡了：先取消，再重新排隊。", "You are queueing for a quick match already: cancel first to queue again."],
  "e.not_queued": ["你没有在排队。", "你沒有在排隊。", "You are not queueing."],
  "e.match_gone": ["这次配对已经结束了。", "這次配對已經結束了。", "That match is over."],
  "e.bad_pair": ["这个朋友链接打不开：链接不对，或朋友已经取消排队。", "這個朋友連結打不開：連結不對，或朋友已經取消排隊。", "This friend's link opens nothing: the link is wrong, or your friend left the queue."],
  "e.bad_invite": ["这个邀请链接打不开：链接不对，或那张桌已经解散。", "這個邀請連結打不開：連結不對，或那張桌已經解散。", "This invite link opens nothing: the link is wrong, or the table was dissolved."],
  "e.not_table_creator": ["只有建这张桌的人才能把它公开到大厅。", "只有建這張桌的人才能把它公開到大廳。", "Only the player who created this table can list it in the lobby."],
  "e.too_many_phrases": ["说得太快了：连说 3 句后，每 3 秒才能再说一句。", "說得太快了：連說 3 句後，每 3 秒才能再說一句。", "Too fast: after 3 phrases in a row, one every 3 seconds."],
  "e.too_many_phrases.params": ["说得太快了，{wait_s} 秒后再说。", "說得太快了，{wait_s} 秒後再說。", "Too fast: wait {wait_s}s before the next phrase."],
  "e.not_seated": ["你不在这张牌桌的座位上。", "你不在這張牌桌的座位上。", "You are not seated at this table."],
  "e.already_seated": ["你已经在一张牌桌上，请先离开。", "你已經在一張牌桌上，請先離開。", "You are already at a table: leave it first."],
  "e.seat_taken": ["这个座位已经有人了。", "這個座位已經有人了。", "That seat is taken."],
  "e.seat_taken.params": ["{seat}的座位已经有人了。", "{seat}的座位已經有人了。", "The {seat} seat is taken."],
  "e.seat_empty": ["这个座位没有机器人。", "這個座位沒有機器人。", "That seat holds no bot."],
  "e.hand_in_progress": ["牌局进行中，现在不能这样做。", "牌局進行中，現在不能這樣做。", "Not while a hand is being played."],
  "e.not_ready_state": ["现在不能按开始：牌局已经开始了。", "現在不能按開始：牌局已經開始了。", "Start is pressed before a match, not now."],
  "e.bad_options": ["牌桌设置有误。", "牌桌設定有誤。", "Those table settings are not valid."],
  "e.bad_options.bad_value": ["牌桌设置“{field}”不对：{range}。", "牌桌設定「{field}」不對：{range}。", "Table setting “{field}” is not valid: {range}."],
  "e.bad_options.unknown": ["不认得的牌桌设置：{fields}。", "不認得的牌桌設定：{fields}。", "Unknown table settings: {fields}."],
  "e.range": ["要在 {low} 到 {high} 之间", "要在 {low} 到 {high} 之間", "expected {low} to {high}"],
  "e.choices": ["可选 {choices}", "可選 {choices}", "expected one of {choices}"],
  "e.wrong_phase": ["现在不能这样做。", "現在不能這樣做。", "Not now."],
  "e.wrong_phase.round_over": ["这一盘已经结束了。", "這一盤已經結束了。", "This hand is over."],
  "e.wrong_phase.deal_over": ["牌已经发完了。", "牌已經發完了。", "The deal is over."],
  "e.wrong_phase.bidding_closed": ["叫牌已经结束，不能再亮主了。", "叫牌已經結束，不能再亮主了。", "Bidding is closed: no more bids."],
  "e.wrong_phase.deal_not_finished": ["牌还没发完。", "牌還沒發完。", "The deal is not finished."],
  "e.wrong_phase.no_play_expected": ["现在还不能出牌。", "現在還不能出牌。", "No play is expected now."],
  "e.wrong_phase.no_trick": ["现在没有正在打的一轮。", "現在沒有正在打的一輪。", "No trick is being played."],
  "e.wrong_phase.trick_not_complete": ["这一轮还没出完。", "這一輪還沒出完。", "The trick is not complete."],
  "e.wrong_phase.no_hand": ["现在没有进行中的牌局。", "現在沒有進行中的牌局。", "No hand is being played."],
  "e.not_your_turn": ["还没轮到你。", "還沒輪到你。", "It is not your turn."],
  "e.not_your_turn.not_to_move": ["还没轮到你，现在轮到 {to_move}。", "還沒輪到你，現在輪到 {to_move}。", "It is not your turn: {to_move} is to play."],
  "e.cards_not_held": ["你手上没有这些牌。", "你手上沒有這些牌。", "Those cards are not all in your hand."],
  "e.cards_not_held.not_held": ["你手上没有这些牌：{cards}。", "你手上沒有這些牌：{cards}。", "Those cards are not all in your hand: {cards}."],
  "e.wrong_count": ["跟牌的张数必须和领牌相同。", "跟牌的張數必須和領牌相同。", "A follow has as many cards as the lead."],
  "e.wrong_count.wrong_count": ["跟牌的张数必须和领牌相同（{lead_size} 张），你出了 {count} 张。", "跟牌的張數必須和領牌相同（{lead_size} 張），你出了 {count} 張。", "A follow has as many cards as the lead ({lead_size}); you played {count}."],
  "e.invalid_lead": ["领牌只能出单张、对子、三子、炸弹或拖拉机之一，而且要同一门；领牌不能甩牌。", "領牌只能出單張、對子、三子、炸彈或拖拉機之一，而且要同一門；領牌不能甩牌。", "A lead is one single, pair, triple, bomb or tractor, all of one suit or all trumps: no throws (甩牌)."],
  "e.invalid_lead.empty": ["领牌至少要出一张。", "領牌至少要出一張。", "A lead needs at least one card."],
  "e.invalid_lead.mixed_classes": ["领牌必须同一门：{cards} 混了{classes}。", "領牌必須同一門：{cards} 混了{classes}。", "A lead is all of one suit or all trumps: {cards} mixes {classes}."],
  "e.invalid_lead.mixed_arities": ["领牌只能出一个牌型：{cards} 混了不同张数的牌，不成拖拉机。", "領牌只能出一個牌型：{cards} 混了不同張數的牌，不成拖拉機。", "A lead is one unit or one tractor: {cards} mixes units of different sizes, which is no tractor."],
  "e.invalid_lead.singles": ["领牌不能甩牌：{cards} 是几张不同的单张，一次只能出一张。", "領牌不能甩牌：{cards} 是幾張不同的單張，一次只能出一張。", "No throws (甩牌): {cards} are different singles; lead one at a time."],
  "e.invalid_lead.too_many": ["{cards} 中同一张牌超过四张。", "{cards} 中同一張牌超過四張。", "{cards} holds more than four identical cards."],
  "e.invalid_lead.not_consecutive": ["{cards} 中的{unit}不相连，不成拖拉机（没有隔拖）。", "{cards} 中的{unit}不相連，不成拖拉機（沒有隔拖）。", "The {unit}s in {cards} are not consecutive, so they are no tractor (no gapped tractors)."],
  "e.illegal_follow": ["这样跟牌不合规则。", "這樣跟牌不合規則。", "That follow breaks the rules."],
  "e.illegal_follow.wrong_count": ["跟牌的张数必须和领牌相同（{lead_size} 张），你出了 {count} 张。", "跟牌的張數必須和領牌相同（{lead_size} 張），你出了 {count} 張。", "A follow has as many cards as the lead ({lead_size}); you played {count}."],
  "e.illegal_follow.not_held": ["你手上没有 {missing}。", "你手上沒有 {missing}。", "You do not hold {missing}."],
  "e.illegal_follow.left_out": ["你的{class}只有 {held} 张，不够领牌的 {lead_size} 张，必须全部跟出，不够的垫其它的牌；你留下了 {kept}。例如：{example}。", "你的{class}只有 {held} 張，不夠領牌的 {lead_size} 張，必須全部跟出，不夠的墊其它的牌；你留下了 {kept}。例如：{example}。", "You hold only {held} {class}, no more than the lead's {lead_size}, so all of them must go into the follow and other cards make up the rest; you kept {kept}. For example: {example}."],
  "e.illegal_follow.off_class": ["你有 {held} 张{class}，多过领牌的 {lead_size} 张，所以必须全部跟{class}（{must}）；你出了 {others}。例如：{example}。", "你有 {held} 張{class}，多過領牌的 {lead_size} 張，所以必須全部跟{class}（{must}）；你出了 {others}。例如：{example}。", "You hold {held} {class}, more than the lead's {lead_size}, so every card of the follow must be {class} ({must}); you played {others}. For example: {example}."],
  "e.illegal_follow.exact": ["你有{class}的{shape}，必须跟出相同牌型、相同张数的牌（{shape}）。例如：{example}。", "你有{class}的{shape}，必須跟出相同牌型、相同張數的牌（{shape}）。例如：{example}。", "You hold a {shape} in {class}, so you must follow with the same shape and count (a {shape}). For example: {example}."],
  "e.illegal_follow.same_count": ["你没有{class}的{shape}，但有 {lead_size} 张的拖拉机，必须跟出拖拉机。例如：{example}。", "你沒有{class}的{shape}，但有 {lead_size} 張的拖拉機，必須跟出拖拉機。例如：{example}。", "You hold no {shape} in {class} but a tractor of {lead_size} cards, so you must follow with that tractor. For example: {example}."],
  "e.illegal_follow.exact_or_same": ["你有{class}的{shape}或 {lead_size} 张的拖拉机，必须跟出其中之一（贵港规则）。例如：{example}。", "你有{class}的{shape}或 {lead_size} 張的拖拉機，必須跟出其中之一（貴港規則）。例如：{example}。", "You hold a {shape} or a tractor of {lead_size} cards in {class}, so you must follow with one of them (Guigang rules). For example: {example}."],
  "e.illegal_follow.tractors": ["你没有{shape}，也没有 {lead_size} 张的拖拉机，必须先跟张数最多的拖拉机，再跟对子：应有{best}，你出的是{got}。例如：{example}。", "你沒有{shape}，也沒有 {lead_size} 張的拖拉機，必須先跟張數最多的拖拉機，再跟對子：應有{best}，你出的是{got}。例如：{example}。", "You hold no {shape} and no tractor of {lead_size} cards, so the follow must hold your largest tractors, then pairs: {best}; yours has {got}. For example: {example}."],
  "e.illegal_follow.pairs": ["你没有{class}的{shape}，必须先跟对子：你能出 {best_pairs} 对（三子算一对、炸弹算两对，有足够对子不能用三子代替），你只出了 {got_pairs} 对。例如：{example}。", "你沒有{class}的{shape}，必須先跟對子：你能出 {best_pairs} 對（三子算一對、炸彈算兩對，有足夠對子不能用三子代替），你只出了 {got_pairs} 對。例如：{example}。", "You hold no {shape} in {class}, so the follow must hold as many pairs as you can make: {best_pairs} (a triple counts as one pair, a bomb as two); yours has {got_pairs}. For example: {example}."],
  "e.second_wrong": ["（这一轮已撤回过双方的跟错，再跟错不再接受。）", "（這一輪已撤回過雙方的跟錯，再跟錯不再接受。）", " (Both sides' wrong follows were already taken back in this trick: a second one is refused.)"],
  "e.value_tractors": ["拖拉机 {tractors} 张", "拖拉機 {tractors} 張", "tractors of {tractors} cards"],
  "e.value_no_tractor": ["没有拖拉机", "沒有拖拉機", "no tractor"],
  "e.value_pairs": ["另 {pairs} 对", "另 {pairs} 對", "{pairs} other pair(s)"],
  "e.bad_bid": ["不能这样亮主。", "不能這樣亮主。", "That bid is not allowed."],
  "e.bad_bid.not_held": ["你只有 {held} 张{bid_card}，不能亮 {count} 张。", "你只有 {held} 張{bid_card}，不能亮 {count} 張。", "You hold only {held} of {bid_card}, not {count}."],
  "e.bad_bid.other_suit": ["加固只能亮同一花色的级牌（{standing_suit}）；换花色就是反主，只能由别人来反。", "加固只能亮同一花色的級牌（{standing_suit}）；換花色就是反主，只能由別人來反。", "You can only reinforce (加固) in your own suit ({standing_suit}); another suit would be an overturn (反主), which is for the others."],
  "e.bad_bid.too_few": ["要亮出多过现在 {standing} 张的级牌。", "要亮出多過現在 {standing} 張的級牌。", "Show more level cards than the standing {standing}."],
  "e.not_allowed": ["现在不能这样做。", "現在不能這樣做。", "That is not allowed now."],
  "e.not_allowed.partner_not_followed": ["对家跟牌以后才能提醒，不能提醒领牌者。", "對家跟牌以後才能提醒，不能提醒領牌者。", "You may remind your partner only after they followed; the leader cannot be reminded."],
  "e.not_allowed.already_reminded": ["这一轮已经提醒过对家了。", "這一輪已經提醒過對家了。", "You already reminded your partner in this trick."],
  "e.not_allowed.already_passed": ["你已经说了不叫；其他人都说了不叫或叫不了，叫牌就结束。", "你已經說了不叫；其他人都說了不叫或叫不了，叫牌就結束。", "You already passed (不叫); bidding ends once everyone has passed or cannot bid."],
  "e.not_allowed.system_play": ["这一手是系统替你出的（超时或托管），不能撤牌。", "這一手是系統替你出的（超時或託管），不能撤牌。", "The server played that for you (a timeout or 託管): it cannot be retracted (撤牌)."],
  "e.would_escape": ["牌局中离开按逃跑处理（扣银子和积分）；确定要走才会离开。", "牌局中離開按逃跑處理（扣銀子和積分）；確定要走才會離開。", "Leaving during a hand counts as an escape (you lose silver and points); you leave only once you confirm."],
  "e.would_escape.params": ["牌局中离开按逃跑处理：扣 {silver} 银子、{points} 积分；确定要走才会离开。", "牌局中離開按逃跑處理：扣 {silver} 銀子、{points} 積分；確定要走才會離開。", "Leaving during a hand counts as an escape: you lose {silver} silver and {points} points; you leave only once you confirm."],
  "e.not_allowed.not_follower": ["只有这一轮已经跟牌的人才能撤牌，领牌者不能撤牌。", "只有這一輪已經跟牌的人才能撤牌，領牌者不能撤牌。", "Only a follower who has played in this trick may retract (撤牌); the leader cannot."],
  "e.illegal_action": ["不能这样做。", "不能這樣做。", "That is not allowed."],
  "e.confirm_laogai": ["这样跟牌不合规则。", "這樣跟牌不合規則。", "That follow breaks the rules."],
  seat_name_0: ["南家", "南家", "South"],
  seat_name_1: ["东家", "東家", "East"],
  seat_name_2: ["北家", "北家", "North"],
  seat_name_3: ["西家", "西家", "West"],
  rule_ref: ["规则 {rule}", "規則 {rule}", "rule {rule}"],
});

const OPTION_KEYS = new Set(["preset", "start_level", "illegal_follow", "warn_wrong_follow", "turn_seconds",
  "bid_window_seconds", "review_seconds", "deal_interval_ms"]);

/**
 * @typedef {{code: string, params?: Record<string, any>, rule?: string|null}} Refusal  an error message or event
 * @typedef {(seat: number) => string} SeatNamer
 */

/**
 * The words a refusal's params fill in.
 * @param {Record<string, any>} p
 * @param {SeatNamer} names
 * @returns {Record<string, string|number>}
 */
function vars(p, names) {
  /** @type {Record<string, string|number>} */
  const out = {};
  for (const key of ["cards", "example", "kept", "others", "missing"]) {
    if (Array.isArray(p[key])) out[key] = cardsText(p[key]);
  }
  for (const key of ["held", "lead_size", "count", "best_pairs", "got_pairs", "standing", "seconds", "limit", "points", "silver"]) {
    if (typeof p[key] === "number") out[key] = p[key];
  }
  if (typeof p.wait_ms === "number") out.wait_s = Math.max(1, Math.ceil(p.wait_ms / 1000));
  for (const key of ["seat", "to_move", "partner"]) {
    if (typeof p[key] === "number") out[key] = names(p[key]);
  }
  if (typeof p.class === "string") {
    out.class = classText(p.class);
    out.must = t(p.class === "trump" ? "must_follow_trump" : "must_follow_suit");
  }
  if (Array.isArray(p.classes)) out.classes = listText(p.classes.map(String).map(classText));
  if (p.shape && typeof p.shape.arity === "number") out.shape = shapeText(p.shape);
  if (typeof p.arity === "number") out.unit = shapeText({ arity: p.arity, length: 1 });
  for (const key of ["best", "got"]) {
    const value = p[key];
    if (value && Array.isArray(value.tractors)) {
      const tractors = value.tractors.length
        ? t("e.value_tractors", { tractors: listText(value.tractors.map(String)) }) : t("e.value_no_tractor");
      out[key] = `${tractors}${t("list_sep")}${t("e.value_pairs", { pairs: value.pairs ?? 0 })}`;
    }
  }
  if (typeof p.suit === "string" && typeof p.level === "string") {
    out.bid_card = `${classText(p.suit)} ${rankLabel(p.level)}`;
  }
  if (typeof p.standing_suit === "string") out.standing_suit = classText(p.standing_suit);
  if (typeof p.field === "string" && OPTION_KEYS.has(p.field)) out.field = t(p.field);
  if (Array.isArray(p.fields)) out.fields = listText(p.fields.map(String));
  if (typeof p.reason === "string" && hasString(`reason_${p.reason}`)) out.why = t(`reason_${p.reason}`);
  if ("until" in p) out.until = typeof p.until === "string" ? t("ban_until", { until: when(p.until) }) : t("ban_forever");
  if (typeof p.needs === "string" && hasString(`needs_${p.needs}`)) out.needs = t(`needs_${p.needs}`);
  if (p.low !== undefined && p.high !== undefined) out.range = t("e.range", { low: p.low, high: p.high });
  else if (Array.isArray(p.expected)) out.range = t("e.choices", { choices: listText(p.expected.map(String)) });
  return out;
}

/**
 * The sentence for a refusal in the current language, and the rule it cites.
 * Keys are tried from the most specific (reason, then params) to the code's plain text, taking the
 * first whose blanks the params fill; an unknown code gets a generic text.
 * @param {Refusal} msg
 * @param {SeatNamer} [names] how to name a seat (default: its direction)
 * @returns {{text: string, rule: string|null}}
 */
export function describeError(msg, names = (seat) => t(`seat_name_${seat}`)) {
  const p = msg.params && typeof msg.params === "object" ? msg.params : {};
  const rule = typeof p.rule === "string" ? p.rule : typeof msg.rule === "string" ? msg.rule : null;
  const filled = vars(p, names);
  const keys = [];
  // A follow refused for confirmation (勞改 tables with warn_wrong_follow) has the reasons of illegal_follow.
  const family = msg.code === "confirm_laogai" ? "illegal_follow" : msg.code;
  if (typeof p.reason === "string") keys.push(`e.${family}.${p.reason}`);
  keys.push(`e.${msg.code}.params`, `e.${msg.code}`, "e.unknown");
  let text = "";
  for (const key of keys) {
    if (!hasString(key)) continue;
    text = t(key, filled);
    if (!/\{\w+\}/.test(text)) break;
  }
  if (p.second_wrong === true) text += t("e.second_wrong");
  return { text, rule: rule && /^R\d+$/.test(rule) ? rule : null };
}

/**
 * A link into the rule book (the 規則 page opens at that rule).
 * @param {string} rule e.g. "R24"
 * @returns {HTMLElement}
 */
function ruleLink(rule) {
  return h("a.rule-link", { href: `#rules/${rule}`, dataset: { rule } }, t("rule_ref", { rule }));
}

/**
 * A refusal as an element: the sentence, then a link to its rule.
 * @param {Refusal} msg
 * @param {SeatNamer} [names]
 * @returns {HTMLElement}
 */
export function errorElement(msg, names) {
  const { text, rule } = describeError(msg, names);
  return h("span.refusal", { dataset: { code: msg.code } }, text, rule ? " " : null, rule ? ruleLink(rule) : null);
}
