import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHash } from "../address.mjs";
import { Store } from "../store.mjs";
import { fixture } from "./fixtures.mjs";

/** A store on a fake connection that records what is sent and every event in order. */
function harness({ hash = "", connected = true, hasToken = false } = {}) {
  const sent = [];
  const events = [];
  const warnings = [];
  const connection = { send: (m) => (connected ? sent.push(m) > 0 : false) };
  const store = new Store({ address: parseHash(hash), hasToken, connection, warn: (w) => warnings.push(w) });
  for (const name of ["control", "library", "presets", "address", "playback", "summary", "recording", "tune", "frame", "preview", "series", "compare", "error", "toast", "tab", "stage"]) {
    store.on(name, (detail) => events.push([name, detail]));
  }
  return { store, sent, events, warnings, names: () => events.map((e) => e[0]) };
}

const hello = (over = {}) => {
  const m = JSON.parse(fixture("server", "hello"));
  Object.assign(m.state, over);
  return JSON.stringify(m);
};
const frame = (load, time = 0.05) => {
  const m = JSON.parse(fixture("server", "frame"));
  m.load = load;
  m.frame.time = time;
  return JSON.stringify(m);
};

test("a hello sets the state and emits its parts in the order the views expect", () => {
  const { store, names, sent } = harness();
  store.receive(hello());
  assert.equal(store.canControl, true);
  assert.equal(store.library[0].id, "synthetic/fixture.pantrace");
  assert.equal(store.playback.load, 1);
  assert.equal(store.summary.decision, "cancel");
  assert.deepEqual(names(), ["control", "library", "presets", "address", "playback", "summary", "recording"]);
  assert.deepEqual(sent, [], "nothing to reopen without an address");
  assert.equal(store.address.recording, "synthetic/fixture.pantrace", "the address follows the playback");
});

test("a hello reopens the address: a load when it differs from what plays, then a seek and pause", () => {
  const { store, sent } = harness({ hash: "#recording=synthetic/fixture.pantrace&preset=swipe-dismiss&p.threshold=0.3&t=0.02" });
  store.receive(hello());
  assert.deepEqual(sent.map((m) => m.type), ["load", "seek", "pause"]);
  assert.deepEqual(sent[0].parameters, { threshold: 0.3 });
  assert.equal(sent[1].time, 0.02);
});

test("a watch-only hello does not reopen the address", () => {
  const { store, sent } = harness({ hash: "#recording=synthetic/fixture.pantrace&t=0.02" });
  const m = JSON.parse(hello());
  m.can_control = false;
  store.receive(JSON.stringify(m));
  assert.deepEqual(sent, []);
  assert.equal(store.canControl, false);
});

test("frames of the current load join the series; earlier loads are dropped; previews pass through", () => {
  const { store, events } = harness();
  store.receive(hello());
  store.receive(frame(1, 0.05));
  store.receive(frame(1, 0.05));
  store.receive(frame(0, 0.1));
  store.receive(frame(-1, 0.2));
  assert.equal(store.series.size, 1);
  assert.equal(store.frame.load, 1);
  assert.equal(events.filter((e) => e[0] === "frame").length, 2);
  assert.equal(events.find((e) => e[0] === "preview")[1].load, -1);
});

test("a new load starts a new series; the same load keeps it", () => {
  const { store } = harness();
  store.receive(hello());
  store.receive(frame(1));
  store.receive(fixture("server", "playback"));
  assert.equal(store.series.size, 1, "same load");
  const next = JSON.parse(fixture("server", "playback"));
  next.load = 2;
  store.receive(JSON.stringify(next));
  assert.equal(store.series.size, 0);
  assert.equal(store.frame, null);
});

test("a recording status says when a recording starts and asks for the stage to be redrawn", () => {
  const { store, events } = harness();
  store.receive(fixture("server", "recording"));
  assert.equal(store.recordingActive, true);
  assert.deepEqual(events.slice(-2).map((e) => e[0]), ["recording", "stage"]);
  assert.equal(events.at(-2)[1].started, true);
  store.receive(fixture("server", "recording"));
  assert.equal(events.at(-2)[1].started, false, "already active");
});

test("an error is passed on and toasted; a message off the protocol is logged and ignored", () => {
  const { store, events, warnings } = harness();
  store.receive(fixture("server", "error"));
  assert.deepEqual(events.map((e) => e[0]), ["error", "toast"]);
  // A person reads a sentence, never the protocol's code.
  assert.match(events[1][1], /^This page only watches, so the server did not do that\. To control it, open the address pantrace serve printed/);
  assert.ok(!events[1][1].includes("forbidden") && !events[1][1].includes("needs control"));
  store.receive('{"type":"frame"}');
  store.receive("not json");
  store.receive('{"type":"from-the-future"}');
  assert.equal(warnings.length, 2);
  assert.equal(events.length, 2);
});

test("sending while disconnected toasts", () => {
  const { store, events } = harness({ connected: false });
  store.send({ type: "play" });
  assert.deepEqual(events, [["toast", "not connected"]]);
});

test("a tab change redraws the stage and updates the address; an edited address reopens", () => {
  const { store, events, sent } = harness();
  store.receive(hello());
  events.length = 0;
  store.showTab("record");
  assert.deepEqual(events.map((e) => e[0]), ["tab", "stage", "address"]);
  assert.equal(store.address.tab, "record");
  store.openAddress(parseHash("#tab=tune&recording=synthetic/fixture.pantrace&preset=swipe-dismiss&p.threshold=0.5&t=0.01"));
  assert.equal(store.tab, "tune");
  assert.deepEqual(sent.map((m) => m.type), ["seek", "pause"], "already loaded: only the seek");
});

test("the stage shows the replay except while recording, and on the Record tab only at the pad's size", () => {
  const { store } = harness();
  store.receive(hello());
  assert.equal(store.stageShowsReplay(), true);
  store.showTab("record");
  assert.equal(store.stageShowsReplay(), true, "the fixture is 390×844, the pad's default");
  store.setPadScreen({ width: 820, height: 1180 });
  assert.equal(store.stageShowsReplay(), false);
  store.showTab("replay");
  store.receive(fixture("server", "recording"));
  assert.equal(store.stageShowsReplay(), false);
});

test("a listener can unsubscribe", () => {
  const store = new Store({ address: parseHash("") });
  const seen = [];
  const off = store.on("toast", (t) => seen.push(t));
  store.toast("a");
  off();
  store.toast("b");
  assert.deepEqual(seen, ["a"]);
});

test("a page whose token is refused keeps the address it had; one without a token follows the playback", () => {
  const hash = "#recording=other/gesture.pantrace&preset=best&t=0.3";
  const watchOnly = () => {
    const m = JSON.parse(hello());
    m.can_control = false;
    return JSON.stringify(m);
  };
  const refused = harness({ hash, hasToken: true });
  assert.equal(refused.store.tokenRefused, false, "nothing is refused before the hello");
  refused.store.receive(watchOnly());
  assert.equal(refused.store.tokenRefused, true);
  assert.equal(refused.store.address.recording, "other/gesture.pantrace", "the view the address named is kept");
  assert.equal(refused.store.address.time, 0.3);
  assert.ok(!refused.names().includes("address"), "no address is written");

  // A watch-only page keeps a link it cannot open, and says so once; without a link it
  // follows what plays.
  const noToken = harness({ hash });
  noToken.store.receive(watchOnly());
  assert.equal(noToken.store.tokenRefused, false);
  assert.equal(noToken.store.address.recording, "other/gesture.pantrace", "the link is kept");
  assert.equal(noToken.store.address.time, 0.3);
  assert.ok(!noToken.names().includes("address"), "no address is written over the link");
  const said = noToken.events.filter((e) => e[0] === "toast").map((e) => e[1]);
  assert.equal(said.length, 1);
  assert.match(said[0], /^This link opens other\/gesture\.pantrace under best at 0\.3 s, but this page only watches/);
  // Following a page is choosing what to see: the address follows it from then on.
  noToken.store.receive(JSON.stringify({ type: "following", page: 2 }));
  noToken.store.updateAddress();
  assert.equal(noToken.store.address.recording, "synthetic/fixture.pantrace");
  const plain = harness({ hash: "#recording=synthetic/fixture.pantrace&t=0.02" });
  plain.store.receive(watchOnly());
  assert.equal(plain.names().filter((n) => n === "toast").length, 0, "a link to what plays is shown: nothing to say");

  const accepted = harness({ hash: "", hasToken: true });
  accepted.store.receive(hello());
  assert.equal(accepted.store.tokenRefused, false);
  assert.equal(accepted.store.address.recording, "synthetic/fixture.pantrace");
});

test("a series fills the timeline at once; frames that follow do not replace its points", () => {
  const { store, names } = harness();
  store.receive(hello());
  store.receive(frame(1, 0.05));
  assert.equal(store.series.size, 1);
  const series = JSON.parse(fixture("server", "series"));
  store.receive(JSON.stringify(series));
  assert.ok(names().includes("series"));
  assert.equal(store.series.size, series.series.points.length, "every point of the replay, not the frames sent so far");
  assert.deepEqual(store.series.markers, { touchDown: series.series.touch_down, release: series.series.release, settle: series.series.settle });
  assert.equal(store.series.release.decision.outcome, series.series.release_report.decision.outcome);
  const withVelocity = series.series.points.find((p) => p.velocity);
  const sent = JSON.parse(frame(1, withVelocity.time));
  sent.frame.gesture.velocity = { x: 12345, y: 12345 };
  store.receive(JSON.stringify(sent));
  const kept = store.series.frames.find((f) => Math.abs(f.time - withVelocity.time) < 1e-9);
  assert.deepEqual(kept.gesture.velocity, withVelocity.velocity, "the estimator's velocity is kept");
});

test("a series of an earlier load is ignored; a compare series is kept apart", () => {
  const { store } = harness();
  store.receive(hello());
  const old = JSON.parse(fixture("server", "series"));
  old.load = 0;
  store.receive(JSON.stringify(old));
  assert.equal(store.series.whole, null);
  const other = JSON.parse(fixture("server", "series"));
  other.role = "compare";
  other.preset = "swipe-back";
  store.receive(JSON.stringify(other));
  assert.equal(store.series.whole, null, "a comparison does not fill the playing series");
  assert.equal(store.comparison.preset, "swipe-back");
  store.clearComparison();
  assert.equal(store.comparison, null);
});

test("a comparison asked too soon is not a toast (the compare view asks again); other errors are", () => {
  const { store, names } = harness();
  store.receive(JSON.stringify({ type: "error", code: "rate_limited", message: "at most 5 compare requests a second", in_reply_to: "compare" }));
  assert.deepEqual(names(), ["error"]);
  store.receive(JSON.stringify({ type: "error", code: "rate_limited", message: "too many pointer events", in_reply_to: "pointer" }));
  assert.deepEqual(names(), ["error", "error", "toast"]);
});

test("a device's frames reach a page only while it watches that device, and stop the replay's stage", () => {
  const { store, sent } = harness();
  const seen = [];
  store.on("devicePreview", (m) => seen.push(m.seq));
  store.receive(hello());
  store.receive(fixture("server", "sources"));
  assert.equal(store.sources[0].name, "iPhone 15");
  assert.equal(store.watching, 2, "the only device is watched on its own");
  store.chooseSource(null);
  assert.deepEqual(sent.at(-1), { type: "watch" });
  store.receive(fixture("server", "sources"));
  assert.equal(store.watching, null, "the person stopped watching it: not again on its own");
  store.receive(fixture("server", "frame-live"));
  assert.deepEqual(seen, [], "not watching: nothing");
  assert.equal(store.stageShowsReplay(), true);
  store.chooseSource(2);
  assert.deepEqual(sent.at(-1), { type: "watch", source: 2 });
  assert.equal(store.deviceLive.source, 2);
  assert.equal(store.stageShowsReplay(), false, "the watched device's gesture has the stage");
  store.receive(fixture("server", "frame-live"));
  assert.deepEqual(seen, [7]);
  // The device stops streaming: the stage is the replay's again; it goes away: unwatched.
  const quiet = JSON.parse(fixture("server", "sources"));
  quiet.sources[0].live = false;
  store.receive(JSON.stringify(quiet));
  assert.equal(store.stageShowsReplay(), true);
  store.receive(JSON.stringify({ type: "sources", sources: [] }));
  assert.equal(store.watching, null);
});

test("a reconnected page watches the device it chose again", () => {
  const { store, sent } = harness();
  store.receive(hello());
  store.receive(fixture("server", "sources"));  // the only device: watched on its own
  const sources = JSON.parse(fixture("server", "sources")).sources;
  store.receive(hello({ sources }));
  assert.deepEqual(sent.filter((m) => m.type === "watch"), [{ type: "watch", source: 2 }, { type: "watch", source: 2 }]);
  store.receive(hello({ sources: [] }));
  assert.equal(store.watching, null);
});

test("the decision box follows this page's own live frames, then their release until the next load", () => {
  const { store } = harness();
  store.receive(hello());
  const status = JSON.parse(fixture("server", "recording"));
  status.page = 99;  // another page records
  store.receive(JSON.stringify(status));
  assert.deepEqual(store.liveDecision, { live: null, mine: false }, "no frame yet: nothing of the recorder's setting");
  const live = JSON.parse(fixture("server", "frame-live"));
  delete live.source;  // the pad's preview
  store.receive(JSON.stringify(live));
  assert.equal(store.liveDecision.live.if_released.decision, "cancel");
  // The release: the last frame carries this page's own decision, kept until another load.
  const released = JSON.parse(fixture("server", "frame-release"));
  released.load = -1;
  store.receive(JSON.stringify(released));
  store.receive(JSON.stringify({ ...status, state: "released", if_released: undefined }));
  assert.equal(store.recordingActive, false);
  assert.equal(store.liveDecision.release.decision.outcome, released.frame.release.decision.outcome);
  const next = JSON.parse(fixture("server", "playback"));
  next.load = 5;
  store.receive(JSON.stringify(next));
  assert.equal(store.liveDecision, null, "a new load: the box shows its summary again");
});

test("a watched device gesture's release is remembered with this page's decision, at most a thousand", () => {
  const { store } = harness();
  store.receive(hello());
  store.receive(fixture("server", "sources"));  // the only device: watched on its own
  const release = JSON.parse(fixture("server", "frame-release"));
  const live = (file) => JSON.stringify({ ...release, load: -1, source: 2, recording: file });
  store.receive(live("live/a.pantrace"));
  assert.equal(store.deviceDecisions.get("live/a.pantrace"), release.frame.release.decision.outcome);
  for (let k = 0; k < 1001; k++) store.receive(live(`live/g${k}.pantrace`));
  assert.equal(store.deviceDecisions.size, 1000);
  assert.equal(store.deviceDecisions.has("live/a.pantrace"), false, "the oldest went first");
});

test("a device gesture this page replays, watched or not, lists the decision of this page's setting", () => {
  const { store } = harness();
  const library = JSON.parse(hello()).state.library;
  const file = "live/unsaved-ios-2-20261127T101500-3.pantrace";
  store.receive(hello({ library: [...library, { ...library[0], id: file, name: "unsaved-ios-2-20261127T101500-3", device: { name: "iPhone 15", source: 2 } }] }));
  const summary = JSON.parse(fixture("server", "summary"));
  const playback = JSON.parse(fixture("server", "playback"));
  store.receive(JSON.stringify({ ...summary, decision: "finish" }));
  store.receive(JSON.stringify({ ...playback, load: 41, recording: library[0].id }));
  assert.equal(store.deviceDecisions.size, 0, "a recording of no device: nothing listed");
  store.receive(JSON.stringify({ ...summary, decision: "cancel" }));
  store.receive(JSON.stringify({ ...playback, load: 42, recording: file }));
  assert.equal(store.deviceDecisions.get(file), "cancel");
});

test("a library page refused for its pace is asked again when the server says, without a toast", () => {
  const sent = [];
  const toasts = [];
  const timers = [];
  const connection = { send: (m) => sent.push(m) > 0 };
  const store = new Store({ address: parseHash(""), connection, warn: () => {}, later: (ms, fn) => timers.push([ms, fn]) });
  store.on("toast", (text) => toasts.push(text));
  store.applyLibraryPage({ recordings: [{ id: "a" }, { id: "b" }], offset: 0, total: 5 });
  assert.deepEqual(sent.at(-1), { type: "library", offset: 2 });
  store.receive(JSON.stringify({ type: "error", code: "rate_limited", message: "at most five library pages a second", in_reply_to: "library", retry_after_ms: 200 }));
  assert.deepEqual(toasts, []);
  assert.equal(timers.length, 1);
  assert.equal(timers[0][0], 200);
  timers[0][1]();
  assert.deepEqual(sent.at(-1), { type: "library", offset: 2 });
  // Once the list is whole, nothing more is asked.
  store.applyLibraryPage({ recordings: [{ id: "c" }, { id: "d" }, { id: "e" }], offset: 2, total: 5 });
  const count = sent.length;
  store.receive(JSON.stringify({ type: "error", code: "rate_limited", message: "x", in_reply_to: "library", retry_after_ms: 200 }));
  timers.at(-1)[1]();
  assert.equal(sent.length, count);
});
