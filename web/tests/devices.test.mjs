import { test } from "node:test";
import assert from "node:assert/strict";
import { droppedText, gestureText, keptText, liveLine, sourceLabel, sourceOfFile, sourceState, unsavedDeviceGestures } from "../devices.mjs";
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

test("only a device's unsaved files are its gestures, newest first", () => {
  const library = [
    { id: "live/unsaved-20261127101500-1.pantrace" },  // the record pad's
    { id: "live/unsaved-ios-2-20261127101500-1.pantrace" },
    { id: "live/unsaved-android-3-20261127101600-2.pantrace" },
    { id: "live/iPhone-15-1.pantrace" },
    { id: "live/unsaved-ios-2-20261127101500-2.pantrace" },
  ];
  assert.deepEqual(unsavedDeviceGestures(library).map((r) => r.id), [
    "live/unsaved-ios-2-20261127101500-2.pantrace", "live/unsaved-ios-2-20261127101500-1.pantrace",
    "live/unsaved-android-3-20261127101600-2.pantrace",
  ]);
  assert.equal(sourceOfFile("live/unsaved-android-3-20261127101600-2.pantrace"), 3);
  assert.equal(sourceOfFile("live/unsaved-20261127101500-1.pantrace"), null);
  assert.equal(sourceOfFile(undefined), null);
});

test("a gesture cut by a disconnect says so", () => {
  const entry = { name: "unsaved-ios-2-1", samples: 41, duration_s: 0.345, complete: true };
  assert.equal(gestureText(entry), "unsaved-ios-2-1 · 41 samples · 0.34 s");
  assert.equal(gestureText({ ...entry, complete: false }), "unsaved-ios-2-1 · 41 samples · 0.34 s · cut off (incomplete)");
});

test("kept and discarded gestures are counted in words", () => {
  const kept = JSON.parse(fixture("server", "kept"));
  assert.equal(keptText(kept), "kept as live/edge-back-1.pantrace");
  assert.equal(keptText({ files: [...kept.files, { from: "a", to: "live/edge-back-2.pantrace" }] }), "kept 2 gestures (the last as live/edge-back-2.pantrace)");
  assert.equal(keptText({ files: [] }), "nothing was kept");
  assert.equal(droppedText(JSON.parse(fixture("server", "dropped"))), "discarded 1 device gesture");
  assert.equal(droppedText({ files: ["a", "b"] }), "discarded 2 device gestures");
});
