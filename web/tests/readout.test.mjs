import { test } from "node:test";
import assert from "node:assert/strict";
import * as r from "../readout.mjs";
import { FrameSeries } from "../chart.mjs";
import { fixture } from "./fixtures.mjs";

/** Six frames at 10 Hz: the finger down until 0.3 s (progress 0 → 0.3), then completing. */
function frames() {
  return [0, 0.1, 0.2, 0.3, 0.4, 0.5].map((time) => {
    const down = time <= 0.3 + 1e-9;
    const f = { time, phase: down ? "interactive" : "completing", progress: down ? time : 0.3 + (time - 0.3) * 2, rendered_progress: down ? time * 0.5 : 0.3 };
    if (down) f.gesture = { translation: { x: 1, y: time * 200 }, velocity: { x: 0, y: 1000 - time * 1000 } };
    return f;
  });
}

const close = (a, b, message) => assert.ok(Math.abs(a - b) < 1e-9, `${message}: ${a} ≠ ${b}`);

test("a value at a frame's time is that frame's", () => {
  const v = r.valueAt(frames(), 0.2, "y");
  close(v.time, 0.2, "time");
  close(v.progress, 0.2, "progress");
  close(v.drawn, 0.1, "drawn");
  close(v.translation, 40, "translation");
  close(v.velocity, 800, "velocity");
  assert.equal(v.phase, "interactive");
  assert.equal(v.axis, "y");
});

test("between two frames the value lies on the straight segment the chart draws", () => {
  const v = r.valueAt(frames(), 0.125, "y");
  close(v.progress, 0.125, "progress");
  close(v.drawn, 0.0625, "drawn");
  close(v.translation, 25, "translation");
  close(v.velocity, 875, "velocity");
  assert.equal(v.phase, "interactive", "the phase of the frame before");
  close(r.valueAt(frames(), 0.45).progress, 0.6, "after the release");
});

test("after the release the finger has no translation or velocity, nor between its last frame and the next", () => {
  const after = r.valueAt(frames(), 0.4);
  assert.equal(after.translation, null);
  assert.equal(after.velocity, null);
  assert.equal(after.phase, "completing");
  const between = r.valueAt(frames(), 0.35);
  assert.equal(between.velocity, null);
  close(between.progress, 0.4, "progress is still read");
  close(r.valueAt(frames(), 0.3).velocity, 700, "at the last frame with the finger down");
});

test("times outside the replay read its ends; no frames read nothing", () => {
  close(r.valueAt(frames(), -1).time, 0, "before");
  close(r.valueAt(frames(), 9).progress, 0.7, "after");
  assert.equal(r.valueAt([], 0.1), null);
  assert.equal(r.valueAt(frames(), NaN), null);
});

test("the x axis reads the x components", () => {
  close(r.valueAt(frames(), 0.1, "x").translation, 1, "translation x");
  close(r.valueAt(frames(), 0.1, "x").velocity, 0, "velocity x");
});

test("a range gives the differences between its ends, in either order", () => {
  const a = r.rangeStats(frames(), 0.1, 0.3, "y");
  const b = r.rangeStats(frames(), 0.3, 0.1, "y");
  assert.deepEqual(a, b);
  close(a.from, 0.1, "from");
  close(a.to, 0.3, "to");
  close(a.dt, 0.2, "Δt");
  close(a.progress, 0.2, "Δprogress");
  close(a.drawn, 0.1, "Δdrawn");
  close(a.translation, 40, "Δtranslation");
  close(a.velocity, 800, "the mean of a straight velocity line is its middle");
});

test("the mean velocity covers only where the finger is down, and is null where it never is", () => {
  const r1 = r.rangeStats(frames(), 0.2, 0.5, "y");
  close(r1.velocity, 750, "the mean of 800 → 700 over 0.2 … 0.3 s");
  assert.equal(r1.translation, null, "the finger is up at one end");
  assert.equal(r.rangeStats(frames(), 0.4, 0.5).velocity, null);
  const narrow = r.rangeStats(frames(), 0.12, 0.14, "y");
  close(narrow.velocity, 870, "a range inside one frame: the segment's middle");
});

test("the mean velocity weights each frame by its time (not by the count of frames)", () => {
  // 0 … 0.1 at 1000, then a jump to 0 held until 0.3: mean (0.1·1000 + 0.1·500 + 0.1·0)/0.3.
  const fs = [
    { time: 0, phase: "interactive", progress: 0, rendered_progress: 0, gesture: { translation: { x: 0, y: 0 }, velocity: { x: 0, y: 1000 } } },
    { time: 0.1, phase: "interactive", progress: 0, rendered_progress: 0, gesture: { translation: { x: 0, y: 0 }, velocity: { x: 0, y: 1000 } } },
    { time: 0.2, phase: "interactive", progress: 0, rendered_progress: 0, gesture: { translation: { x: 0, y: 0 }, velocity: { x: 0, y: 0 } } },
    { time: 0.3, phase: "interactive", progress: 0, rendered_progress: 0, gesture: { translation: { x: 0, y: 0 }, velocity: { x: 0, y: 0 } } },
  ];
  close(r.rangeStats(fs, 0, 0.3, "y").velocity, 500, "mean");
});

test("the golden series: every point reads back its own values", () => {
  const message = JSON.parse(fixture("server", "series"));
  const series = new FrameSeries();
  series.addWhole(message.series);
  for (const p of message.series.points) {
    const v = r.valueAt(series.frames, p.time, "y");
    close(v.progress, p.progress, `progress at ${p.time}`);
    close(v.drawn, p.rendered_progress, `drawn at ${p.time}`);
    if (p.translation && p.phase === "interactive") close(v.velocity, p.velocity.y, `velocity at ${p.time}`);
  }
});

test("the readout's rows name each value with its unit, and say when the finger is lifted", () => {
  const rows = r.valueRows(r.valueAt(frames(), 0.2, "y"));
  assert.deepEqual(rows.map((x) => x.key), ["time", "phase", "progress", "drawn", "translation", "velocity"]);
  assert.deepEqual(rows.map((x) => x.text), ["0.200 s", "interactive", "0.2", "0.1", "40 pt", "800 pt/s"]);
  assert.equal(rows.find((x) => x.key === "velocity").label, "velocity y");
  const lifted = r.valueRows(r.valueAt(frames(), 0.45, "y"));
  assert.equal(lifted.find((x) => x.key === "velocity").text, "lifted");
  assert.equal(lifted.find((x) => x.key === "velocity").value, null);
  assert.deepEqual(r.valueRows(null), []);
});

test("the range's rows sign their differences", () => {
  const rows = r.rangeRows(r.rangeStats(frames(), 0.1, 0.3, "y"), "y");
  assert.deepEqual(rows.map((x) => x.text), ["0.100 → 0.300 s", "0.2 s", "+0.2", "+0.1", "+40 pt", "800 pt/s"]);
  const back = r.rangeRows(r.rangeStats(frames(), 0.4, 0.5, "y"), "y");
  assert.equal(back.find((x) => x.key === "translation").text, "–");
  assert.equal(back.find((x) => x.key === "velocity").text, "–");
  const falling = r.rangeRows({ from: 0, to: 1, dt: 1, progress: -0.25, drawn: 0, translation: null, velocity: 1500 });
  assert.deepEqual(falling.slice(2, 4).map((x) => x.text), ["−0.25", "±0"]);
  assert.equal(falling.at(-1).text, "1.5k pt/s");
});

test("keys move the cursor a frame at a time, ten with Page keys, to the ends with Home and End", () => {
  const view = { fps: 60, from: 0, to: 1 };
  close(r.cursorKey("ArrowRight", 0.5, view), 0.5 + 1 / 60, "right");
  close(r.cursorKey("ArrowLeft", 0.5, view), 0.5 - 1 / 60, "left");
  close(r.cursorKey("PageUp", 0.5, view), 0.5 + 10 / 60, "page up");
  close(r.cursorKey("PageDown", 0.5, view), 0.5 - 10 / 60, "page down");
  assert.equal(r.cursorKey("Home", 0.5, view), 0);
  assert.equal(r.cursorKey("End", 0.5, view), 1);
  assert.equal(r.cursorKey("ArrowLeft", 0, view), 0, "clamped to the view");
  assert.equal(r.cursorKey("x", 0.5, view), null);
});
