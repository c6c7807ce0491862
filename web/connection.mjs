// The WebSocket to `/live`, reopened with exponential backoff after it closes.
// The socket constructor and the timer are parameters so tests drive it without a network. Pure.
import { num } from "./format.mjs";
import { PROTOCOL_VERSION } from "./protocol.mjs";

/** Seconds to wait before reconnection `attempt` (1, 2, …): 0.25 s doubling up to 5 s. */
export function backoffDelay(attempt, { base = 0.25, max = 5 } = {}) {
  return Math.min(max, base * 2 ** Math.max(0, attempt - 1));
}

/** The WebSocket URL for a page at `location` (its token passed on). */
export function liveURL(location) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const token = new URLSearchParams(location.search).get("token");
  // `v`: the protocol version this viewer speaks; the server refuses others with a clear error.
  return `${scheme}://${location.host}/live?v=${PROTOCOL_VERSION}${token ? `&token=${encodeURIComponent(token)}` : ""}`;
}

/**
 * Keeps one socket open. `onState({state, attempt, delay})` reports `connecting`, `open`,
 * `waiting` (with the delay before the next try); `onMessage(text)` each text message.
 */
export class LiveConnection {
  constructor(url, { WebSocket, setTimeout, clearTimeout, onState = () => {}, onMessage = () => {} }) {
    Object.assign(this, { url, WebSocket, setTimeout, clearTimeout, onState, onMessage });
    this.attempt = 0;
    this.socket = null;
    this.timer = null;
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  open() {
    this.timer = null;
    this.onState({ state: "connecting", attempt: this.attempt });
    const socket = new this.WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.onState({ state: "open", attempt: 0 });
    });
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") this.onMessage(event.data);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      this.attempt += 1;
      const delay = backoffDelay(this.attempt);
      this.onState({ state: "waiting", attempt: this.attempt, delay });
      this.timer = this.setTimeout(() => this.open(), delay * 1000);
    });
  }

  /** Sends a message object as JSON; `false` when not connected. */
  send(message) {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Tries again now instead of waiting out the backoff. */
  retryNow() {
    if (this.timer === null) return;
    this.clearTimeout(this.timer);
    this.open();
  }

  stop() {
    this.stopped = true;
    if (this.timer !== null) this.clearTimeout(this.timer);
    this.socket?.close();
  }
}

/**
 * The connection pill's text (`null`: leave it as it is) and tooltip for a state `onState`
 * reported; once open, with this page's own number (`page`, from `hello`), the one other pages
 * name it by ("page 4 holds the record pad", "follow page 4").
 */
export function connectionLabel({ state, delay, attempt }, page = null) {
  let text = null;
  if (state === "connecting") text = attempt ? `reconnecting… (try ${attempt + 1})` : "connecting…";
  if (state === "open") text = page == null ? "live" : `live · page ${page}`;
  if (state === "waiting") text = `offline · retry in ${num(delay, 2)} s`;
  const title = state === "waiting" ? "the server is not reachable; click to retry now" : "connection to pantrace serve";
  return { text, title };
}
