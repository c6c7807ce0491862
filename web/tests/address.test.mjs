import { test } from "node:test";
import assert from "node:assert/strict";
import * as s from "../address.mjs";

test("the hash round-trips recording, preset, parameters and time", () => {
  const state = { tab: "replay", recording: "synthetic/swipe-down-60hz/a b.pantrace", preset: "swipe-dismiss",
    parameters: { threshold: 0.4, comparison: "atLeast" }, time: 0.25, compare: null, zoom: null };
  const hash = s.formatHash(state);
  assert.equal(hash, "#recording=synthetic/swipe-down-60hz/a+b.pantrace&preset=swipe-dismiss&p.comparison=atLeast&p.threshold=0.4&t=0.25");
  assert.deepEqual(s.parseHash(hash), state);
  const compared = { ...state, compare: "defaults", zoom: { from: 0.1, to: 0.625 } };
  assert.ok(s.formatHash(compared).endsWith("&cmp=defaults&z=0.1,0.625"));
  assert.deepEqual(s.parseHash(s.formatHash(compared)), compared);
});

test("an empty or foreign hash is the default view; unknown keys and bad values are ignored", () => {
  assert.deepEqual(s.parseHash(""), { tab: "replay", recording: null, preset: null, parameters: {}, time: null, compare: null, zoom: null });
  for (const bad of ["z=1", "z=2,1", "z=a,b", "z=0,1,2", "z=,1"]) assert.equal(s.parseHash(`#${bad}`).zoom, null, bad);
  const parsed = s.parseHash("#tab=tune&t=soon&p.=1&zoom=3&tab2=x");
  assert.equal(parsed.tab, "tune");
  assert.equal(parsed.time, null);
  assert.deepEqual(parsed.parameters, {});
  assert.equal(s.parseHash("#tab=nowhere").tab, "replay");
  assert.equal(s.formatHash({ tab: "replay", parameters: {} }), "");
  assert.equal(s.formatHash({ tab: "record", parameters: {}, time: 1 / 3 }), "#tab=record&t=0.333");
});

test("values read as numbers when they are numbers, otherwise as names", () => {
  assert.equal(s.parseValue("0.5"), 0.5);
  assert.equal(s.parseValue("-2e3"), -2000);
  assert.equal(s.parseValue("easeInOut"), "easeInOut");
  assert.equal(s.parseValue(""), "");
});

test("only parameters that differ from the defaults are overrides", () => {
  const specs = [
    { key: "threshold", kind: "number", defaultValue: 0.5 },
    { key: "comparison", kind: "choice", defaultValue: "greaterThan" },
    { key: "velocity", kind: "choice", defaultValue: "recorded" },
  ];
  assert.deepEqual(s.overrides({ threshold: 0.5, comparison: "atLeast", velocity: "recorded" }, specs), { comparison: "atLeast" });
  assert.deepEqual(s.overrides({ threshold: 0.45 }, specs), { threshold: 0.45 });
  assert.ok(s.sameParameters({ a: 1, b: "x" }, { b: "x", a: 1 }));
  assert.ok(!s.sameParameters({ a: 1 }, { a: 2 }));
  assert.ok(!s.sameParameters({ a: 1 }, {}));
});

test("the address follows what plays (the time only while paused), else keeps what it named", () => {
  const previous = { tab: "replay", recording: "a", preset: "p", parameters: { x: 1 }, time: 0.5, compare: "defaults", zoom: null };
  assert.deepEqual(s.addressFor("tune", null, previous), { ...previous, tab: "tune" });
  const playback = { recording: "b", preset: "q", parameters: {}, playing: false, time: 0.25 };
  assert.deepEqual(s.addressFor("replay", playback, previous, { compare: null, zoom: { from: 0, to: 1 } }),
    { tab: "replay", recording: "b", preset: "q", parameters: {}, time: 0.25, compare: null, zoom: { from: 0, to: 1 } });
  assert.equal(s.addressFor("replay", { ...playback, playing: true }, previous).time, null);
});

test("reopening an address loads what differs from what plays, then seeks and pauses at its time", () => {
  const server = { canControl: true, library: [{ id: "a" }], presets: [{ name: "p" }, { name: "q" }] };
  const want = { recording: "a", preset: "q", parameters: { x: 1 }, time: 0.3 };
  assert.deepEqual(s.reopenMessages(want, null, server), [
    { type: "load", recording: "a", preset: "q", parameters: { x: 1 } }, { type: "seek", time: 0.3 }, { type: "pause" }]);
  const playing = { recording: "a", preset: "q", parameters: { x: 1 } };
  assert.deepEqual(s.reopenMessages({ ...want, time: null }, playing, server), [], "already loaded");
  assert.equal(s.reopenMessages({ ...want, preset: "gone" }, { ...playing, preset: "p", parameters: {} }, server)[0].preset, "p", "an unknown preset: the one playing");
  assert.equal(s.reopenMessages({ ...want, preset: null }, null, server)[0].preset, "p", "nothing playing: the first");
  assert.deepEqual(s.reopenMessages(want, null, { ...server, canControl: false }), [], "watch only");
  assert.deepEqual(s.reopenMessages({ ...want, recording: "b" }, null, server), [], "not in the library");
});
