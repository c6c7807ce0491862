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
