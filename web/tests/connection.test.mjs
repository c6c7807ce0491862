import { test } from "node:test";
import assert from "node:assert/strict";
import { backoffDelay, connectionLabel, liveURL, LiveConnection } from "../connection.mjs";

test("backoff doubles from 0.25 s up to 5 s", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 50].map((a) => backoffDelay(a)), [0.25, 0.5, 1, 2, 4, 5, 5, 5]);
});

test("the socket URL carries the page's token and follows its scheme", () => {
  assert.equal(liveURL({ protocol: "http:", host: "127.0.0.1:8080", search: "?token=ab12" }), "ws://127.0.0.1:8080/live?v=3&token=ab12");
  assert.equal(liveURL({ protocol: "https:", host: "h:1", search: "" }), "wss://h:1/live?v=3");
});

class FakeSocket {
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.listeners = {};
    this.sent = [];
    FakeSocket.made.push(this);
  }
  addEventListener(type, f) { (this.listeners[type] ??= []).push(f); }
  emit(type, event = {}) {
    if (type === "open") this.readyState = 1;
    if (type === "close") this.readyState = 3;
    for (const f of this.listeners[type] ?? []) f(event);
  }
  send(text) { this.sent.push(text); }
  close() { this.emit("close"); }
}

test("a closed connection is reopened after the backoff, which resets once open", () => {
  FakeSocket.made = [];
  const timers = [];
  const states = [];
  const messages = [];
  const c = new LiveConnection("ws://x/live", {
    WebSocket: FakeSocket, setTimeout: (f, ms) => timers.push({ f, ms }) - 1, clearTimeout: () => {},
    onState: (s) => states.push(s), onMessage: (m) => messages.push(m),
  });
  c.start();
  assert.equal(c.send({ type: "play" }), false, "nothing is sent before the socket opens");
  FakeSocket.made[0].emit("open");
  assert.equal(c.send({ type: "play" }), true);
  assert.deepEqual(FakeSocket.made[0].sent, ['{"type":"play"}']);
  FakeSocket.made[0].emit("message", { data: '{"type":"hello"}' });
  assert.deepEqual(messages, ['{"type":"hello"}']);
  FakeSocket.made[0].emit("close");
  FakeSocket.made.length = 1;
  timers.shift().f();
  FakeSocket.made[1].emit("close");
  assert.deepEqual(states.filter((s) => s.state === "waiting").map((s) => s.delay), [0.25, 0.5]);
  assert.equal(timers[0].ms, 500);
  timers.shift().f();
  FakeSocket.made[2].emit("open");
  FakeSocket.made[2].emit("close");
  assert.equal(states.at(-1).delay, 0.25, "a successful open resets the backoff");
  c.stop();
  assert.equal(FakeSocket.made.length, 3);
});

test("the connection pill says what the socket does", () => {
  assert.deepEqual(connectionLabel({ state: "connecting", attempt: 0 }), { text: "connecting…", title: "connection to pantrace serve" });
  assert.equal(connectionLabel({ state: "connecting", attempt: 2 }).text, "reconnecting… (try 3)");
  assert.equal(connectionLabel({ state: "open", attempt: 0 }).text, "live");
  assert.equal(connectionLabel({ state: "open", attempt: 0 }, 4).text, "live · page 4", "once the hello named this page");
  assert.deepEqual(connectionLabel({ state: "waiting", attempt: 3, delay: 1 }),
    { text: "offline · retry in 1 s", title: "the server is not reachable; click to retry now" });
  assert.equal(connectionLabel({ state: "closing" }).text, null, "an unknown state leaves the text");
});
