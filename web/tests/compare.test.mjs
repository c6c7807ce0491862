import { test } from "node:test";
import assert from "node:assert/strict";
import * as c from "../compare.mjs";
import { fixture } from "./fixtures.mjs";

const playback = { recording: "r.pantrace", preset: "swipe-dismiss", parameters: { threshold: 0.3 }, load: 4 };

test("defaults compares the preset playing without overrides; a preset name compares that preset", () => {
  assert.deepEqual(c.compareMessage("defaults", playback), { type: "compare", recording: "r.pantrace", preset: "swipe-dismiss", parameters: {} });
  assert.deepEqual(c.compareMessage("swipe-back", playback), { type: "compare", recording: "r.pantrace", preset: "swipe-back", parameters: {} });
  assert.equal(c.compareMessage("", playback), null);
  assert.equal(c.compareMessage("defaults", null), null);
});

test("a comparison fits only the recording and the choice it was made for", () => {
  const made = { recording: "r.pantrace", preset: "swipe-dismiss", parameters: {} };
  assert.ok(c.comparisonFits(made, "defaults", playback));
  assert.ok(!c.comparisonFits(made, "swipe-back", playback));
  assert.ok(!c.comparisonFits(made, "defaults", { ...playback, recording: "other" }));
  assert.ok(!c.comparisonFits({ ...made, parameters: { threshold: 0.3 } }, "defaults", playback));
  assert.ok(!c.comparisonFits(null, "defaults", playback));
});

test("the compare box names each setting with its decision, margin and settle time", () => {
  assert.equal(c.settingName("swipe-dismiss", {}), "swipe-dismiss · defaults");
  assert.equal(c.settingName("swipe-dismiss", { velocity: "lsq2", threshold: 0.30001 }), "swipe-dismiss · threshold 0.3, velocity lsq2");
  const summary = { decision: "finish", margin: 0.12345, margin_unit: "progress", settle_s: 0.876 };
  assert.equal(c.comparisonLine("A", summary), "A: FINISH by 0.123 progress, settles 0.88 s after release");
  const playing = { preset: "best", parameters: {} };
  assert.ok(c.comparesWithItself({ preset: "best", parameters: {} }, playing));
  assert.ok(!c.comparesWithItself({ preset: "best", parameters: {} }, { preset: "best", parameters: { threshold: 0.4 } }));
  assert.ok(!c.comparesWithItself({ preset: "swipe-back", parameters: {} }, playing));
  assert.equal(c.comparisonLine("B", null), "B: –");
});

test("the chart gets the comparison's frames from its series", () => {
  const message = JSON.parse(fixture("server", "series"));
  const chart = c.comparisonChart(message);
  assert.equal(chart.frames.length, message.series.points.length);
  assert.equal(chart.markers.settle, message.series.settle);
  assert.equal(chart.summary.decision, message.summary.decision);
  assert.equal(c.comparisonChart(null), null);
});

test("the menu offers the defaults and every other preset", () => {
  const choices = c.compareChoices([{ name: "a" }, { name: "b" }], "a");
  assert.deepEqual(choices.map((x) => x.value), ["", "defaults", "b"]);
});

/** A progress curve at 60 Hz over 0 … 0.5 s, `shift` added from `from` on. */
function curve(shift = 0, from = 0, end = 0.5) {
  const out = [];
  for (let i = 0; i <= Math.round(end * 60); i++) {
    const time = i / 60;
    const progress = Math.min(1, time * 2) + (time >= from ? shift : 0);
    out.push({ time, phase: "interactive", progress, rendered_progress: progress });
  }
  return out;
}

test("two curves coincide when they differ by less than the epsilon everywhere they overlap", () => {
  const eps = c.SAME_CURVE_EPSILON;
  assert.ok(c.sameCurve(curve(), curve()), "the very same curve");
  assert.ok(c.sameCurve(curve(), curve(eps * 0.9)), "just under the epsilon");
  assert.ok(!c.sameCurve(curve(), curve(eps * 1.1)), "just over the epsilon");
  assert.ok(!c.sameCurve(curve(), curve(eps * 1.1, 0.4)), "apart over the last tenth of a second only");
  assert.ok(!c.sameCurve(curve(), curve(-eps * 1.1)), "below as well as above");
});

test("only the overlap counts, and each curve is read between its own frames", () => {
  assert.ok(c.sameCurve(curve(), curve(0, 0, 0.9)), "one settles later, on the same path");
  const d = c.curveDifference(curve(), curve(0, 0, 0.9));
  assert.equal(d.to, 0.5);
  // The same straight line sampled at other times coincides.
  const line = curve(0, 0, 0.4);
  const offset = line.map((f) => ({ ...f, time: f.time + 1 / 120, progress: (f.time + 1 / 120) * 2 }));
  assert.ok(c.sameCurve(line, offset));
  assert.equal(c.curveDifference([], curve()), null);
  assert.equal(c.curveDifference(curve(0, 0, 0.2), curve().map((f) => ({ ...f, time: f.time + 1 }))), null, "no overlap");
  assert.ok(!c.sameCurve([], curve()));
});

test("the compare box says so when the curves coincide", () => {
  assert.match(c.sameCurveText(true), /^same curve/);
  assert.equal(c.sameCurveText(false), "");
});

test("the chart's comparison carries its release and both settings' names", () => {
  const message = JSON.parse(fixture("server", "series"));
  const chart = c.comparisonChart({ ...message, preset: "best", parameters: {} }, { preset: "best", parameters: { threshold: 0.9 } });
  assert.equal(chart.release.decision.threshold, message.series.release_report.decision.threshold);
  assert.equal(chart.name, "best · defaults");
  assert.equal(chart.playingName, "best · threshold 0.9");
});

test("a comparison with no preset of that name is said, not left computing", () => {
  const presets = [{ name: "best" }, { name: "swipe-dismiss" }];
  assert.equal(c.compareProblem("defaults", presets), null);
  assert.equal(c.compareProblem("best", presets), null);
  assert.equal(c.compareProblem(null, presets), null);
  assert.equal(c.compareProblem("nonsense", []), null, "not before the presets are known");
  assert.match(c.compareProblem("nonsense", presets), /no preset is called "nonsense"/);
});
