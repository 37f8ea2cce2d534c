// The server's REST API, the live WebSocket connection and the seat tokens kept in this browser.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message || code);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError("network", String(e && e.message || e), 0);
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || `http_${r.status}`, err.message || r.statusText, r.status);
  }
  return data;
}

export const getMeta = () => api("GET", "/api/meta");
export const createGame = (body) => api("POST", "/api/games", { body });
export const getMe = (token) => api("GET", "/api/me", { token });
/** A move, sent with a fresh client id.  If the connection fails (a server process behind the
 * proxy died), it is sent once more with the same id: the server plays it at most once
 * (docs/server.md, "Several processes"). */
export async function act(token, action, version) {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  const body = { action, version, client_id: Array.from(bytes, (x) => x.toString(16).padStart(2, "0")).join("") };
  try {
    return await api("POST", "/api/me/act", { token, body });
  } catch (e) {
    if (e.code !== "network" && ![502, 503, 504].includes(e.status)) throw e;
    await new Promise((done) => setTimeout(done, 1000));
    return api("POST", "/api/me/act", { token, body });
  }
}
export const undo = (token, version) => api("POST", "/api/me/undo", { token, body: { version } });
export const getGame = (gameId) => api("GET", `/api/games/${encodeURIComponent(gameId)}`);
export const getReplay = (gameId, step) =>
  api("GET", `/api/games/${encodeURIComponent(gameId)}/replay/${step}`);
export const myGames = (tokens) => api("POST", "/api/my-games", { body: { tokens } });

// ---- tokens kept in localStorage ------------------------------------------------------
const TOKENS_KEY = "affresco.tokens";

export function savedTokens() {
  try {
    const v = JSON.parse(localStorage.getItem(TOKENS_KEY) || "[]");
    return Array.isArray(v) ? v.filter((x) => typeof x === "string" && x) : [];
  } catch (e) {
    return [];
  }
}

export function rememberToken(token) {
  if (!token) return;
  const list = savedTokens().filter((x) => x !== token);
  list.unshift(token);
  try { localStorage.setItem(TOKENS_KEY, JSON.stringify(list.slice(0, 200))); } catch (e) { /* full */ }
}

export function forgetToken(token) {
  try { localStorage.setItem(TOKENS_KEY, JSON.stringify(savedTokens().filter((x) => x !== token))); } catch (e) { /* */ }
}

// ---- live connection -------------------------------------------------------------------
/**
 * One WebSocket to /ws that says ``hello`` (a seat) or ``watch`` (a spectator), hands every
 * STATE payload to ``onState`` and reconnects with backoff.  ``onStatus`` gets
 * "connecting" | "connected" | "disconnected"; ``onError`` gets {code, message}.
 */
export class Live {
  constructor(greeting, { onState, onStatus, onError }) {
    this.greeting = greeting;
    this.onState = onState;
    this.onStatus = onStatus || (() => {});
    this.onError = onError || (() => {});
    this.delay = 1000;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting");
    const proto = location.protocol === "https:" ? "wss" : "ws";
    let ws;
    try {
      ws = new WebSocket(`${proto}://${location.host}/ws`);
    } catch (e) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 1000;
      ws.send(JSON.stringify(this.greeting));
      this.onStatus("connected");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "state") { this.last = msg; this.onState(msg); }
      else if (msg.type === "presence" && this.last && msg.version === this.last.version) {
        // who is connected changed (docs/server.md): the last state with the new flags
        this.last = { ...this.last, seats: this.last.seats.map((s, i) => ({ ...s, connected: !!msg.connected[i] })) };
        this.onState(this.last);
      } else if (msg.type === "error") this.onError(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pinger);
      if (this.ws === ws) this.ws = null;
      if (ev && ev.code === 1008) {
        // the server refused the greeting (unknown seat token or game): retrying cannot help
        this.closed = true;
        this.onStatus("disconnected");
        return;
      }
      if (!this.closed) this.retry();
    };
    ws.onerror = () => { try { ws.close(); } catch (e) { /* */ } };
  }

  retry() {
    this.onStatus("disconnected");
    clearTimeout(this.timer);
    const wait = this.delay * (0.75 + Math.random() * 0.5);
    this.delay = Math.min(this.delay * 2, 30000);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) {
      try { this.ws.close(); } catch (e) { /* */ }
    }
    this.ws = null;
  }
}

/** What each scoring choice of this seat would score now: {version, previews}. */
export const getPreview = (token) => api("GET", "/api/me/preview", { token });

/** E-mail notification of this seat: {enabled, email}; ``setNotify`` gives or clears it. */
export const getNotify = (token) => api("GET", "/api/me/notify", { token });
export const setNotify = (token, email) => api("POST", "/api/me/notify", { token, body: { email } });
