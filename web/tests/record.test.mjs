import { test } from "node:test";
import assert from "node:assert/strict";
import * as r from "../record.mjs";
import { fixture } from "./fixtures.mjs";

const rect = { left: 100, top: 50, width: 195, height: 422 };
const screen = { width: 390, height: 844, scale: 3 };

test("pad pixels map to points of the virtual screen", () => {
  const map = r.padMapping(rect, screen);
  assert.deepEqual(map(100, 50), { x: 0, y: 0 });
  assert.deepEqual(map(295, 472), { x: 390, y: 844 });
  assert.deepEqual(map(106.25, 250), { x: 12.5, y: 400 });
});

test("a pointer down becomes the golden pointer message", () => {
  const event = { type: "pointerdown", timeStamp: 1532.25, clientX: 106.25, clientY: 250, pointerId: 1 };
  const [message] = r.pointerMessages(event, [], rect, screen);
  assert.equal(JSON.stringify(message), JSON.stringify(JSON.parse(fixture("client", "pointer"))));
});

test("a move sends each coalesced sample with its own timestamp; other phases send themselves", () => {
  const event = { type: "pointermove", timeStamp: 20, clientX: 120, clientY: 60, pointerId: 7 };
  const coalesced = [
    { timeStamp: 12, clientX: 110, clientY: 55 },
    { timeStamp: 16.5, clientX: 115, clientY: 57 },
    { timeStamp: 20, clientX: 120, clientY: 60 },
  ];
  const messages = r.pointerMessages(event, coalesced, rect, screen);
  assert.deepEqual(messages.map((m) => [m.t_ms, m.x, m.phase, m.pointer]), [[12, 20, "move", 7], [16.5, 30, "move", 7], [20, 40, "move", 7]]);
  assert.equal(r.pointerMessages(event, [], rect, screen).length, 1);
  assert.equal(r.pointerMessages({ ...event, type: "pointerup" }, coalesced, rect, screen)[0].phase, "up");
  assert.equal(r.pointerMessages({ ...event, type: "pointercancel" }, [], rect, screen)[0].phase, "cancel");
  assert.deepEqual(r.pointerMessages({ ...event, type: "pointerover" }, [], rect, screen), []);
});

test("the pad follows the first pointer down until it lifts", () => {
  const latch = new r.PointerLatch();
  assert.equal(latch.accepts("pointermove", 1), false);
  assert.equal(latch.accepts("pointerdown", 1), true);
  assert.equal(latch.accepts("pointerdown", 2), false);
  assert.equal(latch.accepts("pointermove", 2), false);
  assert.equal(latch.accepts("pointermove", 1), true);
  assert.equal(latch.accepts("pointerup", 1), true);
  assert.equal(latch.accepts("pointerdown", 2), true);
});

test("screens are looked up by id, with the first as fallback", () => {
  assert.equal(r.screenById("ipad").width, 820);
  assert.equal(r.screenById("nope").id, "iphone");
});

test("a live recording is active while armed or capturing", () => {
  assert.equal(r.isRecordingActive({ state: "armed" }), true);
  assert.equal(r.isRecordingActive({ state: "capturing" }), true);
  assert.equal(r.isRecordingActive({ state: "released" }), false);
  assert.equal(r.isRecordingActive(null), false);
});

test("the status line depends on whose gesture it is", () => {
  assert.equal(r.recordStatusText(null, false), "ready: drag on the phone");
  assert.equal(r.recordStatusText({ state: "armed" }, true), "armed: move more than 10 pt to start the pan");
  assert.equal(r.recordStatusText({ state: "armed", page: 3, held_s: 4.7 }, false), "page 3 holds the pad (for 4 s): you can record when it lets go");
  // The count goes on between statuses: 4.7 s as of the status, 2.4 s since.
  assert.equal(r.recordStatusText({ state: "armed", page: 3, held_s: 4.7 }, false, 2.4), "page 3 holds the pad (for 7 s): you can record when it lets go");
  assert.equal(r.recordStatusText({ state: "armed", page: 3, held_s: 0 }, false, 0.99), "page 3 holds the pad (for 0 s): you can record when it lets go");
  assert.equal(r.recordStatusText(JSON.parse(fixture("server", "recording")), true), "capturing · 31 samples · 0.25 s");
  assert.equal(
    r.recordStatusText(JSON.parse(fixture("server", "recording")), false),
    "page 2 is recording · 31 samples · 0.25 s; you can record when it lets go",
  );
  assert.equal(r.recordStatusText({ state: "released", duration_s: 0.5 }, true), "released after 0.50 s: what did you mean?");
  // Another page's released gesture is its own business: the pad is free again.
  assert.equal(r.recordStatusText({ state: "released", page: 3 }, false), "ready: drag on the phone");
  assert.equal(r.recordStatusText({ state: "ready", page: 1 }, true), "ready: that was a tap, not a pan; drag further than 10 pt to record");
  assert.equal(r.recordStatusText({ state: "ready", page: 3 }, false), "ready: drag on the phone");
  assert.equal(r.recordStatusText({ state: "saved", id: "live/a-1.pantrace", file: "/x" }, true), "saved as live/a-1.pantrace");
  assert.equal(r.recordStatusText({ state: "failed", message: "disk full" }, true), "failed: disk full");
  assert.equal(r.recordStatusText({ state: "new-state" }, true), "new-state");
});

test("only this page labels and saves its released gesture, once it has an intent", () => {
  const released = { state: "released", intent: "unknown" };
  assert.equal(r.isLabelling(released, true), true);
  assert.equal(r.isLabelling(released, false), false);
  // A target trial is labelled by its target: no finish or cancel to ask.
  const trial = { ...released, sheet: { detents: [100, 400, 700], start: 2, target: 1 } };
  assert.equal(r.isTrial(trial), true);
  assert.equal(r.isLabelling(trial, true), false);
  assert.equal(r.isTrial(released), false);
  assert.equal(r.canSave(released, true), false);
  assert.equal(r.canSave({ ...released, intent: "finish" }, true), true);
  assert.equal(r.canSave({ ...released, intent: "finish" }, false), false);
  assert.equal(r.endsGesture({ state: "saved" }), true);
  assert.equal(r.endsGesture({ state: "discarded" }), true);
  assert.equal(r.endsGesture(null), false);
});

test("the library lists live recordings first, then by id", () => {
  const ids = r.libraryOrder([{ id: "synthetic/b" }, { id: "live/z" }, { id: "real/a" }, { id: "live/a" }]).map((e) => e.id);
  assert.deepEqual(ids, ["live/a", "live/z", "real/a", "synthetic/b"]);
});
