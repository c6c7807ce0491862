import { test } from "node:test";
import assert from "node:assert/strict";
import { droppedText, gestureText, keptText, liveLine, sourceLabel, sourceState, unsavedDeviceGestures } from "../devices.mjs";
import { fixture } from "./fixtures.mjs";

const iphone = JSON.parse(fixture("server", "sources")).sources[0];
const pixel = { ...iphone, source: 3, name: "Pixel 8", screen: { width: 411, height: 914 }, scale: 2.625, live: false };

test("a source is named by its name, screen and scale", () => {
  assert.equal(sourceLabel(iphone), "iPhone 15 (390×844 @3x)");
  assert.equal(sourceLabel(pixel), "Pixel 8 (411×914 @2.625x)");
});

test("the live line names a live device, counts several, and says nothing without one", () => {
  assert.equal(liveLine([iphone]), "iPhone 15 (390×844 @3x) is live");
  assert.equal(liveLine([iphone, { ...pixel, live: true }]), "2 devices are live: iPhone 15, Pixel 8");
  assert.equal(liveLine([pixel]), "Pixel 8 (411×914 @2.625x) is connected");
  assert.equal(liveLine([{ ...iphone, connected: false, live: false }]), "");
  assert.equal(liveLine([]), "");
});

test("a source's state says what it is doing, its unsaved gestures and its drops", () => {
  assert.equal(sourceState(iphone), "live · 4 unsaved");
  assert.equal(sourceState({ ...pixel, connected: false, gestures: 0, dropped: 12 }), "disconnected · 12 samples dropped on the device");
});

test("a device's unsaved gestures are the ones the server says a device made, newest first, whatever their names", () => {
  const iphone15 = { source: 2, name: "iPhone 15" };
  const library = [
    { id: "live/unsaved-20261127101500-1.pantrace" },  // the record pad's
    { id: "live/a.pantrace", device: iphone15 },
    { id: "live/unsaved-android-3-20261127101600-2.pantrace", device: { source: 3, name: "Pixel 8" } },
    { id: "live/iPhone-15-1.pantrace" },  // kept: no longer unsaved
    { id: "live/unsaved-ios-9-20261127101500-2.pantrace" },  // looks like one, but no device made it
    { id: "live/b.pantrace", device: iphone15 },
  ];
  assert.deepEqual(unsavedDeviceGestures(library).map((r) => r.id), [
    "live/unsaved-android-3-20261127101600-2.pantrace", "live/b.pantrace", "live/a.pantrace",
  ]);
});

test("a gesture's row names its device and says when a disconnect cut it", () => {
  const entry = { name: "unsaved-ios-2-1", samples: 41, duration_s: 0.345, complete: true, device: { source: 2, name: "iPhone 15" } };
  assert.equal(gestureText(entry), "iPhone 15 · 41 samples · 0.34 s · replay it to see this page's decision");
  assert.equal(gestureText({ ...entry, complete: false }), "iPhone 15 · 41 samples · 0.34 s · cut off (incomplete) · replay it to see this page's decision");
  assert.equal(gestureText(entry, "cancel"), "iPhone 15 · 41 samples · 0.34 s · cancel with this page's setting");
  // A page without the token cannot replay it: it is not told to.
  assert.equal(gestureText(entry, null, false), "iPhone 15 · 41 samples · 0.34 s");
  assert.equal(gestureText(entry, "finish", false), "iPhone 15 · 41 samples · 0.34 s · finish with this page's setting");
});

test("kept and discarded gestures are counted in words", () => {
  const kept = JSON.parse(fixture("server", "kept"));
  assert.equal(keptText(kept), "kept as live/edge-back-1.pantrace");
  assert.equal(keptText({ files: [...kept.files, { from: "a", to: "live/edge-back-2.pantrace" }] }), "kept 2 gestures (the last as live/edge-back-2.pantrace)");
  assert.equal(keptText({ files: [] }), "nothing was kept");
  assert.equal(droppedText(JSON.parse(fixture("server", "dropped"))), "discarded 1 device gesture");
  assert.equal(droppedText({ files: ["a", "b"] }), "discarded 2 device gestures");
});

test("a page watches the only device on its own, unless the person stopped watching it", async () => {
  const { autoWatch } = await import("../devices.mjs");
  const one = [{ ...iphone, live: false }];
  assert.equal(autoWatch({ sources: one, watching: null }), 2, "the only source, connected");
  assert.equal(autoWatch({ sources: one, watching: null, declined: 2 }), undefined, "the person stopped watching it");
  assert.equal(autoWatch({ sources: [{ ...iphone, connected: false }], watching: null }), undefined, "gone: nothing to watch");
  assert.equal(autoWatch({ sources: [iphone, pixel], watching: null }), undefined, "two: the person chooses");
  assert.equal(autoWatch({ sources: one, watching: 2 }), undefined, "already watching");
});

test("with 'watch whatever goes live' a page watches the device that streams, the newest of several", async () => {
  const { autoWatch } = await import("../devices.mjs");
  const quiet = { ...iphone, live: false };
  assert.equal(autoWatch({ sources: [quiet, pixel], watching: null, followLive: true }), undefined, "nothing live");
  assert.equal(autoWatch({ sources: [quiet, { ...pixel, live: true }], watching: 2, followLive: true }), 3, "moves to the live one");
  assert.equal(autoWatch({ sources: [iphone, { ...pixel, live: true }], watching: 2, followLive: true }), undefined, "keeps a live one it watches");
  assert.equal(autoWatch({ sources: [iphone, { ...pixel, live: true }], watching: null, followLive: true }), 3, "the newest");
  assert.equal(autoWatch({ sources: [iphone], watching: null, followLive: true, declined: 2 }), 2, "the person asked for whatever goes live");
});
