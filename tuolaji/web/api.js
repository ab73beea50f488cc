// HTTP API (PROTOCOL.md §1, §4): accounts, lobby list, hand records, reports and the moderators' console.
// The session token lives in localStorage.

const TOKEN_KEY = "tuolaji.token";

/**
 * @typedef {{id: number, nickname: string, guest: boolean, points: number, rank: {title: string, base: number},
 *   silver: number, wealth: {title: string, base: number}, hands_played: number, hands_won: number}} Account
 * @typedef {{token: string, account: Account}} Session
 */

/** An HTTP error with the server's error code, message and params (its `reason`, if any). */
class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} status
   * @param {Record<string, unknown>} [params]
   */
  constructor(code, message, status, params = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.params = params;
  }
}

/** @returns {string|null} the saved session token */
export function savedToken() {
  return localStorage.getItem(TOKEN_KEY);
}

/** @param {string|null} token the token to remember, or null to forget it */
export function saveToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/**
 * @param {string} method
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>}
 */
async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  const token = savedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    // Everything in the error object beside its code and message words the refusal (a `reason`, a ban's `until`).
    const { code, message, ...params } = data.error ?? {};
    throw new ApiError(code ?? "http", message ?? response.statusText, response.status, params);
  }
  return data;
}

/** @returns {Promise<Session>} a new guest account */
export function guest() {
  return request("POST", "/api/guest", {});
}

/**
 * @param {string} nickname
 * @param {string} password
 * @returns {Promise<Session>}
 */
export function register(nickname, password) {
  return request("POST", "/api/register", { nickname, password });
}

/**
 * @param {string} nickname
 * @param {string} password
 * @returns {Promise<Session>}
 */
export function login(nickname, password) {
  return request("POST", "/api/login", { nickname, password });
}

/** @returns {Promise<void>} ends the session on the server (the token stops working) */
export async function logout() {
  await request("POST", "/api/logout");
}

/** @returns {Promise<{defaults: object, presets: string[], illegal_follow: string[], bots: string[]}>} */
export function options() {
  return request("GET", "/api/options");
}

/**
 * Finished hands of an account, newest first.
 * @param {number} accountId
 * @param {number|null} [before] a hand id to page from
 * @returns {Promise<{hands: any[], next_before: number|null}>}
 */
export function accountHands(accountId, before = null) {
  const query = before === null ? "limit=20" : `limit=20&before=${before}`;
  return request("GET", `/api/accounts/${accountId}/hands?${query}`);
}

/**
 * A finished hand's record (setup, actions, result, seats, settlement).
 * @param {number} handId
 * @returns {Promise<{hand: any}>}
 */
export function handRecord(handId) {
  return request("GET", `/api/hands/${handId}`);
}

/**
 * A page of a leaderboard (the top 100 registered accounts) and, with the saved token, my own place.
 * @param {"points"|"silver"} by
 * @param {number} page 1–5
 * @returns {Promise<{by: string, page: number, pages: number, page_size: number,
 *   entries: {place: number, account: Account}[], next_page: number|null,
 *   me: {place: number|null, account: Account}|null}>}
 */
export function leaderboard(by, page) {
  return request("GET", `/api/leaderboard?by=${by}&page=${page}`);
}

/**
 * A player's profile: titles, balances, places, hands per side (dealer's team or attackers), latest hands.
 * @param {number} accountId
 * @returns {Promise<{account: Account, places: {points: number|null, silver: number|null},
 *   sides: {dealer: {hands: number, won: number}, attackers: {hands: number, won: number}}, recent: any[]}>}
 */
export function profile(accountId) {
  return request("GET", `/api/accounts/${accountId}/profile`);
}

/**
 * Report a player I played a finished hand with (PROTOCOL.md §4).
 * @param {number} handId
 * @param {number} accountId
 * @param {string} reason one of REASONS (console.js)
 * @param {string} note
 * @returns {Promise<{report: any}>}
 */
export function report(handId, accountId, reason, note) {
  return request("POST", "/api/reports", { hand_id: handId, account_id: accountId, reason, note: note || null });
}

/**
 * A call of the moderators' console (PROTOCOL.md §4): `GET /api/console/PATH`, or a POST with `body`.
 * @param {string} path after /api/console/
 * @param {object} [body]
 * @returns {Promise<any>}
 */
export function consoleCall(path, body) {
  return request(body === undefined ? "GET" : "POST", `/api/console/${path}`, body);
}

/**
 * Who invites to which table with an invite code (PROTOCOL.md §2.6): for the landing page before sign-in.
 * @param {string} code
 * @returns {Promise<{number: number, inviter: string|null}>} (404 `not_found`: no open table has the code)
 */
export function invitation(code) {
  return request("GET", `/api/invites/${encodeURIComponent(code)}`);
}
