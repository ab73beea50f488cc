// HTTP API (PROTOCOL.md §1): accounts, lobby list, hand records. The session token lives in localStorage.

const TOKEN_KEY = "tuolaji.token";

/**
 * @typedef {{id: number, nickname: string, guest: boolean, points: number, rank: {title: string, base: number},
 *   silver: number, wealth: {title: string, base: number}, hands_played: number, hands_won: number}} Account
 * @typedef {{token: string, account: Account}} Session
 */

/** An HTTP error with the server's error code and message. */
class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} status
   */
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
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
    const error = data.error ?? {};
    throw new ApiError(error.code ?? "http", error.message ?? response.statusText, response.status);
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
