/** Talking to the Boardlab server: JSON requests and the seat tokens kept in localStorage. */

/** An answer of the server that is not a success, with its one-sentence message. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

const TOKEN_PREFIX = "boardlab:match:";
const tokenKey = (id) => `${TOKEN_PREFIX}${id}`;
const inviteKey = (id) => `boardlab:invites:${id}`;

function readJson(key) {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/** The tokens this browser holds for a match, as `{seat: token}`. */
export function loadTokens(id) {
  return readJson(tokenKey(id));
}

/** Remember more seat tokens for a match (kept with the ones already held). */
export function saveTokens(id, tokens) {
  localStorage.setItem(tokenKey(id), JSON.stringify({ ...loadTokens(id), ...tokens }));
}

/** The invite links this browser made for a match, as `{seat: path}`. */
export function loadInvites(id) {
  return readJson(inviteKey(id));
}

/** Keep the tokens and invite links of a newly created match (create or rematch answer). */
export function keepCreated(answer) {
  const tokens = {};
  const invites = {};
  for (const seat of answer.seats ?? []) {
    // A seat with a link is for a friend: keep the link to hand on, not its token. A rematch
    // answers with the caller's own tokens and no links.
    if (seat.link) invites[seat.seat] = seat.link;
    else if (seat.token) tokens[seat.seat] = seat.token;
  }
  saveTokens(answer.id, tokens);
  if (Object.keys(invites).length) localStorage.setItem(inviteKey(answer.id), JSON.stringify(invites));
}

/**
 * Claim the seat of an invite fragment (`#seat=1&token=...`) and drop the fragment from the
 * address bar, so the link is neither bookmarked with the page nor shown over a shoulder. The
 * server swaps the link's token for a fresh one kept in localStorage: the first browser to open
 * the link takes the seat, any later one only watches (resolves to the refusal's message).
 */
export async function claimInvite(id) {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = Number.parseInt(params.get("seat") ?? "", 10);
  const token = params.get("token");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  if (!Number.isInteger(seat) || !token) return null;
  // Opening its own link again, a browser already holding the seat keeps it.
  if (loadTokens(id)[seat]) return null;
  try {
    const answer = await request("POST", `/api/matches/${encodeURIComponent(id)}/claim`, { body: { seat, token } });
    saveTokens(id, { [answer.seat]: answer.token });
    return null;
  } catch (error) {
    return error.message;
  }
}

/** Every match this browser holds a seat in, as `{matchId: [token, ...]}`. */
export function heldMatches() {
  const held = {};
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    const id = key?.startsWith(TOKEN_PREFIX) ? key.slice(TOKEN_PREFIX.length) : null;
    const tokens = id ? Object.values(loadTokens(id)) : [];
    if (tokens.length) held[id] = tokens;
  }
  return held;
}

/** Send one JSON request; resolve to the answer's data or throw an ApiError with its message. */
export async function request(method, path, { body, matchId } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (matchId) {
    const tokens = Object.values(loadTokens(matchId));
    if (tokens.length) headers.Authorization = `Bearer ${tokens.join(",")}`;
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The server cannot be reached: check the connection and try again.", 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const message = data && typeof data === "object" && data.error
      ? data.error : `The server answered ${response.status}.`;
    throw new ApiError(message, response.status);
  }
  return data;
}
