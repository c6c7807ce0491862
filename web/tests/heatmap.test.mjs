import { test } from "node:test";
import assert from "node:assert/strict";
import * as h from "../heatmap.mjs";

const result = (point, values, correct, min_margin = 0.1) => ({ point, values, traces: 10, correct, accuracy: correct / 10, min_margin });

const oneAxis = {
  grid: { axes: [{ key: "threshold", values: [0.3, 0.5, 0.7] }], points: 3,
    results: [result(0, { threshold: 0.3 }, 6), result(1, { threshold: 0.5 }, 9), result(2, { threshold: 0.7 }, 4)] },
  best: { point: 1, values: { threshold: 0.5 } },
  defaults: { values: { threshold: 0.7 } },
  misjudged: [{ file: "/tmp/x/recordings/real/a.pantrace" }, { file: "synthetic/b.pantrace" }, { file: "/elsewhere/c.pantrace" }],
};

test("one axis gives one row of cells, the best and the defaults marked", () => {
  const m = h.heatmapModel(oneAxis, { width: 324, height: 100 });
  assert.deepEqual(m.columns, [0.3, 0.5, 0.7]);
  assert.equal(m.cells.length, 3);
  assert.deepEqual(m.cells.map((c) => c.label), ["60%", "90%", "40%"]);
  assert.deepEqual(m.cells.map((c) => c.isBest), [false, true, false]);
  assert.deepEqual(m.cells.map((c) => c.isDefault), [false, false, true]);
  assert.equal(m.cells[0].width, 100);
  assert.equal(m.cells[1].x, 116);
});

test("two axes put the second on rows, bottom up; a third is folded into its best", () => {
  const axes = [{ key: "threshold", values: [0.3, 0.5] }, { key: "velocity", values: ["recorded", "lsq2"] }, { key: "d", values: [1, 2] }];
  const results = [];
  let point = 0;
  for (const t of [0.3, 0.5]) for (const v of ["recorded", "lsq2"]) for (const d of [1, 2]) {
    results.push(result(point, { threshold: t, velocity: v, d }, (point * 7) % 10, d / 10));
    point += 1;
  }
  const m = h.heatmapModel({ grid: { axes, results }, best: { point: 1 }, defaults: { values: {} } }, { width: 200, height: 200 });
  assert.equal(m.cells.length, 4);
  const cell = (t, v) => m.cells.find((c) => c.result.values.threshold === t && c.result.values.velocity === v);
  // (0.3, recorded) holds points 0 (0 correct) and 1 (7 correct, best).
  assert.equal(cell(0.3, "recorded").result.point, 1);
  assert.equal(cell(0.3, "recorded").isBest, true);
  // (0.3, lsq2): points 2 (4) and 3 (1) → 2.
  assert.equal(cell(0.3, "lsq2").result.point, 2);
  assert.ok(cell(0.3, "lsq2").y < cell(0.3, "recorded").y, "the second row is above the first");
  assert.ok(m.cells.every((c) => !c.isDefault));
});

test("an empty report draws nothing; colours run from red to green", () => {
  assert.deepEqual(h.heatmapModel({}).cells, []);
  assert.equal(h.accuracyColour(0), "hsl(0 70% 42%)");
  assert.equal(h.accuracyColour(1), "hsl(130 70% 42%)");
  assert.equal(h.valueLabel(0.30000000000000004), "0.3");
  assert.equal(h.valueLabel("lsq2"), "lsq2");
});

test("table rows come best first; report files map back to library ids", () => {
  assert.deepEqual(h.tableRows(oneAxis).map((r) => r.point), [1, 0, 2]);
  assert.deepEqual(h.tableRows(oneAxis, 1).length, 1);
  const library = [{ id: "real/a.pantrace" }, { id: "synthetic/b.pantrace" }];
  assert.deepEqual(h.libraryIds(oneAxis.misjudged.map((m) => m.file), library), ["real/a.pantrace", "synthetic/b.pantrace"]);
});
