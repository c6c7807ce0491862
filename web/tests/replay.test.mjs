import { test } from "node:test";
import assert from "node:assert/strict";
import * as r from "../replay.mjs";

const playback = { recording: "a.pantrace", preset: "best", parameters: { threshold: 0.4 }, playing: false, speed: 1 };
const specs = [
  { key: "threshold", kind: "number", min: 0, max: 1, defaultValue: 0.5, unit: "progress" },
  { key: "velocity", kind: "choice", choices: ["recorded", "lsq2"], defaultValue: "recorded", unit: "" },
];

test("[ and ] step through the speeds and stop at the ends", () => {
  assert.equal(r.slowerSpeed(1), 0.5);
  assert.equal(r.fasterSpeed(1), 1.5);
  assert.equal(r.slowerSpeed(0.1), 0.1);
  assert.equal(r.fasterSpeed(4), 4);
  assert.equal(r.fasterSpeed(0.3), 0.5, "an odd speed goes to the next listed one");
  assert.equal(r.slowerSpeed(0.3), 0.25);
});

test("keys become player messages; others are not the player's", () => {
  assert.deepEqual(r.keyMessage(" ", playback), { type: "play" });
  assert.deepEqual(r.keyMessage(" ", { ...playback, playing: true }), { type: "pause" });
  assert.deepEqual(r.keyMessage("ArrowLeft", playback), { type: "step", frames: -1 });
  assert.deepEqual(r.keyMessage("ArrowRight", playback), { type: "step", frames: 1 });
  assert.deepEqual(r.keyMessage("[", playback), { type: "speed", value: 0.5 });
  assert.deepEqual(r.keyMessage("]", playback), { type: "speed", value: 1.5 });
  assert.equal(r.keyMessage("x", playback), null);
});

test("loading a recording keeps the parameters only under the same preset", () => {
  assert.deepEqual(r.loadMessage("b.pantrace", "best", playback).parameters, { threshold: 0.4 });
  assert.deepEqual(r.loadMessage("b.pantrace", "swipe-dismiss", playback).parameters, {});
  assert.deepEqual(r.loadMessage("b.pantrace", "best", null).parameters, {});
});

test("the recording menu groups by folder in library order", () => {
  const library = [{ id: "real/a" }, { id: "top" }, { id: "real/b" }, { id: "synthetic/x/c" }];
  assert.deepEqual(r.recordingGroups(library).map(([folder, list]) => [folder, list.map((e) => e.id)]),
    [["real", ["real/a", "real/b"]], [".", ["top"]], ["synthetic/x", ["synthetic/x/c"]]]);
  assert.equal(r.recordingLabel({ name: "a", intent: "finish", source: "synthetic" }), "a · finish · synthetic");
  // A corpus's gestures go under the corpus file, a "/" in a gesture's name notwithstanding.
  const corpus = [{ id: "sets/c.pantraces#g-0" }, { id: "sets/c.pantraces#live/g-1" }, { id: "sets/d.pantrace" }];
  assert.deepEqual(r.recordingGroups(corpus).map(([folder, list]) => [folder, list.map((e) => e.id)]),
    [["sets", ["sets/d.pantrace"]], ["sets/c.pantraces", ["sets/c.pantraces#g-0", "sets/c.pantraces#live/g-1"]]]);
  // Corpora go after the folders of recordings, whatever their names sort as.
  const mixed = [{ id: "a.pantraces#g-0" }, { id: "a.pantraces#g-1" }, { id: "edge/x" }, { id: "z.pantraces#g" }, { id: "top" }];
  assert.deepEqual(r.recordingGroups(mixed).map(([folder]) => folder), ["edge", ".", "a.pantraces", "z.pantraces"]);
});

test("while the library arrives, the page says how much of it is here", () => {
  assert.equal(r.libraryLoadingText(300, 1080), "loading library: 300 of 1,080");
  assert.equal(r.libraryLoadingText(1079, 1080), "loading library: 1,079 of 1,080");
  assert.equal(r.libraryLoadingText(1080, 1080), "");
  assert.equal(r.libraryLoadingText(0, 0), "");
});

test("the decision line says the outcome, its reason and margin, and whether it matches the intent", () => {
  assert.deepEqual(r.decisionText(null), { outcome: "", correct: "", headline: "–", reason: "", fitState: "", fit: "", drag: "" });
  const s = { decision: "finish", reason: "progress 0.7 > 0.5", margin: 0.2, margin_unit: "progress", correct: true, intent: "finish" };
  assert.deepEqual(r.decisionText(s), {
    outcome: "finish", correct: "true", headline: "finish", reason: "progress 0.7 > 0.5 · margin 0.2 progress · matches intent (finish)",
    fitState: "", fit: "", drag: "",
  });
  assert.equal(r.decisionText({ ...s, correct: false, intent: "cancel" }).reason, "progress 0.7 > 0.5 · margin 0.2 progress · meant cancel");
  assert.equal(r.decisionText({ decision: "cancel" }).reason, "");
});

test("the timeline's threshold is the loaded one, else the default, else none", () => {
  assert.equal(r.timelineThreshold(playback, specs), 0.4);
  assert.equal(r.timelineThreshold({ ...playback, parameters: {} }, specs), 0.5);
  assert.equal(r.timelineThreshold(null, []), null);
});

test("slider values, labels and steps", () => {
  assert.deepEqual(r.parameterValues(specs, { threshold: 0.4 }), { threshold: 0.4, velocity: "recorded" });
  assert.equal(r.parameterText(0.12345, "progress"), "0.123");
  assert.equal(r.parameterText(2, "pt/s"), "2 pt/s");
  assert.equal(r.parameterText(2, ""), "2");
  assert.equal(r.sliderStep(specs[0]), 0.01, "a hundredth of 0…1: an arrow key moves a visible step");
  assert.equal(r.isChanged(0.5, specs[0]), false);
  assert.equal(r.isChanged(0.4, specs[0]), true);
});

test("the sliders are rebuilt for another preset or parameters, not for their own values", () => {
  const shown = { preset: "best", values: { threshold: 0.4, velocity: "recorded" }, specs };
  assert.equal(r.paramsOutdated(shown, playback), false);
  assert.equal(r.paramsOutdated({ ...shown, preset: "other" }, playback), true);
  assert.equal(r.paramsOutdated(shown, { ...playback, parameters: { threshold: 0.3 } }), true);
});

test("a reload keeps the playhead and pauses unless playing", () => {
  assert.deepEqual(r.reloadMessages(playback, { threshold: 0.3 }, 0.25).map((m) => m.type), ["load", "seek", "pause"]);
  assert.deepEqual(r.reloadMessages({ ...playback, playing: true }, {}, 0.25).map((m) => m.type), ["load", "seek"]);
  assert.deepEqual(r.reloadMessages(playback, { threshold: 0.3 }, 0.25)[0], { type: "load", recording: "a.pantrace", preset: "best", parameters: { threshold: 0.3 } });
});

test("the decision says which drag drives the preset and when the recording does not fit it", () => {
  const fits = r.decisionText({ decision: "finish", reason: "x", fit: "fits", drag: "drag down (+y) over 0.5·H" });
  assert.equal(fits.fit, "");
  assert.equal(fits.fitState, "fits");
  assert.equal(fits.drag, "driven by a drag down (+y) over 0.5·H");
  const off = r.decisionText({
    decision: "cancel", reason: "x", fit: "off_axis", suggested_direction: "down",
    fit_note: "does not fit: it moves mostly across the preset's axis, 1 pt along x and 275 pt across",
  });
  assert.equal(off.fitState, "off_axis");
  assert.equal(off.fit, "This recording does not drive the preset: it moves mostly across the preset's axis, 1 pt along x and 275 pt across (try direction = down)");
  assert.equal(r.decisionText(null).fit, "");
});

test("while recording, the decision box never shows a decision, only what a lift now would decide", async () => {
  const { liveDecisionText } = await import("../replay.mjs");
  assert.equal(liveDecisionText({ state: "armed" }).headline, "armed");
  assert.equal(liveDecisionText({ state: "capturing", samples: 3 }).headline, "tracking");
  const text = liveDecisionText({ state: "capturing", samples: 9, if_released: { decision: "finish", reason: "progress 0.62 ≥ 0.5 → finish", margin: 0.1234 } });
  assert.equal(text.headline, "would finish if released now");
  assert.equal(text.outcome, "pending");
  assert.equal(text.reason, "progress 0.62 ≥ 0.5 → finish · margin 0.123");
});

test("while recording, the timeline spans the gesture so far", async () => {
  const { liveChartInput } = await import("../replay.mjs");
  const frames = [{ time: 2 }, { time: 2.1 }, { time: 2.3 }];
  const input = liveChartInput(frames);
  assert.equal(input.playback.start, 2);
  assert.equal(input.playback.end, 2.5, "at least half a second wide");
  assert.equal(input.time, 2.3);
  assert.deepEqual(input.markers, { touchDown: 2 });
  assert.equal(liveChartInput([]).markers, null);
});

test("slider steps are nice, a wide range is logarithmic, and labels round as the reason does", () => {
  const progress = { key: "threshold", kind: "number", min: 0, max: 1, defaultValue: 0.5 };
  const speed = { key: "velocityThreshold", kind: "number", min: 0, max: 3000, defaultValue: 300 };
  const travel = { key: "travel", kind: "number", min: 0.01, max: 10000, defaultValue: 0.5 };
  assert.equal(r.sliderScale(progress).step, 0.01);
  assert.equal(r.sliderScale(progress).digits, 2);
  assert.equal(r.sliderScale(progress).toValue(0.45000000001), 0.45);
  assert.equal(r.parameterText(0.45, "progress", 2), "0.45");
  assert.equal(r.sliderScale(speed).step, 50);
  assert.equal(r.parameterText(r.sliderScale(speed).toValue(350), "pt/s", r.sliderScale(speed).digits), "350 pt/s");
  const log = r.sliderScale(travel);
  assert.equal(log.log, true);
  assert.equal(log.toValue(log.toSlider(0.5)), 0.5, "the default is reachable");
  assert.equal(log.toValue(log.toSlider(0.5) + log.step), 0.512);
  assert.equal(log.toValue(log.max), 10000);
  assert.equal(r.isChanged(0.5 + 1e-12, progress), false);
  assert.equal(r.isChanged(0.51, progress), true);
});

test("a long recording name is cut in the middle, keeping the end that tells it apart", async () => {
  const { middleEllipsis } = await import("../format.mjs");
  const a = "android-sailfish-SailfishFlingDownFast1-1";
  const b = "android-sailfish-SailfishFlingDownFast2-1";
  assert.notEqual(middleEllipsis(a), middleEllipsis(b));
  assert.equal(middleEllipsis(a).length, 34);
  assert.ok(middleEllipsis(a).endsWith("FlingDownFast1-1"));
  assert.equal(middleEllipsis("short"), "short");
  assert.ok(r.recordingLabel({ name: a, intent: "finish", source: "import:csv" }).includes("DownFast1-1 · finish"));
});

test("a live gesture is decided with this page's own setting, not the recorder's", async () => {
  const { liveDecisionText, liveReleaseText } = await import("../replay.mjs");
  const recorder = { state: "capturing", samples: 9, page: 1, if_released: { decision: "finish", reason: "progress 0.4 ≥ 0.27", margin: 0.13 } };
  // This page's own frame says what its own θ would decide; the recorder's status is not read.
  const own = liveDecisionText(recorder, { if_released: { decision: "cancel", reason: "progress 0.4 < 0.7", margin: -0.3 } }, false);
  assert.equal(own.headline, "would cancel if released now");
  assert.equal(own.reason, "progress 0.4 < 0.7 · margin -0.3");
  // Before this page's first frame: nothing borrowed from another page's setting.
  assert.equal(liveDecisionText(recorder, null, false).headline, "tracking");
  // The recording page itself may read its status until its first frame comes.
  assert.equal(liveDecisionText(recorder, null, true).headline, "would finish if released now");
  // A watched device's gesture: the frame's reading, whatever the pad does.
  assert.equal(liveDecisionText(null, { if_released: { decision: "finish", reason: "r", margin: 0.5 } }).headline, "would finish if released now");
  const released = liveReleaseText({ decision: { outcome: "cancel" }, reason: "progress 0.4 < 0.7", margin: -0.3 });
  assert.equal(released.headline, "cancel");
  assert.equal(released.outcome, "cancel");
  assert.equal(released.reason, "progress 0.4 < 0.7 · margin -0.3");
});

test("an export's title names the recording, the preset, the setting and the comparison", () => {
  assert.equal(r.exportTitle(null), "");
  assert.equal(r.exportTitle({ recording: "a/b.pantrace", preset: "swipe-dismiss", parameters: {} }), "a/b.pantrace · swipe-dismiss (defaults)");
  assert.equal(r.exportTitle({ recording: "a/b.pantrace", preset: "best", parameters: { threshold: 0.41234567, velocity: "lsq2" } }, "defaults"),
    "a/b.pantrace · best (threshold = 0.4123, velocity = lsq2) · compared with defaults");
});

test("travel is said in the unit travelUnit names, not as 'travelUnit'", () => {
  const travel = { key: "travel", unit: "travelUnit" };
  assert.equal(r.parameterUnit(travel, { travelUnit: "width" }), "× width");
  assert.equal(r.parameterUnit(travel, { travelUnit: "height" }), "× height");
  assert.equal(r.parameterUnit(travel, { travelUnit: "points" }), "pt");
  assert.equal(r.parameterUnit({ key: "threshold", unit: "progress" }, {}), "progress");
  assert.equal(r.parameterText(1, r.parameterUnit(travel, { travelUnit: "width" })), "1 × width");
});

test("the preset's summary says when the view's setting differs from the defaults it states", () => {
  const preset = { summary: "finish when progress > θ = 0.5" };
  assert.equal(r.presetSummaryText(preset, {}), "finish when progress > θ = 0.5");
  assert.equal(r.presetSummaryText(preset, { threshold: 0.42 }), "finish when progress > θ = 0.5 (the preset's defaults; this view sets threshold = 0.42)");
  assert.equal(r.presetSummaryText(null, { threshold: 0.42 }), "");
});
