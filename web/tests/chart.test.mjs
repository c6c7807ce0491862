import { test } from "node:test";
import assert from "node:assert/strict";
import * as c from "../chart.mjs";
import { decodeServerMessage } from "../protocol.mjs";
import { fixture } from "./fixtures.mjs";

test("a linear scale maps and inverts, and a flat domain maps to the middle", () => {
  const s = c.linearScale([0, 2], [10, 110]);
  assert.equal(s(1), 60);
  assert.equal(s.invert(60), 1);
  assert.equal(c.linearScale([1, 1], [0, 10])(1), 5);
  const flipped = c.linearScale([0, 1], [100, 0]);
  assert.equal(flipped(0.25), 75);
});

test("nice ticks step by 1, 2 or 5 times a power of ten and cover the range", () => {
  assert.deepEqual(c.niceTicks(0, 1, 5), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(c.niceTicks(0, 1.1, 4), [0, 0.5, 1]);
  assert.deepEqual(c.niceTicks(-3000, 3100, 4), [-2000, 0, 2000]);
  assert.deepEqual(c.niceTicks(0.3, 0.3), [0.3]);
  assert.deepEqual(c.niceTicks(NaN, 1), []);
});

test("frames are kept once per time, in order, and the release is remembered", () => {
  const series = new c.FrameSeries();
  const f = decodeServerMessage(fixture("server", "frame")).frame;
  const r = decodeServerMessage(fixture("server", "frame-release")).frame;
  series.add(r);
  series.add(f);
  series.add(f);
  assert.equal(series.size, 2);
  assert.deepEqual(series.frames.map((x) => x.time), [f.time, r.time]);
  assert.equal(series.release.decision.threshold, 0.5);
});

function frames() {
  const out = [];
  for (let i = 0; i <= 30; i++) {
    const time = i / 60;
    const released = time > 0.25;
    out.push({
      time, phase: released ? "completing" : "interactive",
      progress: released ? 0.4 - (time - 0.25) : time * 1.6, rendered_progress: released ? 0.4 - (time - 0.25) : time * 1.6,
      layers: [], gesture: { time, phase: "changed", translation: { x: 0, y: time * 300 }, velocity: { x: 10, y: 1200 - time * 800 } },
    });
  }
  return out;
}

test("the chart places the threshold, the release and the projected landing on the progress scale", () => {
  const release = { decision: { basis: "projection", statistic: 1.3, threshold: 0.5, outcome: "finish" } };
  const m = c.chartModel({ frames: frames(), playback: { start: 0, end: 0.5, release: 0.25 }, release, width: 600, height: 200, time: 0.1 });
  assert.equal(m.axis, "y");
  assert.equal(m.x(0), m.pad.left);
  assert.equal(m.x(0.5), 600 - m.pad.right);
  assert.equal(m.releaseX, m.x(0.25));
  assert.equal(m.threshold.unit, "progress");
  assert.equal(m.threshold.y, m.yP(0.5));
  assert.ok(m.yP.domain[1] >= 1.3, "the landing point is inside the progress scale");
  assert.equal(m.landing.y, m.yP(1.3));
  assert.equal(m.landing.fromY, m.yP(frames()[15].progress));
  assert.equal(m.playheadX, m.x(0.1));
  assert.match(m.progressPath, /^M40 /);
  assert.ok(m.completionPath.startsWith("M"), "the completion curve is drawn");
  assert.equal(m.renderedPath, "", "rendered progress equal to progress is not drawn twice");
  assert.ok(m.velocityPath.split("L").length > 10);
  assert.ok(m.xTicks.every((t) => t.x >= m.pad.left && t.x <= 600 - m.pad.right));
});

test("a velocity rule's threshold is drawn on the velocity scale, with no landing point", () => {
  const release = { decision: { basis: "velocity", statistic: 900, threshold: 0, outcome: "finish" } };
  const m = c.chartModel({ frames: frames(), playback: { start: 0, end: 0.5, release: 0.25 }, release, width: 600, height: 200 });
  assert.equal(m.threshold.unit, "pt/s");
  assert.equal(m.threshold.y, m.yV(0));
  assert.equal(m.landing, null);
  assert.equal(m.playheadX, null);
});

test("before the release frame arrives the parameters' threshold is shown", () => {
  const m = c.chartModel({ frames: [], playback: { start: 0, end: 1, release: 0.3 }, threshold: 0.4, width: 300, height: 100 });
  assert.equal(m.threshold.value, 0.4);
  assert.equal(m.progressPath, "");
  assert.equal(c.velocityLabel(1250), "1.3k");
  assert.equal(c.velocityLabel(-40), "-40");
  assert.equal(c.velocityLabel(0.5), "0.5");
  assert.equal(c.timeLabel(0.25), "0.25s");
});

test("the threshold, release and landing labels", () => {
  assert.equal(c.thresholdLabel({ value: 0.5, unit: "progress" }), "θ 0.5");
  assert.equal(c.thresholdLabel({ value: 312.3456, unit: "pt/s" }), "θ 312.346 pt/s");
  assert.equal(c.releaseLabel(null), "release");
  assert.equal(c.releaseLabel({ decision: "finish", margin: 0.79812 }), "release · finish by 0.798");
  assert.equal(c.releaseLabel({ decision: "cancel" }), "release · cancel");
  assert.equal(c.landingLabel(1.3049), "projected 1.3");
});

test("zoom keeps the time under the cursor, never narrower than five frames nor wider than the replay", async () => {
  const { zoomView, panView, fitView, chartModel, timeAt, legendKeys } = await import("../chart.mjs");
  const playback = { start: 0, end: 2, fps: 60 };
  const whole = fitView(playback);
  assert.deepEqual(whole, { from: 0, to: 2 });
  const zoomed = zoomView(whole, 0.5, 2, playback);
  assert.ok(Math.abs(zoomed.to - zoomed.from - 1) < 1e-12);
  assert.ok(Math.abs((0.5 - zoomed.from) / (zoomed.to - zoomed.from) - 0.25) < 1e-12, "0.5 s stays a quarter of the way across");
  const deep = zoomView(whole, 1, 1e6, playback);
  assert.ok(Math.abs(deep.to - deep.from - 5 / 60) < 1e-12, "five frames at the narrowest");
  assert.deepEqual(zoomView(zoomed, 1, 0.01, playback), whole, "zooming out stops at the whole replay");
  const panned = panView(zoomed, 10, playback);
  assert.equal(panned.to, 2, "panning stops at the end");
  assert.equal(panView(zoomed, -10, playback).from, 0, "and at the start");
  // The chart maps pixels to the view's times, and hides what falls outside it.
  const frames = [0, 0.5, 1, 1.5, 2].map((t) => ({ time: t, phase: t < 1 ? "interactive" : "completing", progress: t / 2, rendered_progress: t / 2 }));
  const model = chartModel({ frames, playback: { ...playback, release: 1 }, width: 500, height: 200, view: { from: 1, to: 2 }, markers: { touchDown: 0, release: 1, settle: 2 } });
  assert.equal(timeAt(model, model.pad.left), 1);
  assert.equal(timeAt(model, 0), 1, "clamped to the view");
  assert.deepEqual(model.markers.map((m) => m.label), ["release", "settle"], "touch-down is outside the view");
  assert.equal(model.zoomed, true);
  assert.deepEqual(legendKeys(model), ["progress", "completion", "velocity"]);
});

test("the legend lists projected only for a projection and compare only with a comparison", async () => {
  const { chartModel, legendKeys } = await import("../chart.mjs");
  const frames = [{ time: 0, phase: "interactive", progress: 0.2, rendered_progress: 0.2 }, { time: 0.2, phase: "completing", progress: 0.4, rendered_progress: 0.4 }];
  const playback = { start: 0, end: 0.5, release: 0.1, fps: 60 };
  const projection = { decision: { outcome: "finish", basis: "projection", statistic: 0.9, threshold: 0.5 } };
  const withProjection = chartModel({ frames, playback, release: projection, width: 400, height: 200 });
  assert.ok(legendKeys(withProjection).includes("projected"));
  const plain = chartModel({ frames, playback, release: { decision: { ...projection.decision, basis: "progress" } }, width: 400, height: 200 });
  assert.ok(!legendKeys(plain).includes("projected"));
  assert.ok(legendKeys(plain).includes("threshold"));
  const compared = chartModel({ frames, playback, width: 400, height: 200, comparison: { frames, markers: { settle: 0.4 } } });
  assert.ok(legendKeys(compared).includes("compare"));
  assert.ok(compared.comparison.completionPath.startsWith("M"));
});

test("comparing draws both thresholds, each labelled with its value and its setting", () => {
  const release = { decision: { basis: "progress", statistic: 0.4, threshold: 0.9, outcome: "cancel" } };
  const comparison = { frames: frames(), markers: { settle: 0.5 }, summary: { decision: "finish" }, release: { decision: { basis: "progress", threshold: 0.5 } },
    name: "best · defaults", playingName: "best · threshold 0.9" };
  const m = c.chartModel({ frames: frames(), playback: { start: 0, end: 0.5, release: 0.25 }, release, width: 800, height: 200, comparison });
  assert.deepEqual(m.thresholdMarks.map((t) => [t.which, t.value, t.label]), [
    ["a", 0.9, "θ 0.9 · A best · threshold 0.9"],
    ["b", 0.5, "θ 0.5 · B best · defaults"],
  ]);
  assert.equal(m.thresholdMarks[1].y, m.yP(0.5));
  assert.ok(c.legendKeys(m).includes("compare-threshold"));
  // A narrow chart keeps the value and the letter.
  const narrow = c.chartModel({ frames: frames(), playback: { start: 0, end: 0.5, release: 0.25 }, release, width: 240, height: 200, comparison });
  assert.deepEqual(narrow.thresholdMarks.map((t) => t.label), ["θ 0.9 · A", "θ 0.5 · B"]);
});

test("two equal thresholds are one line labelled for both; close ones keep their labels apart", () => {
  const release = { decision: { basis: "progress", statistic: 0.4, threshold: 0.5, outcome: "cancel" } };
  const comparison = (threshold) => ({ frames: frames(), markers: {}, summary: { decision: "cancel" }, release: { decision: { basis: "progress", threshold } } });
  const same = c.chartModel({ frames: frames(), playback: { start: 0, end: 0.5 }, release, width: 800, height: 200, comparison: comparison(0.5) });
  assert.deepEqual(same.thresholdMarks.map((t) => t.which), ["both"]);
  assert.match(same.thresholdMarks[0].label, /A and B/);
  assert.ok(!c.legendKeys(same).includes("compare-threshold"));
  const close = c.chartModel({ frames: frames(), playback: { start: 0, end: 0.5 }, release, width: 800, height: 200, comparison: comparison(0.52) });
  const [a, b] = close.thresholdMarks;
  assert.ok(b.y < a.y && !b.below && a.below, "the upper line's label above it, the lower's below");
  const velocity = c.chartModel({ frames: frames(), playback: { start: 0, end: 0.5 }, release, width: 800, height: 200,
    comparison: { ...comparison(0), release: { decision: { basis: "velocity", threshold: 300 } } } });
  assert.equal(velocity.thresholdMarks[1].unit, "pt/s");
  assert.equal(velocity.thresholdMarks[1].y, velocity.yV(300));
});

test("each legend key is drawn with the classes of its line on the chart", () => {
  const drawn = new Set(Object.values(c.STROKES));
  for (const key of ["progress", "completion", "drawn", "velocity", "threshold", "compare-threshold", "projected", "compare"]) {
    const swatch = c.legendSwatch(key);
    assert.ok(swatch.length > 0, key);
    for (const part of swatch) assert.ok(drawn.has(part.class), `${key}: ${part.class} is not a class the chart draws with`);
  }
  const model = { comparison: { outcome: "finish" } };
  assert.deepEqual(c.legendSwatch("compare", model).map((p) => p.class), ["series compare-progress", "series compare-completion finish"]);
  assert.equal(c.legendSwatch("threshold")[0].class, c.STROKES.threshold);
  assert.notEqual(c.STROKES.threshold, c.STROKES.comparedThreshold);
});
