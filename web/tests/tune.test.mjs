import { test } from "node:test";
import assert from "node:assert/strict";
import * as t from "../tune.mjs";

const number = (over) => ({ key: "k", kind: "number", min: 0, max: 10, defaultValue: 4, ...over });

test("default axes: a choice's values, progress from 0.2 to 0.8, otherwise around the default", () => {
  assert.deepEqual(t.defaultAxis({ kind: "choice", choices: ["a", "b"] }), { values: "a,b" });
  assert.deepEqual(t.defaultAxis(number({ min: 0, max: 1, defaultValue: 0.5 })), { from: 0.2, to: 0.8, step: 0.05 });
  assert.deepEqual(t.defaultAxis(number({})), { from: 2, to: 6, step: 0.4 });
  assert.deepEqual(t.defaultAxis(number({ defaultValue: 0 })), { from: 0, to: 0, step: 1 });
  const specs = [{ key: "c", kind: "choice" }, number({ key: "n" })];
  assert.equal(t.defaultAxisKey(specs, 0), "n");
  assert.equal(t.defaultAxisKey(specs, 1), "");
  assert.equal(t.defaultAxisKey([{ key: "c", kind: "choice" }], 0), "c");
  // The threshold wins over numbers listed before it (the drag's travel, say).
  assert.equal(t.defaultAxisKey([{ key: "travel", kind: "number" }, { key: "threshold", kind: "number" }], 0), "threshold");
});

test("the grid is read from the axis rows; a row without a parameter is left out", () => {
  assert.deepEqual(t.sweepGrid([
    { key: "threshold", values: null, from: "0.2", to: "0.8", step: "0.05" },
    { key: "velocity", values: " recorded, lsq2 ,," },
    { key: "", values: null },
  ]), ["threshold=0.2:0.8:0.05", "velocity=recorded,lsq2"]);
  assert.deepEqual(t.sweepRecordings(["a", "b"], 2), []);
  assert.deepEqual(t.sweepRecordings(["a"], 2), ["a"]);
  assert.equal(t.recordingsSummary(3, 3), "recordings: all 3 labelled");
  assert.equal(t.recordingsSummary(1, 3), "recordings: 1 of 3");
});

const report = {
  traces: { tuned: 10 },
  grid: { points: 2, axes: [{ key: "threshold", values: [0.3, 0.5] }], results: [] },
  best: { point: 1, values: { threshold: 0.5 }, correct: 9, traces: 10 },
  defaults: { correct: 8, traces: 10 },
  misjudged: [{ file: "/x/recordings/real/a.pantrace" }],
};

test("the report's texts: status, best, a cell's tooltip, a table row", () => {
  assert.equal(t.sweepStatus(report), "10 recordings × 2 points");
  assert.equal(t.sweepStatus({}), "? recordings × ? points");
  assert.equal(
    t.sweepStatus({ ...report, excluded: { off_axis: 3, no_progress: 1, wrong_way: 0, not_fitting: [] } }),
    "10 recordings × 2 points; left out, not driving the preset: 3 moving along the other axis, 1 never reaching progress 0.05");
  assert.equal(t.bestText(report), "best threshold=0.5: 9/10 (defaults 8/10)");
  assert.equal(t.bestText({ ...report, defaults: undefined }), "best threshold=0.5: 9/10");
  assert.equal(t.bestText({}), "");
  const result = { point: 0, values: { threshold: 0.3, velocity: "lsq2" }, correct: 6, traces: 10, accuracy: 0.6, false_finishes: 1, min_margin: 0.01234, mean_completion_s: 0.5 };
  assert.equal(t.cellTitle(result), "threshold=0.3, velocity=lsq2: 6/10 correct, 1 false finishes, 0 false cancels");
  assert.deepEqual(t.tableCells(result, report.grid.axes), ["0.3", "60%", "6/10", "1", "0", "0.012", "0.5"]);
  assert.equal(t.TABLE_HEADS.length, 6);
});

test("the heat map's height and how many column labels fit", () => {
  assert.equal(t.heatmapHeight([{ values: [1, 2] }]), 100);
  assert.equal(t.heatmapHeight([{ values: [1] }, { values: [1, 2, 3] }]), 134);
  assert.equal(t.heatmapHeight([{ values: [1] }, { values: Array(40).fill(0) }]), 420);
  assert.equal(t.tickEvery(13, 600), 2);
  assert.equal(t.tickEvery(3, 600), 1);
});

test("the best point's candidates are what the report says it misjudges; another point's, exactly what the sweep scored", () => {
  const library = [
    { id: "real/a.pantrace", intent: "finish" }, { id: "real/b.pantrace", intent: "cancel" },
    { id: "edge/c.pantrace", intent: "finish" }, { id: "x/unlabelled.pantrace", intent: "unknown" }, { id: "x/broken.pantrace", intent: "finish" },
  ];
  const tune = {
    recordings: library.map((r) => r.id),
    report: {
      ...report,
      excluded: {
        not_fitting: [{ file: "edge/c.pantrace", verdict: "off_axis", reason: "moves along the other axis: peak progress 0.01" }],
        unreadable: [{ file: "/abs/path/x/broken.pantrace", reason: "bad CRC in chunk 1" }],
      },
    },
  };
  assert.deepEqual(t.misjudgedCandidates({ point: 1 }, tune, library), ["real/a.pantrace"]);
  assert.deepEqual(t.misjudgedCandidates({ point: 0 }, tune, library), ["real/a.pantrace", "real/b.pantrace"], "never one the sweep left out");
  assert.deepEqual(t.sweepExclusions(tune, library), [
    { id: "edge/c.pantrace", reason: "moves along the other axis: peak progress 0.01" },
    { id: "x/broken.pantrace", reason: "unreadable: bad CRC in chunk 1" },
    { id: "x/unlabelled.pantrace", reason: "not labelled finish or cancel" },
  ]);
  assert.deepEqual(t.scoredRecordings({ report: { excluded: {} } }, library), [], "an old server names no recordings: nothing is guessed");
});

test("the queue loads each candidate, plays a misjudged one to its end, and skips the others", () => {
  const q = new t.MisjudgedQueue({ values: { threshold: 0.3 }, preset: "best", candidates: ["a", "b"], loop: true });
  assert.deepEqual(q.advance(), { type: "load", recording: "a", preset: "best", parameters: { threshold: 0.3 } });
  assert.equal(q.progressText, "threshold=0.3 · 1/2 · misjudged so far 0 · a");
  assert.equal(q.onPlayback({ recording: "other", load: 5 }, null), null);
  assert.equal(q.onPlayback({ recording: "a", load: 5, playing: true }, { correct: false }), "misjudged");
  assert.equal(q.onPlayback({ recording: "a", load: 5, playing: true }, { correct: false }), null, "still playing");
  assert.equal(q.onPlayback({ recording: "a", load: 5, playing: false }, null), "next", "played to its end");
  q.advance();
  assert.equal(q.onPlayback({ recording: "b", load: 6, playing: true }, { correct: true }), "next", "judged right: skipped");
  assert.equal(q.advance(), null);
  assert.equal(q.doneText, "done: 1 misjudged of 2 at threshold=0.3");
  // It ended on b, judged right: the view goes back to a, the one the point gets wrong.
  assert.deepEqual(q.finalLoad("b"), { type: "load", recording: "a", preset: "best", parameters: { threshold: 0.3 } });
  assert.equal(q.finalLoad("a"), null, "already on a misjudged one");
  const none = new t.MisjudgedQueue({ values: {}, preset: "best", candidates: ["c"], loop: true });
  assert.equal(none.finalLoad("c"), null, "nothing misjudged: stay");
});

test("the findings: the report's notes, then a line per tag or source", () => {
  const lines = t.findingsLines({
    notes: ["accuracy 75.6% (31/41), 95% interval 59.7%–87.6%", "velocity changes no decision"],
    breakdown: [{ kind: "source", value: "import:csv", traces: 17, best_correct: 11, defaults_correct: 1,
      own_best: { values: { threshold: 0.2 }, correct: 14 } }],
  });
  assert.deepEqual(lines.map((l) => l.kind), ["note", "note", "breakdown"]);
  assert.equal(lines[2].text, "source import:csv: 11/17 at the best point (defaults 1/17); on its own, best threshold=0.2: 14/17");
  assert.deepEqual(t.findingsLines({}), []);
});

test("the Tune list's filter matches part of a path in any case, and everything when empty", () => {
  const ids = ["edge-back/a.pantrace", "sets/C.pantraces#synth-1", "live/x.pantrace"];
  assert.deepEqual(ids.filter(t.matchesFilter("")), ids);
  assert.deepEqual(ids.filter(t.matchesFilter("  c.pantraces ")), ["sets/C.pantraces#synth-1"]);
  assert.deepEqual(ids.filter(t.matchesFilter("LIVE/")), ["live/x.pantrace"]);
  assert.deepEqual(ids.filter(t.matchesFilter("nothing")), []);
});
