import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { AA, contrastRatio } from "../contrast.mjs";
import * as h from "../heatmap.mjs";

// The golden shared with Tests/PanTuneTests/TuningHeatMapTests.swift: a tune report
// (threshold × velocity × duration, scores chosen to exercise every tie-break) and the map both
// sides must draw from it, at the full size and binned into at most two cells per side.
const golden = new URL("./heatmap-golden/", import.meta.url);
const report = JSON.parse(readFileSync(new URL("report.json", golden), "utf8"));
const expected = JSON.parse(readFileSync(new URL("expected.json", golden), "utf8"));

/** What the golden compares: the map's labels, scale, marks and each cell's point, colour and label. */
const goldenMap = (m) => ({
  columns: m.columns, rows: m.rows, low: m.low, high: m.high, best: m.best, defaults: m.defaults,
  cells: m.cells.map(({ row, column, point, colour, label, isBest }) => ({ row, column, point, colour, label, isBest })),
});

test("the golden report gives the golden map, as the Swift SVG draws it", () => {
  assert.equal(expected.length, 2);
  for (const { maximumCells, map } of expected) {
    assert.deepEqual(goldenMap(h.heatmapCells(report, { maximumCells })), map, `at most ${maximumCells} cells`);
  }
});

test("the golden report is consistent: its best point ranks highest, its points match their values", () => {
  const results = report.grid.results;
  assert.deepEqual(h.tableRows(report, 1).map((r) => r.point), [report.best.point]);
  const axes = report.grid.axes;
  for (const r of results) {
    let remainder = r.point;
    for (let axis = axes.length - 1; axis >= 0; axis--) {
      assert.equal(r.values[axes[axis].key], axes[axis].values[remainder % axes[axis].values.length]);
      remainder = Math.floor(remainder / axes[axis].values.length);
    }
    assert.equal(r.accuracy, r.correct / r.traces);
  }
});

const result = (point, values, correct, min_margin = 0.1, mean_discontinuity_pt_s = 100) =>
  ({ point, values, traces: 10, correct, accuracy: correct / 10, min_margin, mean_discontinuity_pt_s });

const oneAxis = {
  grid: { axes: [{ key: "threshold", values: [0.3, 0.5, 0.7] }], points: 3,
    results: [result(0, { threshold: 0.3 }, 6), result(1, { threshold: 0.5 }, 9), result(2, { threshold: 0.7 }, 4)] },
  best: { point: 1, values: { threshold: 0.5 } },
  defaults: { values: { threshold: 0.7 } },
  misjudged: [{ file: "/tmp/x/recordings/real/a.pantrace" }, { file: "synthetic/b.pantrace" }, { file: "/elsewhere/c.pantrace" }],
};

test("one axis gives one row of cells, the best marked, the defaults on their cell", () => {
  const m = h.heatmapModel(oneAxis, { width: 372, height: 100 });
  assert.deepEqual(m.columns, ["0.3", "0.5", "0.7"]);
  assert.deepEqual(m.rows, [""]);
  assert.equal(m.cells.length, 3);
  assert.deepEqual(m.cells.map((c) => c.label), ["60%", "90%", "40%"]);
  assert.deepEqual(m.cells.map((c) => c.isBest), [false, true, false]);
  assert.deepEqual(m.defaults, { column: 2.5, row: 0.5 });
  assert.equal(m.cells[0].width, 100);
  assert.equal(m.cells[1].x, 116);
  assert.deepEqual([m.defaultsMark.x, m.defaultsMark.y], [266, 34]);
  assert.deepEqual([m.legend.high, m.legend.low], ["90%", "40%"]);
  assert.equal(m.legend.stops.length, h.LEGEND_STEPS);
  assert.equal(m.legend.stops.at(-1).fill, h.scaleColour(1));
});

test("two axes put the second on rows, bottom up; a third is folded into its best by the tuner's order", () => {
  const axes = [{ key: "threshold", values: [0.3, 0.5] }, { key: "velocity", values: ["recorded", "lsq2"] }, { key: "d", values: [1, 2] }];
  const results = [
    result(0, { threshold: 0.3, velocity: "recorded", d: 1 }, 7, 0.1), result(1, { threshold: 0.3, velocity: "recorded", d: 2 }, 7, 0.2),
    result(2, { threshold: 0.3, velocity: "lsq2", d: 1 }, 4, 0.1, 50), result(3, { threshold: 0.3, velocity: "lsq2", d: 2 }, 4, 0.1, 40),
    result(4, { threshold: 0.5, velocity: "recorded", d: 1 }, 9), result(5, { threshold: 0.5, velocity: "recorded", d: 2 }, 2),
    result(6, { threshold: 0.5, velocity: "lsq2", d: 1 }, 5), result(7, { threshold: 0.5, velocity: "lsq2", d: 2 }, 5),
  ];
  const m = h.heatmapModel({ grid: { axes, results }, best: { point: 4 }, defaults: { values: { threshold: 0.5, velocity: "lsq2", d: 9 } } },
    { width: 200, height: 200 });
  assert.deepEqual(m.cells.map((c) => [c.row, c.column, c.point]), [[0, 0, 1], [0, 1, 4], [1, 0, 3], [1, 1, 6]]);
  assert.ok(m.cells[2].y < m.cells[0].y, "the second row is above the first");
  assert.deepEqual(m.best, { column: 1, row: 0 });
  // The defaults fall on their first two axes' cell whatever their third value.
  assert.deepEqual(m.defaults, { column: 1.5, row: 1.5 });
});

test("the best cell is the report's best point, never recomputed", () => {
  const report = { ...oneAxis, best: { point: 0 } };
  const m = h.heatmapCells(report);
  assert.deepEqual(m.cells.map((c) => c.isBest), [true, false, false]);
  assert.deepEqual(m.best, { column: 0, row: 0 });
  const folded = { grid: { axes: [{ key: "t", values: [1] }, { key: "v", values: ["a"] }, { key: "d", values: [1, 2] }],
    results: [result(0, {}, 9), result(1, {}, 3)] }, best: { point: 1 } };
  assert.deepEqual(h.heatmapCells(folded).cells.map((c) => [c.point, c.isBest]), [[1, true]]);
});

test("a long axis is binned to at most MAXIMUM_CELLS cells, each labelled by its first value", () => {
  const values = Array.from({ length: 250 }, (_, i) => i);
  const results = values.map((v) => result(v, { n: v }, v % 10));
  const m = h.heatmapCells({ grid: { axes: [{ key: "n", values }], results }, best: { point: 9 }, defaults: { values: { n: 7.5 } } });
  assert.equal(m.columns.length, h.MAXIMUM_CELLS);
  assert.equal(m.cells.length, h.MAXIMUM_CELLS);
  assert.deepEqual(m.columns.slice(0, 6), ["0", "2", "3", "4", "5", "7"]);
  assert.equal(h.binOf(249, 250, 200), 199);
  assert.equal(m.cells.find((c) => c.isBest).column, 7);
  assert.ok(Math.abs(m.defaults.column - 8 * 200 / 250) < 1e-12);
});

test("colours run along viridis between the lowest and highest cell; equal cells take the top", () => {
  assert.equal(h.scaleColour(0), "#440154");
  assert.equal(h.scaleColour(0.5), "#21908d");
  assert.equal(h.scaleColour(1), "#fde725");
  assert.equal(h.scaleColour(Number.NaN), "#440154");
  assert.equal(h.scaleFraction(0.6, 0.3, 0.9), (0.6 - 0.3) / (0.9 - 0.3));
  assert.equal(h.scaleFraction(0.7, 0.7, 0.7), 1);
  assert.deepEqual([h.inkColour(0.44), h.inkColour(0.42)], ["#000000", "#ffffff"]);
  const flat = h.heatmapCells({ grid: { axes: [{ key: "t", values: [1, 2] }], results: [result(0, {}, 5), result(1, {}, 5)] }, best: { point: 0 } });
  assert.deepEqual(flat.cells.map((c) => c.colour), ["#fde725", "#fde725"]);
});

test("a cell's label has 4.5:1 or more on every colour of the scale", () => {
  for (let i = 0; i <= 1000; i++) {
    const fraction = i / 1000;
    const ratio = contrastRatio(h.inkColour(fraction), h.scaleColour(fraction));
    assert.ok(ratio >= AA.text, `${h.inkColour(fraction)} on ${h.scaleColour(fraction)} at ${fraction}: ${ratio.toFixed(2)}:1`);
  }
});

test("labels: percent half up; values as the text report writes them", () => {
  assert.equal(h.percentText(0.125), "13%");
  assert.equal(h.percentText(0.7560975609756098), "76%");
  const cases = [[0.3, "0.3"], [2, "2"], [-0.5, "-0.5"], [0.0001, "0.0001"], [0.00001, "1e-05"], [1.5e-7, "1.5e-07"],
    [1e15, "1000000000000000.0"], [1e16, "1e+16"], [9007199254740994, "9.007199254740994e+15"], [0.1 + 0.2, "0.30000000000000004"], ["lsq2", "lsq2"]];
  for (const [value, text] of cases) assert.equal(h.valueText(value), text, String(value));
  assert.equal(h.valueLabel(0.30000000000000004), "0.3");
  assert.equal(h.valueLabel("lsq2"), "lsq2");
});

test("defaults between numeric values fall between cells; a name off the axis falls nowhere", () => {
  assert.ok(Math.abs(h.coordinate(0.55, [0.4, 0.5, 0.6, 0.7], 4) - 2) < 1e-12);
  assert.equal(h.coordinate(0.5, [0.4, 0.5, 0.6, 0.7], 4), 1.5);
  assert.equal(h.coordinate(0.9, [0.4, 0.5], 2), null);
  assert.equal(h.coordinate("lsq2", ["recorded"], 1), null);
  assert.equal(h.coordinate("0.5", [0.5], 1), null);
});

test("an empty report draws nothing", () => {
  assert.deepEqual(h.heatmapCells({}).cells, []);
  assert.deepEqual(h.heatmapModel({}).cells, []);
  assert.equal(h.heatmapModel({ grid: { axes: [{ key: "t", values: [1] }] } }).legend, null);
});

test("table rows come best first by the tuner's order; report files map back to library ids", () => {
  assert.deepEqual(h.tableRows(oneAxis).map((r) => r.point), [1, 0, 2]);
  assert.deepEqual(h.tableRows(oneAxis, 1).length, 1);
  const tied = { grid: { results: [result(0, {}, 5, 0.1, 90), result(1, {}, 5, 0.1, 80), result(2, {}, 5, 0.2, 99), result(3, {}, 5, 0.1, 80)] } };
  assert.deepEqual(h.tableRows(tied).map((r) => r.point), [2, 1, 3, 0]);
  const library = [{ id: "real/a.pantrace" }, { id: "synthetic/b.pantrace" }];
  assert.deepEqual(h.libraryIds(oneAxis.misjudged.map((m) => m.file), library), ["real/a.pantrace", "synthetic/b.pantrace"]);
});

test("with findings, cells as good as the best are marked equal (dashed, as tune --svg draws them)", () => {
  const withFindings = { ...report, equal_points: { count: 2 } };
  const cells = h.heatmapCells(withFindings).cells;
  const best = withFindings.best.correct;
  for (const c of cells) assert.equal(c.isEqual, !c.isBest && c.result.correct === best);
  assert.ok(h.heatmapCells(report).cells.every((c) => !c.isEqual), "no findings, no marks");
});
