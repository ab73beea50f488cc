// The rule book (docs/RULES.md) in the three languages, for the 規則 page: sections, rules R1–R47 with
// their numbers, the worked examples of R26 and R36, the title tables of §13 and the presets of §14.
// Markup in the texts: **bold**, `code`; a `code` span of card tokens ("AS AS KS KS") shows as cards.

/** @typedef {[string, string, string]} Tr  [简体, 繁體, English] */
/** @typedef {{id: string, text: Tr, table?: {head: Tr[], rows: (string|Tr)[][]}}} Rule */
/** @typedef {{id: string, title: Tr, intro?: Tr, rules: Rule[], after?: Tr}} Section */

/** @type {Tr} */
export const PREFACE = ["这是本游戏的规则书：服务器、机器人和这个网页都照它运行。它根据三份中文原文写成：000《南宁拖拉机》（最完整，含劳改、撤牌、提醒、玩家级别和财富等级）、001《贵港拖拉机》、002《四副牌拖拉机规则》（新版：不能甩牌、每盘最多升 3 级、必须叫主、逃跑扣分）。原文没说清楚的地方，本书以“决定”说明；本书和原文不同时，以本书为准。", "這是本遊戲的規則書：伺服器、機器人和這個網頁都照它執行。它根據三份中文原文寫成：000《南寧拖拉機》（最完整，含勞改、撤牌、提醒、玩家級別和財富等級）、001《貴港拖拉機》、002《四副牌拖拉機規則》（新版：不能甩牌、每盤最多升 3 級、必須叫主、逃跑扣分）。原文沒說清楚的地方，本書以「決定」說明；本書和原文不同時，以本書為準。",
  "This is the game's rule book: the server, the bots and this page follow it. It was written from three Chinese texts: 000 南寧拖拉機 (Nanning; the fullest: 勞改, 撤牌, 提醒, rank and wealth tables), 001 貴港拖拉機 (Guigang) and 002 四副牌拖拉機規則 (a new version: no throws, at most 3 levels a hand, a bid is required, an escape penalty). Where they are silent or unclear this book decides (**Decision:**); where it and a seed text disagree, this book wins."];

/** @type {Tr} */
export const NOTATION = ["牌的写法：点数在前、花色在后，点数 2 3 4 5 6 7 8 9 10 J Q K A，花色 ♠ 黑桃、♥ 红桃、♣ 梅花、♦ 方块；另有大王、小王。例子多以“打 10、红桃为主”为准，和原文一样。", "牌的寫法：點數在前、花色在後，點數 2 3 4 5 6 7 8 9 10 J Q K A，花色 ♠ 黑桃、♥ 紅桃、♣ 梅花、♦ 方塊；另有大王、小王。例子多以「打 10、紅桃為主」為準，和原文一樣。",
  "Cards are written rank then suit: ranks 2 3 4 5 6 7 8 9 10 J Q K A, suits ♠ spades (黑桃), ♥ hearts (紅桃), ♣ clubs (梅花), ♦ diamonds (方塊); and the big joker (大王) and small joker (小王). Most examples play level 10 with hearts as trump, as the seeds do."];

/** @type {Section[]} */
export const SECTIONS = [
  {
    id: "s1",
    title: ["1. 牌桌、座位、队伍", "1. 牌桌、座位、隊伍", "1. Table, seats, teams"],
    rules: [
      { id: "R1", text: ["四人游戏。座位按出牌顺序：0 南（下）、1 东（右）、2 北（上）、3 西（左）。出牌按反时针方向：南 → 东 → 北 → 西 → 南（原文：东→北→西→南）。", "四人遊戲。座位按出牌順序：0 南（下）、1 東（右）、2 北（上）、3 西（左）。出牌按反時針方向：南 → 東 → 北 → 西 → 南（原文：東→北→西→南）。",
        "Four players. Seats in play order: 0 South (bottom), 1 East (right), 2 North (top), 3 West (left). Play goes counter-clockwise: South → East → North → West → South (the seeds: 東→北→西→南)."] },
      { id: "R2", text: ["对家是一家：上下（南北，座位 0 和 2）一家，左右（东西，座位 1 和 3）一家。", "對家是一家：上下（南北，座位 0 和 2）一家，左右（東西，座位 1 和 3）一家。",
        "Partners sit opposite: one team is seats 0 and 2 (上下, North–South), the other seats 1 and 3 (左右, East–West)."] },
      { id: "R3", text: ["术语：**局**：从四个人入座开始，到其中一人离开为止；**盘**：从发牌到出完最后一张牌或劳改为止；**轮**：从领牌到最后一个跟牌者出牌为止。**庄家**和他的对家是守方（庄家方），另外两人是**闲家**，负责得分。", "術語：**局**：從四個人入座開始，到其中一人離開為止；**盤**：從發牌到出完最後一張牌或勞改為止；**輪**：從領牌到最後一個跟牌者出牌為止。**莊家**和他的對家是守方（莊家方），另外兩人是**閒家**，負責得分。",
        "Terms: a **match** (局) lasts from four players sitting down until one leaves; a **hand** (盤) runs from the deal to the last card or to a 勞改 ruling; a **trick** (輪) runs from a lead to the last follow. The **dealer** (莊家) and partner are the **defenders**; the other two are the **attackers** (閒家), who collect points."] },
    ],
  },
  {
    id: "s2",
    title: ["2. 牌、级别、主牌", "2. 牌、級別、主牌", "2. Cards, levels, trump"],
    rules: [
      { id: "R4", text: ["四副扑克连大小王，共 4 × 54 = 216 张，每一张牌都有 4 张。每人 54 张，不垫底牌。", "四副撲克連大小王，共 4 × 54 = 216 張，每一張牌都有 4 張。每人 54 張，不墊底牌。",
        "Four standard decks with jokers: 4 × 54 = 216 cards, so every card exists 4 times. Each player gets 54 cards. There is no kitty (不墊底牌)."] },
      { id: "R5", text: ["每一方各有自己的级别，从 3 到 A（共 12 级；2 永远不是级别）。新的一局双方都从 3 打起，除非牌桌设置了别的起始级别（3…A；原文 002 可由第一个进入桌子的玩家设置从几打起）。过 A 后再从 3 打，所以一局没有最后的赢家。", "每一方各有自己的級別，從 3 到 A（共 12 級；2 永遠不是級別）。新的一局雙方都從 3 打起，除非牌桌設定了別的起始級別（3…A；原文 002 可由第一個進入桌子的玩家設定從幾打起）。過 A 後再從 3 打，所以一局沒有最後的贏家。",
        "Each team has a level, 3 … A (12 levels; 2 is never a level). A new match starts both teams at 3, unless the table was created with another start level (3 … A; seed 002 lets the table's first player choose it). Passing A wraps to 3 (過A後再從3打): the match has no final winner."] },
      { id: "R6", text: ["每一盘打庄家方的级别；这个点数的牌就是**级牌**。", "每一盤打莊家方的級別；這個點數的牌就是**級牌**。",
        "The hand is played at the **dealer team's level**; the cards of that rank are the **level cards** (級牌)."] },
      { id: "R7", text: ["**主牌花色**由叫牌决定（第 4 节）。每盘一定有主，没有无主。", "**主牌花色**由叫牌決定（第 4 節）。每盤一定有主，沒有無主。",
        "The **trump suit** (主牌花色) is chosen by bidding (§4). There is always one; there is no no-trump hand."] },
      { id: "R8", text: ["主牌包括：大王、小王、所有花色的级牌、所有花色的 2（**常主**），以及主牌花色的全部牌。其他牌都属于自己的花色（副牌）。一张牌的**门**是“主牌”或它自己的花色。", "主牌包括：大王、小王、所有花色的級牌、所有花色的 2（**常主**），以及主牌花色的全部牌。其他牌都屬於自己的花色（副牌）。一張牌的**門**是「主牌」或它自己的花色。",
        "Trumps (主牌) are: both jokers, all level cards of all suits, all 2s of all suits (常主, permanent trumps), and every card of the trump suit. Every other card belongs to its own suit. A card's **suit-class** is trump or its suit."] },
      { id: "R9", text: ["**大小顺序**（单张、对子、三子、炸弹都一样；以打 10、红桃为主为例）：大王 > 小王 > 红桃10（正10）> 黑桃10 = 梅花10 = 方块10（副10）> 红桃2（正2）> 黑桃2 = 梅花2 = 方块2（副2）> 红桃A > 红桃K > 红桃Q > 红桃J > 红桃9 > … > 红桃3。副牌：A > K > Q > J > 9 > … > 3（没有级牌，也没有 2）。一般来说：大小王，然后主花色的级牌，然后其他级牌（彼此一样大），然后主花色的 2，然后其他的 2（彼此一样大），然后主花色从 A 往下（跳过级牌和 2）。一样大的牌（例如黑桃10和梅花10）相比，先出的为大（R27）。", "**大小順序**（單張、對子、三子、炸彈都一樣；以打 10、紅桃為主為例）：大王 > 小王 > 紅桃10（正10）> 黑桃10 = 梅花10 = 方塊10（副10）> 紅桃2（正2）> 黑桃2 = 梅花2 = 方塊2（副2）> 紅桃A > 紅桃K > 紅桃Q > 紅桃J > 紅桃9 > … > 紅桃3。副牌：A > K > Q > J > 9 > … > 3（沒有級牌，也沒有 2）。一般來說：大小王，然後主花色的級牌，然後其他級牌（彼此一樣大），然後主花色的 2，然後其他的 2（彼此一樣大），然後主花色從 A 往下（跳過級牌和 2）。一樣大的牌（例如黑桃10和梅花10）相比，先出的為大（R27）。",
        "**Power order** (大小順序), highest first, for singles, pairs, triples and bombs (level 10, trump ♥ as example): `BJ` > `SJ` > `TH` (正10) > `TS` = `TC` = `TD` (副10) > `2H` (正2) > `2S` = `2C` = `2D` (副2) > `AH` > `KH` > `QH` > `JH` > `9H` > … > `3H`. Off-suit: A > K > Q > J > 9 > … > 3 (no level rank, no 2). In general: jokers, then the trump-suit level card, then the other level cards (all equal), then the trump-suit 2, then the other 2s (all equal), then the trump suit from A down, skipping the level rank and 2. Cards of equal power (e.g. `TS` and `TC`) tie; a tie goes to the card played first (R27)."] },
    ],
  },
  {
    id: "s3",
    title: ["3. 牌型", "3. 牌型", "3. Patterns"],
    rules: [
      { id: "R10", text: ["单位：**单张**（1 张）、**对子**（2 张相同的牌：点数和花色都相同）、**三子**（3 张相同）、**炸弹**（4 张相同）。一个单位有 1、2、3 或 4 张。", "單位：**單張**（1 張）、**對子**（2 張相同的牌：點數和花色都相同）、**三子**（3 張相同）、**炸彈**（4 張相同）。一個單位有 1、2、3 或 4 張。",
        "Units: **single** (1 card), **pair** 對子 (2 identical cards: same rank *and* suit), **triple** 三子 (3 identical), **bomb** 炸彈 (4 identical). The unit's **arity** is 1, 2, 3 or 4."] },
      { id: "R11", text: ["**拖拉机**是 2 个或更多张数相同（至少 2 张）的单位，同一门，并且在**拖拉机顺序**（R12）中相连。种类：连对（如 `4S 4S 5S 5S`）、连三（`4S 4S 4S 5S 5S 5S`）、炸弹拖拉机（黑桃 AAAA KKKK QQQQ）。张数不同的单位（AAAKK）不成拖拉机。没有隔拖，也不能甩牌。", "**拖拉機**是 2 個或更多張數相同（至少 2 張）的單位，同一門，並且在**拖拉機順序**（R12）中相連。種類：連對（如 `4S 4S 5S 5S`）、連三（`4S 4S 4S 5S 5S 5S`）、炸彈拖拉機（黑桃 AAAA KKKK QQQQ）。張數不同的單位（AAAKK）不成拖拉機。沒有隔拖，也不能甩牌。",
        "A **tractor** 拖拉機 is 2 or more units of the same arity ≥ 2, all of one suit-class, whose kinds are consecutive in the **tractor sequence** (R12). Kinds: pair tractor (連對, e.g. `4S 4S 5S 5S`), triple tractor (連三, `4S 4S 4S 5S 5S 5S`), bomb tractor (炸彈拖拉機, spades AAAA KKKK QQQQ). Mixed arities (AAAKK) are not a tractor. There are no gapped tractors (隔拖) and no throws (甩牌)."] },
      { id: "R12", text: ["**拖拉机顺序**按点数，不按大小顺序。副牌：点数 3…A，级牌和 2 不在其中（它们是主），所以级牌两边的点数**不相连**：打 10 时黑桃 99JJ 不是拖拉机。主牌花色：A(小) 2 3 4 5 6 7 8 9 10 J Q K A(大)，主花色的全部点数（连同主花色的级牌和主花色的 2）都在原位；A 可以接 2 当小，也可以接 K 当大，但一条拖拉机里不能两头都用。以红桃为主、打 10：`TH TH JH JH`、`9H 9H TH TH`、`2H 2H 3H 3H`、`AH AH 2H 2H`、`AH AH 2H 2H 3H 3H` 都是拖拉机，`KH KH AH AH 2H 2H 3H 3H` 不是。大小王：小王小王大王大王是拖拉机（大小王只能组成这一种）。副级牌和副 2 永远不组成拖拉机。原文所列不能构成拖拉机的：小王和正10、正10和副10、10和2、J和9（打 10），都与此一致。", "**拖拉機順序**按點數，不按大小順序。副牌：點數 3…A，級牌和 2 不在其中（它們是主），所以級牌兩邊的點數**不相連**：打 10 時黑桃 99JJ 不是拖拉機。主牌花色：A(小) 2 3 4 5 6 7 8 9 10 J Q K A(大)，主花色的全部點數（連同主花色的級牌和主花色的 2）都在原位；A 可以接 2 當小，也可以接 K 當大，但一條拖拉機裡不能兩頭都用。以紅桃為主、打 10：`TH TH JH JH`、`9H 9H TH TH`、`2H 2H 3H 3H`、`AH AH 2H 2H`、`AH AH 2H 2H 3H 3H` 都是拖拉機，`KH KH AH AH 2H 2H 3H 3H` 不是。大小王：小王小王大王大王是拖拉機（大小王只能組成這一種）。副級牌和副 2 永遠不組成拖拉機。原文所列不能構成拖拉機的：小王和正10、正10和副10、10和2、J和9（打 10），都與此一致。",
        "The **tractor sequence** uses natural rank order (點數), not power order. Off-suit: natural ranks 3 … A, with the level rank and 2 absent (they are trumps), so the ranks either side of the level rank do **not** join: with level 10, `9S 9S JS JS` is not a tractor. Trump suit: A(low) 2 3 4 5 6 7 8 9 10 J Q K A(high) — all ranks of the trump suit, the trump-suit level card and the trump-suit 2 in their natural places; A may be low (with 2) or high (with K), never both in one tractor. With trump ♥ and level 10: `TH TH JH JH`, `9H 9H TH TH`, `2H 2H 3H 3H`, `AH AH 2H 2H`, `AH AH 2H 2H 3H 3H` are tractors; `KH KH AH AH 2H 2H 3H 3H` is not. Jokers: `SJ SJ BJ BJ` is a tractor (the only one jokers can be in). Off-suit level cards and off-suit 2s never join a tractor. The seeds' non-tractors are all consistent with this: 小王+正10, 正10+副10, 10+2, J+9 (level 10)."] },
      { id: "R13", text: ["**合法的领牌**正好是一个单位或一条拖拉机，而且同一门（领牌不能甩牌）。其他出法一律拒绝并说明原因，不算劳改。", "**合法的領牌**正好是一個單位或一條拖拉機，而且同一門（領牌不能甩牌）。其他出法一律拒絕並說明原因，不算勞改。",
        "A **valid lead** is exactly one unit or one tractor, all of one suit-class (領牌不能甩牌). Anything else is refused with a clear reason; it is never a 勞改."] },
      { id: "R14", text: ["**拖拉机大小**按拖拉机顺序中最高的那一种牌决定（A 大 = 14，A-2-… 中的 A = 1）；大小王拖拉机最大。打 10、黑桃为主（原文 002）：`AS AS KS KS` > `TS TS JS JS` > `2S 2S 3S 3S` > `AS AS 2S 2S`。同一组牌两种读法都成立时，取大的。只限贵港规则：打 3 时，主花色的 2 和 3 组成的拖拉机（2233、222333、22223333）只比大小王拖拉机小。", "**拖拉機大小**按拖拉機順序中最高的那一種牌決定（A 大 = 14，A-2-… 中的 A = 1）；大小王拖拉機最大。打 10、黑桃為主（原文 002）：`AS AS KS KS` > `TS TS JS JS` > `2S 2S 3S 3S` > `AS AS 2S 2S`。同一組牌兩種讀法都成立時，取大的。只限貴港規則：打 3 時，主花色的 2 和 3 組成的拖拉機（2233、222333、22223333）只比大小王拖拉機小。",
        "**Tractor top**: a tractor is ranked by its highest kind in the tractor sequence (A high = 14, A in an A-2-… tractor = 1); the joker tractor is above everything. With level 10 and trump ♠ (seed 002): `AS AS KS KS` > `TS TS JS JS` > `2S 2S 3S 3S` > `AS AS 2S 2S`. Where both readings of A are valid for the same cards, the higher top counts. Preset Guigang only: when the level is 3, the trump tractor whose kinds are exactly 2 and 3 (2233, 222333, 22223333 of the trump suit) ranks just below the joker tractor."] },
    ],
  },
  {
    id: "s4",
    title: ["4. 发牌和叫牌", "4. 發牌和叫牌", "4. Deal and bid"],
    rules: [
      { id: "R15", text: ["216 张牌洗好后，从庄家开始按出牌顺序一张一张发，直到每人 54 张（一局的第一盘从座位 0 开始）。发牌是实时的（牌桌设置发牌速度），发牌过程中就可以叫牌。", "216 張牌洗好後，從莊家開始按出牌順序一張一張發，直到每人 54 張（一局的第一盤從座位 0 開始）。發牌是即時的（牌桌設定發牌速度），發牌過程中就可以叫牌。",
        "The 216 cards are shuffled and dealt one at a time in play order, starting with the dealer (first hand of a match: seat 0), until each player has 54. Dealing is paced in real time (a table option) so that bids can happen while cards arrive."] },
      { id: "R16", text: ["**叫牌**（亮主）：从手上亮出 k ≥ 1 张同一花色的级牌，这个花色就成为主牌花色。第一个叫牌可以是任意张数。", "**叫牌**（亮主）：從手上亮出 k ≥ 1 張同一花色的級牌，這個花色就成為主牌花色。第一個叫牌可以是任意張數。",
        "A **bid** (亮主) shows k ≥ 1 identical level cards of one suit from the bidder's current hand; that suit becomes trump. The first bid may be any k ≥ 1."] },
      { id: "R17", text: ["**加固**：目前的叫牌者可以再亮出更多同一花色的级牌，加固自己的叫牌。", "**加固**：目前的叫牌者可以再亮出更多同一花色的級牌，加固自己的叫牌。",
        "**加固 (reinforce)**: the current bidder may raise their own bid with more level cards of the same suit."] },
      { id: "R18", text: ["**反主**：其他玩家可以亮出更多（k' > k）张同一花色的级牌（花色不限），那个花色就成为主牌花色。亮 4 张的叫牌不能被反。**决定：** 叫牌是公开的（大家都看得到花色和张数），亮出的牌仍留在手上。原文称叫牌为“暗叫”，本书理解为发牌过程中从手上亮牌叫主。", "**反主**：其他玩家可以亮出更多（k' > k）張同一花色的級牌（花色不限），那個花色就成為主牌花色。亮 4 張的叫牌不能被反。**決定：** 叫牌是公開的（大家都看得到花色和張數），亮出的牌仍留在手上。原文稱叫牌為「暗叫」，本書理解為發牌過程中從手上亮牌叫主。",
        "**反主 (overturn)**: any other player may show more identical level cards (k' > k) of any one suit; that suit becomes trump. A bid of 4 cannot be overturned. **Decision:** bids are public (everyone sees suit and count); shown cards stay in the hand. The seeds call bidding 暗叫; we read that as bidding by showing cards from the hand during the deal."] },
      { id: "R19", text: ["发牌过程中一直可以叫牌，发完牌后还有一段时间（牌桌设置，默认 10 秒）。一局的第一盘，最后成立的叫牌者坐庄（第一盘反主反庄）；以后各盘的庄家按 R37 决定，叫牌只决定主牌花色。", "發牌過程中一直可以叫牌，發完牌後還有一段時間（牌桌設定，預設 10 秒）。一局的第一盤，最後成立的叫牌者坐莊（第一盤反主反莊）；以後各盤的莊家按 R37 決定，叫牌只決定主牌花色。",
        "Bidding stays open during the deal and for a window after it (a table option, default 10 s). In the first hand of a match the player whose bid stands becomes dealer (第一盤反主反莊); in later hands the dealer is fixed by R37 and bidding only picks the trump suit."] },
      { id: "R20", text: ["时间到了没有人叫牌：重新发牌（不丢牌，不计分）。连续 3 次无人叫牌则停止游戏；如果 4 个人都没有离开桌子又都按了开始，就从同样的级别和庄家接着打（原文 000）。四副牌新版规则：改为解散该桌。", "時間到了沒有人叫牌：重新發牌（不丟牌，不計分）。連續 3 次無人叫牌則停止遊戲；如果 4 個人都沒有離開桌子又都按了開始，就從同樣的級別和莊家接著打（原文 000）。四副牌新版規則：改為解散該桌。",
        "No bid by the end of the window: redeal (no cards are lost; nothing is scored). After 3 redeals in a row the match stops; if all four stay and press start again, it resumes from the same levels and dealer (seed 000). Preset four-deck: the table is dissolved instead."] },
    ],
  },
  {
    id: "s5",
    title: ["5. 领牌", "5. 領牌", "5. Lead"],
    rules: [
      { id: "R21", text: ["庄家领该盘的第一轮，以后每轮牌大者领下一轮。领牌必须合法（R13）。", "莊家領該盤的第一輪，以後每輪牌大者領下一輪。領牌必須合法（R13）。",
        "The dealer leads the first trick; the winner of each trick leads the next. A lead must be valid (R13)."] },
    ],
  },
  {
    id: "s6",
    title: ["6. 跟牌", "6. 跟牌", "6. Following"],
    intro: ["设领牌的门为 S、单位张数为 a、长度为 m（单位的长度为 1），共 n = a·m 张；H 是跟牌者出牌前手上 S 门的牌。", "設領牌的門為 S、單位張數為 a、長度為 m（單位的長度為 1），共 n = a·m 張；H 是跟牌者出牌前手上 S 門的牌。",
      "Let the lead have suit-class S, arity a, length m (m = 1 for a unit), n = a·m cards. Let H be the follower's cards of suit-class S before playing."],
    rules: [
      { id: "R22", text: ["跟牌正好出 n 张，都是自己手上的牌。", "跟牌正好出 n 張，都是自己手上的牌。",
        "A follow is exactly n cards from the follower's hand."] },
      { id: "R23", text: ["如果 H 不多于 n 张：跟牌必须包含 H 的全部，其余用任何其他的牌补足（不够张数的垫其它的牌）。", "如果 H 不多於 n 張：跟牌必須包含 H 的全部，其餘用任何其他的牌補足（不夠張數的墊其它的牌）。",
        "If H has no more than n cards: the follow must contain all of H; the rest is any other cards (不夠張數的墊其它的牌)."] },
      { id: "R24", text: ["如果 H 多于 n 张：跟牌必须是 H 中的 n 张（有同花色的必须跟同花色；有主的必须跟主），而且牌型要尽量好。H 中的各种 n 张出法 P 用**牌型键** `key(P) = (exact, same_count, tractors, pairs)` 由左到右比较，大者为好。**exact**：P 是和领牌单位张数相同、长度相同的牌型时为 1（原文第 (4) 条：相同牌型、相同张数）；单位和拖拉机可以从更大的组拆出：炸弹里有三子和对子，777888 里有拖拉机 7788。**same_count**：P 是一条 n 张的拖拉机（任何单位张数）时为 1，只在领牌是拖拉机或炸弹时计算（原文第 (5) 条：相同牌张数的拖拉机；第 (7) 条：领 AAAA，手上 33 88 999 J，跟 8899）。**tractors**：P 里互不重叠的拖拉机的张数，由大到小排列，取使这个列表最大的拆法，只在领牌是拖拉机时计算（原文第 (5) 条：跟牌张数最多的拖拉机，然后次多的……）。**pairs**：在那些拖拉机之外，P 里最多有几个互不重叠的对子，三子算一对、炸弹算两对（原文第 (6)–(8) 条：没有拖拉机跟对子；有足够对子不能用三子代替；对子不够的跟完对子再跟单张）。**P 合法，当且仅当它的 key 等于 H 中任何 n 张出法的最佳 key。** P 的其余部分随意。", "如果 H 多於 n 張：跟牌必須是 H 中的 n 張（有同花色的必須跟同花色；有主的必須跟主），而且牌型要盡量好。H 中的各種 n 張出法 P 用**牌型鍵** `key(P) = (exact, same_count, tractors, pairs)` 由左到右比較，大者為好。**exact**：P 是和領牌單位張數相同、長度相同的牌型時為 1（原文第 (4) 條：相同牌型、相同張數）；單位和拖拉機可以從更大的組拆出：炸彈裡有三子和對子，777888 裡有拖拉機 7788。**same_count**：P 是一條 n 張的拖拉機（任何單位張數）時為 1，只在領牌是拖拉機或炸彈時計算（原文第 (5) 條：相同牌張數的拖拉機；第 (7) 條：領 AAAA，手上 33 88 999 J，跟 8899）。**tractors**：P 裡互不重疊的拖拉機的張數，由大到小排列，取使這個列表最大的拆法，只在領牌是拖拉機時計算（原文第 (5) 條：跟牌張數最多的拖拉機，然後次多的……）。**pairs**：在那些拖拉機之外，P 裡最多有幾個互不重疊的對子，三子算一對、炸彈算兩對（原文第 (6)–(8) 條：沒有拖拉機跟對子；有足夠對子不能用三子代替；對子不夠的跟完對子再跟單張）。**P 合法，若且唯若它的 key 等於 H 中任何 n 張出法的最佳 key。** P 的其餘部分隨意。",
        "If H has more than n cards: the follow must be n cards of H (有同花色的必須跟同花色; 有主的必須跟主), and it must be as well-structured as H allows. Candidate follows P ⊆ H, |P| = n, are compared by the **structure key** `key(P) = (exact, same_count, tractors, pairs)`, left to right, bigger is better. **exact** = 1 if P is a pattern of the lead's arity and length (same type, same count: the seeds' rule (4)); units and tractors may be cut from bigger groups: a bomb holds a triple and a pair, 777888 holds the tractor 7788. **same_count** = 1 if P is a single tractor of any arity with n cards; it counts only when the lead is a tractor or a bomb (rule (5): a tractor with the same number of cards; rule (7): lead AAAA, hand 33 88 999 J → 8899). **tractors** = the card counts of disjoint tractors inside P, largest first, taking the decomposition that makes this list largest; it counts only when the lead is a tractor (rule (5): 跟牌張數最多的拖拉機, then the next largest, …). **pairs** = the most disjoint pairs in P outside those tractors; a triple gives one pair, a bomb two (rules (6)–(8): pairs before singles; enough pairs may not be replaced by a triple). **P is legal iff its key equals the best key of any n-card subset of H.** Everything else in P is free."] },
      { id: "R25", text: ["贵港规则（原文 001 第 (4) 条：有相同牌型**或**牌张数相同）：exact 和 same_count 合为一项“exact 或 same_count”；例如领 999888 可以跟 444555，也可以跟 445566。", "貴港規則（原文 001 第 (4) 條：有相同牌型**或**牌張數相同）：exact 和 same_count 合為一項「exact 或 same_count」；例如領 999888 可以跟 444555，也可以跟 445566。",
        "Preset Guigang (seed 001 rule (4), 有相同牌型**或**牌張數相同): exact and same_count merge into one component, exact or same_count; e.g. lead 999888 may be followed by 444555 or 445566."] },
      { id: "R26", text: ["结果举例（打 10、红桃为主，所以黑桃是副牌；第二栏是跟牌者手上该门的牌，他还有其他的牌）。**决定：** 原文第 (5) 条的例子（红桃 3344 5566 777888 991010JJ AA 对六连对的领牌）把 3344 和 5566 当作不能相连。其实它们可以相连（R12），那手牌里有六连对（33…88），所以 R24 要求跟出它。从三子拆出对子、把相邻的组连起来，都是允许的。", "結果舉例（打 10、紅桃為主，所以黑桃是副牌；第二欄是跟牌者手上該門的牌，他還有其他的牌）。**決定：** 原文第 (5) 條的例子（紅桃 3344 5566 777888 991010JJ AA 對六連對的領牌）把 3344 和 5566 當作不能相連。其實它們可以相連（R12），那手牌裡有六連對（33…88），所以 R24 要求跟出它。從三子拆出對子、把相鄰的組連起來，都是允許的。",
        "Consequences, as worked examples (level 10, trump ♥, so ♠ is an off-suit; the second column is the follower's cards of the lead's suit-class, and they hold other cards too). **Decision:** the seeds' rule (5) example hand (♥ 3344 5566 777888 991010JJ AA against a six-pair lead) lists groups as if 3344 and 5566 could not join. They can (R12), and that hand holds a six-pair tractor (33…88), so R24 requires one. Cutting pairs out of triples and joining adjacent groups is always allowed."],
        table: {
          head: [["领牌", "領牌", "Lead"], ["手上该门的牌", "手上該門的牌", "Follower's cards of that class"], ["合法", "合法", "Legal"], ["不合法", "不合法", "Illegal"]],
          rows: [
            ["`3S 3S 4S 4S 9S`", "`3S 3S 4S 4S 9S`", "`3S 3S 4S 4S`", ["其他都不合法", "其他都不合法", "anything else"]],
            ["`AS AS AS KS KS`", ["不是合法的领牌（R13）", "不是合法的領牌（R13）", "not a valid lead (R13)"], "—", "—"],
            ["`AS AS KS KS`", ["只有 `3S 3S 4S`", "只有 `3S 3S 4S`", "`3S 3S 4S` only"], ["`3S 3S 4S` + 任何 1 张", "`3S 3S 4S` + 任何 1 張", "`3S 3S 4S` + any 1 card"], ["留一张黑桃在手上", "留一張黑桃在手上", "leaving a ♠ in hand"]],
            ["`3S 3S 3S 8S 9S`", "`3S 3S 3S 8S 9S`", "`3S 3S 3S`", "`3S 3S 8S`"],
            ["`9S 9S 9S 8S 8S 8S`", ["`4S 4S 4S 5S 5S 5S` + `7S`", "`4S 4S 4S 5S 5S 5S` + `7S`", "`4S 4S 4S 5S 5S 5S` + `7S`"], "`4S 4S 4S 5S 5S 5S`", ["其他都不合法", "其他都不合法", "anything else"]],
            ["`9S 9S 9S 8S 8S 8S`", "`4S 4S 4S 5S 5S 5S 6S 6S`", ["`4S 4S 4S 5S 5S 5S`；贵港也可 `4S 4S 5S 5S 6S 6S`", "`4S 4S 4S 5S 5S 5S`；貴港也可 `4S 4S 5S 5S 6S 6S`", "`4S 4S 4S 5S 5S 5S`; Guigang also `4S 4S 5S 5S 6S 6S`"], ["南宁：`4S 4S 5S 5S 6S 6S`", "南寧：`4S 4S 5S 5S 6S 6S`", "Nanning: `4S 4S 5S 5S 6S 6S`"]],
            [["`KH KH KH KH`（红桃为主）", "`KH KH KH KH`（紅桃為主）", "`KH KH KH KH` (trump ♥)"], "`7H 7H 7H 7H 5H`", "`7H 7H 7H 7H`", "`7H 7H 7H 5H`"],
            ["`3S 3S 8S 8S 9S 9S 9S JS`", "`3S 3S 8S 8S 9S 9S 9S JS`", "`8S 8S 9S 9S`", ["`9S 9S 9S JS`、`3S 3S 8S 8S`", "`9S 9S 9S JS`、`3S 3S 8S 8S`", "`9S 9S 9S JS`, `3S 3S 8S 8S`"]],
            ["`5S 5S 5S 8S 8S 8S`", "`5S 5S 5S 8S 8S 8S`", "`5S 5S 8S 8S`", "`5S 5S 5S 8S`"],
            ["`4S 4S 4S 4S 5S 5S 5S 5S`", ["`3S 3S 6S 6S 9S 9S QS QS` + 单张，没有拖拉机", "`3S 3S 6S 6S 9S 9S QS QS` + 單張，沒有拖拉機", "`3S 3S 6S 6S 9S 9S QS QS` + singles, no tractor"], "`3S 3S 6S 6S 9S 9S QS QS`", ["少于 4 对的任何出法", "少於 4 對的任何出法", "anything with fewer than 4 pairs"]],
            ["`4S 4S 5S 5S`", "`AS QS JS 9S 9S 5S 3S`", ["`9S 9S` + 任何 2 张黑桃", "`9S 9S` + 任何 2 張黑桃", "`9S 9S` + any 2 ♠"], ["没有 `9S 9S` 的任何 4 张黑桃", "沒有 `9S 9S` 的任何 4 張黑桃", "any 4 ♠ without `9S 9S`"]],
            ["`4S 4S 5S 5S`", "`AS JS 9S 5S 3S`", ["任何 4 张黑桃", "任何 4 張黑桃", "any 4 ♠"], "—"],
            [["`AS AS KS KS`（原文 002）", "`AS AS KS KS`（原文 002）", "`AS AS KS KS` (seed 002)"], "`4S 4S 6S 6S 6S 8S 8S KS`", ["两对，如 `4S 4S 8S 8S`、`4S 4S 6S 6S`", "兩對，如 `4S 4S 8S 8S`、`4S 4S 6S 6S`", "two pairs, e.g. `4S 4S 8S 8S`, `4S 4S 6S 6S`"], "`6S 6S 6S KS`"],
            [["`AS AS KS KS`（原文 002）", "`AS AS KS KS`（原文 002）", "`AS AS KS KS` (seed 002)"], "`5S 5S 5S 8S QS`", ["`5S 5S` + `5S 8S QS` 中的 2 张", "`5S 5S` + `5S 8S QS` 中的 2 張", "`5S 5S` + 2 of `5S 8S QS`"], ["没有对子", "沒有對子", "no pair"]],
          ],
        } },
    ],
  },
  {
    id: "s7",
    title: ["7. 一轮谁大", "7. 一輪誰大", "7. Who wins a trick"],
    rules: [
      { id: "R27", text: ["一手牌只有在以下情况才**参与比较**：它是一个牌型（R13 的形状）、有 n 张，而且全是 S 门，或者 S 是副牌时全是主牌（毙牌）。它的单位张数至少要和领牌一样（炸弹 6666 可以和拖拉机 AAKK 比；AAKK 不能和 6666 比）。不参与比较的牌永远不会赢。", "一手牌只有在以下情況才**參與比較**：它是一個牌型（R13 的形狀）、有 n 張，而且全是 S 門，或者 S 是副牌時全是主牌（斃牌）。它的單位張數至少要和領牌一樣（炸彈 6666 可以和拖拉機 AAKK 比；AAKK 不能和 6666 比）。不參與比較的牌永遠不會贏。",
        "A play **competes** only if it is one pattern (R13 shapes), has n cards, and either is all of suit-class S, or is all trump when S is an off-suit (斃牌, a ruff). Its arity must be at least the lead's (a bomb 6666 competes against the tractor AAKK; AAKK does not compete against 6666). Plays that do not compete never win."] },
      { id: "R28", text: ["两手参与比较的牌：主牌大过副牌；然后单位张数大的大（炸弹 > 三子 > 对子：555666 > AAKKQQ，6666 > AAKK）；然后按大小比（单位按 R9，拖拉机按 R14）。牌大小相同的，先出的为大。", "兩手參與比較的牌：主牌大過副牌；然後單位張數大的大（炸彈 > 三子 > 對子：555666 > AAKKQQ，6666 > AAKK）；然後按大小比（單位按 R9，拖拉機按 R14）。牌大小相同的，先出的為大。",
        "Between two competing plays: trump beats non-trump; then the higher arity wins (炸彈 > 三子 > 對子: 555666 > AAKKQQ, 6666 > AAKK); then the higher rank (R9 for units, R14 for tractors). Ties go to the earlier play (牌大小相同的先出的為大)."] },
      { id: "R29", text: ["一轮牌大者拿走这一轮的全部分牌，并领下一轮。", "一輪牌大者拿走這一輪的全部分牌，並領下一輪。",
        "The trick's winner takes every point card in it and leads next."] },
    ],
  },
  {
    id: "s8",
    title: ["8. 跟错牌：提醒、撤牌、劳改", "8. 跟錯牌：提醒、撤牌、勞改", "8. Wrong follows: 提醒, 撤牌, 勞改"],
    intro: ["原文并不要求服务器拒绝违反 R23–R25 的跟牌：这样的跟牌照样打出，没有撤回就要受罚。牌桌设置“跟错牌”：劳改（默认，依原文）或严格（服务器拒绝，并说明违反的规则）。设置“跟错先提示”（默认关闭，给新手用）：劳改牌桌中，服务器先请玩家确认，才打出一手跟错的牌；关闭时，跟错的牌照原文不动声色地打出，只有自己或对家的提醒能及时发现，好在判定前撤牌。张数不对或手上没有的牌一律拒绝，不算劳改。托管一定按规则出牌。", "原文並不要求伺服器拒絕違反 R23–R25 的跟牌：這樣的跟牌照樣打出，沒有撤回就要受罰。牌桌設定「跟錯牌」：勞改（預設，依原文）或嚴格（伺服器拒絕，並說明違反的規則）。設定「跟錯先提示」（預設關閉，給新手用）：勞改牌桌中，伺服器先請玩家確認，才打出一手跟錯的牌；關閉時，跟錯的牌照原文不動聲色地打出，只有自己或對家的提醒能及時發現，好在判定前撤牌。張數不對或手上沒有的牌一律拒絕，不算勞改。託管一定按規則出牌。",
      "The seeds do not make the server refuse a follow that breaks R23–R25: such a follow is played, and punished unless taken back. Table option “wrong follows”: 勞改 (the default, the seeds) or strict (the server refuses it and names the rule it breaks). Table option “warn about wrong follows” (off by default; for beginners): in a 勞改 table the server asks the player to confirm a wrong follow before playing it; off, a wrong follow is played without a word, as in the seeds, and only the player's own eye or the partner's 提醒 catches it in time for 撤牌. A follow with the wrong card count, or with cards not in the hand, is always refused, never a 勞改. Auto-play always plays legally."],
    rules: [
      { id: "R30", text: ["**提醒**：对家跟牌以后，玩家可以提醒对家。不能提醒领牌者。对家会知道有人提醒他。", "**提醒**：對家跟牌以後，玩家可以提醒對家。不能提醒領牌者。對家會知道有人提醒他。",
        "**提醒 (remind)**: after a player's partner has followed, the player may remind that partner. The leader cannot be reminded. The partner is told that a reminder came."] },
      { id: "R31", text: ["**撤牌**：跟牌者可以在系统判定这一轮之前，把自己这一轮出的牌全部撤回，重新出牌。每撤回一张牌扣 10 分，算在撤牌者一方（闲家撤牌，闲家得分每张减 10；庄家方撤牌，闲家得分每张加 10）。一盘中第一次撤牌的人，重新获得完整的出牌计时。", "**撤牌**：跟牌者可以在系統判定這一輪之前，把自己這一輪出的牌全部撤回，重新出牌。每撤回一張牌扣 10 分，算在撤牌者一方（閒家撤牌，閒家得分每張減 10；莊家方撤牌，閒家得分每張加 10）。一盤中第一次撤牌的人，重新獲得完整的出牌計時。",
        "**撤牌 (retract)**: a follower may take back their whole current follow before the trick is judged, and must play again. Each retracted card costs 10 points against the retracting player's team (an attacker's retraction lowers the attackers' score by 10 per card; a defender's raises it by 10). The first retraction of a hand resets that player's turn timer."] },
      { id: "R32", text: ["同一玩家在一盘中撤牌扣分超过 200 分的，当作弊处理：该盘结算时赢方得不到积分和银子，输方照扣。超过 400 分的，当恶意撤牌处理：立即停止该盘，此玩家按逃跑扣分（R43），并解散该桌。", "同一玩家在一盤中撤牌扣分超過 200 分的，當作弊處理：該盤結算時贏方得不到積分和銀子，輸方照扣。超過 400 分的，當惡意撤牌處理：立即停止該盤，此玩家按逃跑扣分（R43），並解散該桌。",
        "A player whose retractions in one hand exceed 200 points is flagged as cheating (作弊): in that hand's settlement the winners gain nothing and the losers still pay. Over 400 points: the hand stops at once, that player pays the escape penalty (R43), and the table is dissolved."] },
      { id: "R33", text: ["每一轮在第四家出牌后，再过一段复核时间（牌桌设置，默认 2 秒）才判定，这段时间内可以提醒和撤牌（R30–R31）。每一手违反 R23–R25 的跟牌，为它那一方记一次**劳改**：没有跟错，这一轮正常结算；双方各有且仅有一家跟错，两家都由服务器自动撤牌（不扣分），重新出牌，同一轮再跟错就像严格模式一样被拒绝；只有一方跟错，或一方跟错的较多（三家跟错），那一方被劳改。", "每一輪在第四家出牌後，再過一段複核時間（牌桌設定，預設 2 秒）才判定，這段時間內可以提醒和撤牌（R30–R31）。每一手違反 R23–R25 的跟牌，為它那一方記一次**勞改**：沒有跟錯，這一輪正常結算；雙方各有且僅有一家跟錯，兩家都由伺服器自動撤牌（不扣分），重新出牌，同一輪再跟錯就像嚴格模式一樣被拒絕；只有一方跟錯，或一方跟錯的較多（三家跟錯），那一方被勞改。",
        "The trick is judged after its fourth play plus a review window (a table option, default 2 s), in which R30–R31 may happen. Each follow that breaks R23–R25 is a **勞改** count for its team: no wrong follows, the trick resolves normally; each team has exactly one, both are retracted by the server (no penalty) and both play again, and a second wrong play in the same trick is then refused as in strict mode; one team only has wrong follows, or one team has more (three in all), that team is 勞改."] },
      { id: "R34", text: ["劳改立即结束该盘：对方连升 3 级，按赢 3 级结算（R41），下一盘的庄家按 R37，当作对方赢了。", "勞改立即結束該盤：對方連升 3 級，按贏 3 級結算（R41），下一盤的莊家按 R37，當作對方贏了。",
        "A 勞改 ends the hand at once: the other team gains 3 levels, settled as a 3-level win (R41), and the next dealer follows R37 as if that team had won."] },
    ],
  },
  {
    id: "s9",
    title: ["9. 分数和一盘的结果", "9. 分數和一盤的結果", "9. Points and the hand's result"],
    rules: [
      { id: "R35", text: ["分牌：5 为 5 分，10 和 K 各 10 分；每副 100 分，共 400 分。闲家的**得分**是他们赢的各轮中的分牌，再加减以下各项。**抠底**（最后一轮）：最后一轮的领牌至少 2 张时（贵港规则：至少 1 张），最后一轮记“这一轮的分 × 领牌张数”，而不是面值（原文：领牌 AAKK 抠底，牌分有 60 分，抠底记分 60×4 = 240 分）；闲家牌大就加上，庄家方牌大就减去（反抠）；否则最后一轮和其他各轮一样计分。撤牌罚分（R31）。**封顶**：最后得分限制在 0 到 400 之间（上封顶 400 分，下封底 0 分）。", "分牌：5 為 5 分，10 和 K 各 10 分；每副 100 分，共 400 分。閒家的**得分**是他們贏的各輪中的分牌，再加減以下各項。**摳底**（最後一輪）：最後一輪的領牌至少 2 張時（貴港規則：至少 1 張），最後一輪記「這一輪的分 × 領牌張數」，而不是面值（原文：領牌 AAKK 摳底，牌分有 60 分，摳底記分 60×4 = 240 分）；閒家牌大就加上，莊家方牌大就減去（反摳）；否則最後一輪和其他各輪一樣計分。撤牌罰分（R31）。**封頂**：最後得分限制在 0 到 400 之間（上封頂 400 分，下封底 0 分）。",
        "Point cards (分牌): 5 = 5, 10 = 10, K = 10; 100 per deck, 400 in all. The attackers' **score** is the points in the tricks they win, changed by: **摳底 (last trick)**: if the last trick's lead has at least 2 cards (preset Guigang: at least 1), the last trick scores (points in that trick) × (cards in its lead) instead of its face value (seed: lead AAKK, 60 points in the trick → 240); if an attacker wins it, the attackers add it; if a defender wins it, the attackers subtract it (反摳); otherwise the last trick counts like any other. Retraction penalties (R31). **封頂**: the final score is clamped to 0 … 400."] },
      { id: "R36", text: ["按最后得分决定结果（每盘最多升 3 级，原文 002）：", "按最後得分決定結果（每盤最多升 3 級，原文 002）：",
        "Result by the final score (at most 3 levels a hand, seed 002):"],
        table: {
          head: [["得分", "得分", "Score"], ["结果", "結果", "Result"]],
          rows: [
            ["< 5", ["庄家方升 3 级", "莊家方升 3 級", "defenders +3 levels"]],
            ["5 – 79", ["庄家方升 2 级", "莊家方升 2 級", "defenders +2"]],
            ["80 – 159", ["庄家方升 1 级", "莊家方升 1 級", "defenders +1"]],
            ["160 – 239", ["闲家上台（换庄），不升级", "閒家上台（換莊），不升級", "attackers take over the deal, no level change (上台)"]],
            ["240 – 319", ["闲家上台并升 1 级", "閒家上台並升 1 級", "attackers take over, +1"]],
            ["320 – 399", ["闲家上台并升 2 级", "閒家上台並升 2 級", "attackers take over, +2"]],
            ["400", ["闲家上台并升 3 级", "閒家上台並升 3 級", "attackers take over, +3"]],
          ],
        } },
    ],
  },
  {
    id: "s10",
    title: ["10. 下一盘", "10. 下一盤", "10. Next hand"],
    rules: [
      { id: "R37", text: ["轮庄：庄家方赢（得分 < 160）时，下一盘由庄家的对家坐庄；闲家上台（≥ 160）时，由本盘庄家的下家坐庄（顺序和出牌顺序一样）。", "輪莊：莊家方贏（得分 < 160）時，下一盤由莊家的對家坐莊；閒家上台（≥ 160）時，由本盤莊家的下家坐莊（順序和出牌順序一樣）。",
        "輪莊: if the defenders won (score < 160), the dealer's partner deals next. If the attackers took over (≥ 160), the dealer's next player in play order deals next."] },
      { id: "R38", text: ["级别过 A 后从 3 再打（R5）。一局一直打到有人离开为止。", "級別過 A 後從 3 再打（R5）。一局一直打到有人離開為止。",
        "Levels wrap after A (R5). The match goes on until a player leaves."] },
    ],
  },
  {
    id: "s11",
    title: ["11. 结算、级别、财富", "11. 結算、級別、財富", "11. Settlement, ranks, wealth"],
    intro: ["每个账号有**积分**（称号见第 13 节的玩家级别表）和**银子**（游戏币，称号见财富等级表），都长期保存，不会低于 0。", "每個帳號有**積分**（稱號見第 13 節的玩家級別表）和**銀子**（遊戲幣，稱號見財富等級表），都長期保存，不會低於 0。",
      "Each account holds **積分** (rank points; the title comes from §13's 玩家級別 table) and **銀子** (silver, the game coin; the title comes from the 財富等級 table). Both are kept and never go below 0."],
    rules: [
      { id: "R39", text: ["得分 < 160 时，一盘的赢方是庄家方，否则是闲家；升级数是级别的变化（160–239 为 0）。每盘结束后（重新发牌不算）按 R40–R43 结算。", "得分 < 160 時，一盤的贏方是莊家方，否則是閒家；升級數是級別的變化（160–239 為 0）。每盤結束後（重新發牌不算）按 R40–R43 結算。",
        "The winning team of a hand is the defenders if the score is below 160, else the attackers; levels is the level change (0 for 160–239). After each hand (not a redeal) R40–R43 settle it."] },
      { id: "R40", text: ["赢方每人得到“自己的基础分 × 升级数”积分和“自己的基本银子 × 升级数”银子；输方每人按自己的基数扣同样多（最低扣到 0）。升级数为 0 时都不变。", "贏方每人得到「自己的基礎分 × 升級數」積分和「自己的基本銀子 × 升級數」銀子；輸方每人按自己的基數扣同樣多（最低扣到 0）。升級數為 0 時都不變。",
        "Each winner gains own 基礎分 × levels 積分 and own 基本銀子 × levels silver; each loser loses the same from their own bases (floored at 0). With levels 0 nothing changes."] },
      { id: "R41", text: ["劳改按对方赢 3 级结算。作弊标记（R32）取消赢方的所得。", "勞改按對方贏 3 級結算。作弊標記（R32）取消贏方的所得。",
        "A 勞改 settles as a 3-level win for the other team. A cheating flag (R32) cancels the winners' gains."] },
      { id: "R42", text: ["称号和基数按第 13 节的表，每次变动后重新计算。", "稱號和基數按第 13 節的表，每次變動後重新計算。",
        "Titles and bases follow the tables in §13, recomputed after every change."] },
      { id: "R43", text: ["**逃跑**：牌局中离开的玩家，扣自己基数的 6 倍（积分和银子）；对方两人各得逃跑者基数的 3 倍；对家不变；该盘作废（级别不变）。", "**逃跑**：牌局中離開的玩家，扣自己基數的 6 倍（積分和銀子）；對方兩人各得逃跑者基數的 3 倍；對家不變；該盤作廢（級別不變）。",
        "**逃跑 (escape)**: a player who leaves during a hand loses 6 × their own bases (積分 and silver); each opponent gains 3 × the escaper's bases; the partner is unchanged; the hand is void (no level change)."] },
    ],
  },
  {
    id: "s12",
    title: ["12. 计时、托管、掉线", "12. 計時、託管、掉線", "12. Timers, 託管, disconnects"],
    rules: [
      { id: "R44", text: ["每个决定都有时限（牌桌设置；默认出牌 20 秒、叫牌 10 秒、复核 2 秒）。逾时由服务器代为出一手合法的牌（托管机器人），并记一次逾时。", "每個決定都有時限（牌桌設定；預設出牌 20 秒、叫牌 10 秒、複核 2 秒）。逾時由伺服器代為出一手合法的牌（託管機器人），並記一次逾時。",
        "Every decision has a time limit (table options; defaults: turn 20 s, bid window 10 s, review 2 s). On a timeout the server plays for the player (a legal move from the auto-play bot) and counts a timeout."] },
      { id: "R45", text: ["**托管**：连续逾时 3 次（四副牌新版：2 次）就进入托管状态，直到玩家自己取消。玩家也可以随时自己打开托管。", "**託管**：連續逾時 3 次（四副牌新版：2 次）就進入託管狀態，直到玩家自己取消。玩家也可以隨時自己開啟託管。",
        "**託管 (auto-play)**: after 3 timeouts in a row (preset four-deck: 2) the seat switches to auto-play until its player turns it off. A player may also turn it on at any time."] },
      { id: "R46", text: ["**掉线**：座位立即进入托管并保留。在该盘结束前重新连上的玩家拿回座位，看到目前完整的牌局。该盘结束时仍未回来的，被踢出该桌（不算逃跑：这一盘已经替他打完了），这一局结束。", "**掉線**：座位立即進入託管並保留。在該盤結束前重新連上的玩家拿回座位，看到目前完整的牌局。該盤結束時仍未回來的，被踢出該桌（不算逃跑：這一盤已經替他打完了），這一局結束。",
        "**Disconnect**: the seat goes to auto-play at once and is kept. A player who reconnects before the hand ends takes the seat back and sees the full current state. One still away when the hand ends is removed from the table (no escape penalty: the hand was finished for them) and the match ends."] },
      { id: "R47", text: ["两盘之间离开牌桌，结束这一局，不扣分；牌局中离开就是逃跑（R43）。", "兩盤之間離開牌桌，結束這一局，不扣分；牌局中離開就是逃跑（R43）。",
        "Leaving the table between hands ends the match with no penalty; leaving during a hand is an escape (R43)."] },
    ],
  },
];

/** §13, from seed 000: rank titles by 積分 (title, 基礎分, 積分 needed) and wealth titles by silver (title, from, 基本銀子). */
export const RANK_TABLE = [
  ["布衣", 1, 0], ["秀才", 2, 100], ["舉人", 3, 300], ["進士", 4, 600], ["縣令", 5, 1000], ["通判", 10, 2000],
  ["知府", 12, 4000], ["道台", 14, 6400], ["太守", 16, 9200], ["都督", 18, 12400], ["御史", 50, 21400],
  ["提督", 55, 46400], ["巡按", 60, 73900], ["天官", 65, 103900], ["總督", 70, 136400], ["尚書", 150, 206400],
  ["太師", 160, 356400], ["大將軍", 170, 516400], ["宰相", 180, 686400], ["皇上", 190, 866400],
];
export const WEALTH_TABLE = [
  ["待業", 0, 1], ["臨時工", 100, 1], ["契約工", 200, 2], ["正式工", 400, 4], ["助理主管", 800, 8],
  ["副主管", 1600, 16], ["主管", 3200, 32], ["助理經理", 6400, 64], ["副經理", 12800, 128], ["經理", 25600, 256],
  ["助理總裁", 51200, 512], ["副總裁", 102400, 1024], ["總裁", 204800, 2048], ["董事", 409600, 4096],
  ["副董事長", 819200, 8192], ["董事長", 1638400, 16384], ["賭王", 3276800, 32768], ["賭聖", 6553600, 65536],
  ["賭神", 13107200, 131072], ["玉帝", 26214400, 262144],
];

/** @type {{title: Tr, rank: {title: Tr, head: Tr[]}, wealth: {title: Tr, head: Tr[]}, start: Tr}} */
export const TABLES = {
  title: ["13. 原文 000 的表", "13. 原文 000 的表", "13. Tables from seed 000"],
  rank: { title: ["玩家级别（按积分）", "玩家級別（按積分）", "玩家級別 — rank titles (by 積分)"],
    head: [["称号", "稱號", "Title"], ["基础分", "基礎分", "基礎分 (base)"], ["所需积分", "所需積分", "積分 needed"]] },
  wealth: { title: ["财富等级（按银子）", "財富等級（按銀子）", "財富等級 — wealth titles (by silver)"],
    head: [["称号", "稱號", "Title"], ["所需银子", "所需銀子", "Silver from"], ["基本银子", "基本銀子", "基本銀子 (base)"]] },
  start: ["新账号从 0 积分、1000 两银子开始（服务器设置）。", "新帳號從 0 積分、1000 兩銀子開始（伺服器設定）。", "New accounts start at 0 積分 and 1,000 silver (a server option)."],
};

/** §14: the presets. */
export const PRESETS = {
  title: ["14. 各地规则", "14. 各地規則", "14. Presets"],
  head: [["规则", "規則", "Rule"], ["南宁（默认）", "南寧（預設）", "Nanning (default)"], ["贵港", "貴港", "Guigang"], ["四副牌新版", "四副牌新版", "Four-deck (new)"]],
  rows: [
    [["R24/R25 相同牌型优先于相同张数的拖拉机", "R24/R25 相同牌型優先於相同張數的拖拉機", "R24/R25 exact before same-count tractor"], ["是", "是", "yes"], ["合并", "合併", "merged"], ["是", "是", "yes"]],
    [["R35 最后领牌至少几张才抠底", "R35 最後領牌至少幾張才摳底", "R35 摳底 when the last lead has at least"], ["2 张", "2 張", "2 cards"], ["1 张", "1 張", "1 card"], ["2 张", "2 張", "2 cards"]],
    [["R14 打 3 时 2233 特殊", "R14 打 3 時 2233 特殊", "R14 2233 special at level 3"], ["否", "否", "no"], ["是", "是", "yes"], ["否", "否", "no"]],
    [["R45 连续逾时几次进入托管", "R45 連續逾時幾次進入託管", "R45 timeouts before 託管"], "3", "3", "2"],
    [["R20 连续 3 次重新发牌后", "R20 連續 3 次重新發牌後", "R20 after 3 redeals"], ["停止，可接着打", "停止，可接著打", "stop, resumable"], ["停止，可接着打", "停止，可接著打", "stop, resumable"], ["解散该桌", "解散該桌", "dissolve the table"]],
  ],
  after: ["在各地规则之上，每张牌桌还可以设置：起始级别、跟错牌（劳改／严格）、跟错先提示、各种计时、发牌速度。规则书没有规定的细节（例如叫牌何时结束、撤牌后谁先出、什么算逾时、机器人怎么打），在项目文档 docs/RULES-NOTES.md 中逐条说明并有测试。", "在各地規則之上，每張牌桌還可以設定：起始級別、跟錯牌（勞改／嚴格）、跟錯先提示、各種計時、發牌速度。規則書沒有規定的細節（例如叫牌何時結束、撤牌後誰先出、什麼算逾時、機器人怎麼打），在專案文件 docs/RULES-NOTES.md 中逐條說明並有測試。",
    "Table options on top of a preset: start level, wrong follows (勞改 / strict), warn about wrong follows, timers, deal pace. Where this book leaves a choice (when bidding closes, the order after a retraction, what a timeout is, how bots play), the decision is recorded rule by rule, and tested, in the project's docs/RULES-NOTES.md."],
};
