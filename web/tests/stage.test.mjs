import { test } from "node:test";
import assert from "node:assert/strict";
import * as st from "../stage.mjs";

const iphone = { width: 390, height: 844 };
const ipad = { width: 820, height: 1180 };
const f = (time, phase, tx, vy = 0) => ({ time, phase, gesture: { translation: { x: tx, y: 0 }, velocity: { x: tx ? 100 : 0, y: vy } } });

test("the stage shows the replay, except during a live recording and for another size on the Record tab", () => {
  const base = { recordingActive: false, tab: "replay", replayScreen: iphone, padScreen: iphone };
  assert.equal(st.stageShowsReplay(base), true);
  assert.equal(st.stageShowsReplay({ ...base, recordingActive: true }), false);
  assert.equal(st.stageShowsReplay({ ...base, tab: "record" }), true);
  assert.equal(st.stageShowsReplay({ ...base, tab: "record", padScreen: ipad }), false);
  assert.equal(st.stageShowsReplay({ ...base, tab: "record", replayScreen: undefined }), false);
  assert.equal(st.stageShowsReplay({ ...base, tab: "tune", replayScreen: undefined }), true);
});

test("while a live recording is active every tab's stage is the pad's: its preview, or its empty screen, never the replay's last frame", () => {
  assert.equal(st.padStage({ recordingActive: true, tab: "replay", hasPreview: false }), "empty");
  assert.equal(st.padStage({ recordingActive: true, tab: "replay", hasPreview: true }), "preview");
  assert.equal(st.padStage({ recordingActive: true, tab: "record", hasPreview: false }), "empty");
  assert.equal(st.padStage({ recordingActive: false, tab: "record", hasPreview: true }), "empty");
  assert.equal(st.padStage({ recordingActive: false, tab: "replay", hasPreview: true }), "keep");
  assert.equal(st.padStage({ recordingActive: false, tab: "tune", hasPreview: false }), "keep");
});

test("the title names the live recording's screen, else the recording and preset", () => {
  assert.equal(st.stageTitle({ recordingActive: true, padScreen: iphone }), "live recording · 390×844");
  const playback = { recording: "synthetic/a.pantrace", preset: "best" };
  assert.equal(st.stageTitle({ recordingActive: false, playback, entry: { name: "a" } }), "a · best");
  assert.equal(st.stageTitle({ recordingActive: false, playback, entry: null }), "synthetic/a.pantrace · best");
  assert.equal(st.stageTitle({ recordingActive: false, playback: null }), "nothing loaded");
});

test("the replay's finger trails the frames up to now from the edge anchor, lifted after release", () => {
  const frames = [f(0, "idle", 0), f(0.1, "interactive", 10), f(0.2, "interactive", 30), f(0.3, "completing", 40)];
  const mid = st.replayFinger(frames, frames[2], iphone, "left");
  assert.deepEqual(mid.trail, [{ x: 8, y: 422 }, { x: 18, y: 422 }, { x: 38, y: 422 }]);
  assert.deepEqual(mid.point, { x: 38, y: 422 });
  const after = st.replayFinger(frames, frames[3], iphone, "left");
  assert.equal(after.trail.length, 3, "released frames leave no trail");
  assert.equal(after.point, null);
  assert.equal(st.replayFinger(frames, frames[0], iphone, "left").point, null, "idle: not down");
  assert.equal(st.replayFinger(frames, { time: 0.2, phase: "interactive" }, iphone, "left").point, null, "no gesture: not down");
});

test("without an edge the finger starts back from the centre against the first movement", () => {
  const frames = [f(0, "idle", 0), f(0.1, "interactive", 10)];
  const { trail } = st.replayFinger(frames, frames[1], iphone, undefined);
  assert.deepEqual(trail[0], { x: 195 - 390 * 0.3, y: 422 });
});

test("the preview shows this page's gesture on the pad's screen, another's on its layers' screen", () => {
  const points = [{ x: 1, y: 2 }, { x: 3, y: 4 }];
  const layers = [{ frame: { x: 0, y: 0, width: 400, height: 800 } }];
  const mine = st.previewFinger({ mine: true, points, pointerDown: true, padScreen: iphone, layers });
  assert.deepEqual(mine, { screen: iphone, finger: { trail: points, point: { x: 3, y: 4 } } });
  assert.equal(st.previewFinger({ mine: true, points, pointerDown: false, padScreen: iphone, layers }).finger.point, null);
  const theirs = st.previewFinger({ mine: false, points, pointerDown: true, padScreen: iphone, layers });
  assert.deepEqual(theirs, { screen: { width: 400, height: 800 }, finger: { trail: [], point: null } });
});

test("the drawer's mask view is drawn clear, as the demo's is; other layers keep the stylesheet's paint", () => {
  assert.deepEqual(st.layerPaint("dimming"), { background: "transparent" });
  for (const role of ["outgoing", "incoming", "presented", "presenting", "drawer", "content"]) {
    assert.deepEqual(st.layerPaint(role), {});
  }
});
