// The tune report (docs/TUNE.md `--json` schema) as heat map cells and table rows.
//
// The same map as `pantrace tune --svg` (Sources/PanTune/Report/TuningHeatMap.swift), by the
// same rules, each written once on each side; one golden (web/tests/heatmap-golden/: a tune
// report and the cells expected from it) is checked by both heatmap.test.mjs and
// TuningHeatMapTests.swift:
//
// - Layout: columns are the first axis's values, rows the second's (one row for a one-axis
//   grid), row 0 at the bottom; `cells` run row by row from row 0, each left to right. An axis
//   longer than MAXIMUM_CELLS values is binned: value i of n falls in cell ⌊i·cells/n⌋, and a
//   bin is labelled with its first value.
// - What a cell shows: one grid point. The cell holding the tuner's best point (the report's
//   `best.point`, never recomputed) shows that point and is the one marked best; every other
//   cell shows its point that ranks highest by the tuner's own order (`ranksAbove`: more
//   correct, then a larger minimum margin, then a smaller mean discontinuity; the first in grid
//   order on a complete tie), over any further axes and binned values.
// - Colour: viridis at (accuracy − low) / (high − low), where low and high are the lowest and
//   highest accuracy among the cells (every cell the top colour when they are equal). The
//   scale spans the sweep, not [0, 1]: a sweep's points usually lie within a few tens of
//   points of accuracy of each other, and spreading them over the whole scale shows where the
//   ridge is and how sharp it is; the cells' labels and the legend (whose ends are low and
//   high) give the absolute values. Viridis also reads in grey and to the colour-blind, which
//   red to green does not.
// - Labels: a cell's accuracy as a whole percent ("83%", half up); axis values as the text
//   report writes them (`valueText`, Swift's `TuningResult.text`).
// - The defaults: where the preset's defaults fall on the first two axes (`coordinate`),
//   between cells for a numeric default that is not a grid value; nowhere when outside.

import { contrastRatio } from "./contrast.mjs";

/** The most columns or rows drawn (TuningHeatMap.maximumCells). */
export const MAXIMUM_CELLS = 200;

/** Viridis (matplotlib's perceptually uniform map) as nine stops, dark (low) to yellow (high). */
const VIRIDIS = [
  [68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37],
];

/** The colour at `fraction` of the scale (clamped to [0, 1]) as `#rrggbb`: viridis, linear between its stops. */
export function scaleColour(fraction) {
  const t = Math.min(Math.max(Number.isFinite(fraction) ? fraction : 0, 0), 1) * (VIRIDIS.length - 1);
  const index = Math.min(Math.floor(t), VIRIDIS.length - 2);
  const f = t - index;
  const a = VIRIDIS[index], b = VIRIDIS[index + 1];
  return `#${a.map((x, i) => Math.round(x + (b[i] - x) * f).toString(16).padStart(2, "0")).join("")}`;
}

/** Where `accuracy` falls between the map's lowest and highest cell, 0…1 (1 when they are equal). */
export const scaleFraction = (accuracy, low, high) => (high > low ? (accuracy - low) / (high - low) : 1);

/**
 * The text colour on a cell at `fraction`: black or white, whichever contrasts more with the
 * cell, so a label has 4.5:1 or more on every colour of the scale (WCAG 1.4.3; white turns to
 * black near 0.43, in the blue-greens), as `pantrace tune --svg` does (TuningHeatMap.ink).
 */
export function inkColour(fraction) {
  const cell = scaleColour(fraction);
  return contrastRatio("#000000", cell) > contrastRatio("#ffffff", cell) ? "#000000" : "#ffffff";
}

/** A cell's label: its accuracy as a whole percent, half up. */
export const percentText = (accuracy) => `${Math.round((accuracy ?? 0) * 100)}%`;

/**
 * Whether result `a` ranks above `b` by the tuner's order (`PointScore.ranks(above:)`): more
 * correct; on a tie, a larger minimum margin; then a smaller mean velocity discontinuity.
 */
export function ranksAbove(a, b) {
  if (a.correct !== b.correct) return a.correct > b.correct;
  const am = a.min_margin ?? 0, bm = b.min_margin ?? 0;
  if (am !== bm) return am > bm;
  return (a.mean_discontinuity_pt_s ?? 0) < (b.mean_discontinuity_pt_s ?? 0);
}

/** A value as a short label: numbers to at most 4 significant digits (the table's, not the map's). */
export function valueLabel(v) {
  return typeof v === "number" ? String(Number(v.toPrecision(4))) : String(v);
}

/**
 * A grid value as the text report and the SVG write it (`TuningResult.text`): a whole number
 * without a decimal point, any other number as Swift prints a Double (the shortest text that
 * reads back the same, in exponent form below 1e-4 and above 2^53), a name as it is.
 */
export function valueText(v) {
  if (typeof v !== "number") return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  const size = Math.abs(v);
  if (size < 1e-4 || size > 2 ** 53) {
    const [mantissa, exponent] = v.toExponential().split("e");
    const sign = exponent[0] === "-" ? "-" : "+";
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  return Number.isInteger(v) ? `${v}.0` : String(v);
}

/** The cell (bin) of value `index` of `count` on an axis drawn in `cells` cells. */
export const binOf = (index, count, cells) => Math.floor((index * cells) / count);

/** The labels of an axis's `cells` cells: each bin's first value. */
export function binLabels(values, cells) {
  return Array.from({ length: cells }, (_, cell) => {
    const first = Math.floor((cell * values.length + cells - 1) / cells);
    return valueText(values[Math.min(first, values.length - 1)]);
  });
}

const sameValue = (a, b) => typeof a === typeof b && a === b;

/**
 * Where `value` falls along an axis of `values` drawn in `cells` cells, in cells from the start
 * (0.5 is the first cell's centre); null when it is not on the axis and not between two
 * numeric values (`TuningHeatMap.coordinate`).
 */
export function coordinate(value, values, cells) {
  const count = values.length;
  const centre = (index) => ((index + 0.5) * cells) / count;
  const exact = values.findIndex((v) => sameValue(v, value));
  if (exact >= 0) return centre(exact);
  if (typeof value !== "number") return null;
  for (let index = 0; index < count - 1; index++) {
    const a = values[index], b = values[index + 1];
    if (typeof a !== "number" || typeof b !== "number" || a === b) continue;
    if ((a < value && value < b) || (b < value && value < a)) return centre(index + (value - a) / (b - a));
  }
  return null;
}

/** Each axis's value index at grid point `point` (the first axis changes slowest). */
function valueIndices(point, sizes) {
  const indices = [];
  let remainder = point;
  for (let axis = sizes.length - 1; axis >= 0; axis--) {
    indices[axis] = remainder % sizes[axis];
    remainder = Math.floor(remainder / sizes[axis]);
  }
  return indices;
}

/** The result each cell shows, by cell index (row · columns + column). */
function shownResults(results, sizes, columns, rows, bestPoint) {
  const shown = [];
  const points = sizes.reduce((product, size) => product * size, 1);
  const inGrid = results.filter((r) => Number.isInteger(r.point) && r.point >= 0 && r.point < points);
  for (const r of inGrid.sort((a, b) => a.point - b.point)) {
    const indices = valueIndices(r.point, sizes);
    const cell = (sizes.length > 1 ? binOf(indices[1], sizes[1], rows) : 0) * columns + binOf(indices[0], sizes[0], columns);
    const held = shown[cell];
    if (!held || (held.point !== bestPoint && (r.point === bestPoint || ranksAbove(r, held)))) shown[cell] = r;
  }
  return shown;
}

/**
 * The map of `report` without pixels: column and row labels, the scale's ends (`low`, `high`),
 * the `cells` row by row from row 0 (each `{row, column, point, result, accuracy, fraction,
 * colour, ink, label, isBest}`), the best cell and where the defaults fall (`{column, row}` in
 * cells from the bottom-left corner, or null). Empty when the report lists no results.
 */
export function heatmapCells(report, { maximumCells = MAXIMUM_CELLS } = {}) {
  const axes = report?.grid?.axes ?? [];
  const results = report?.grid?.results ?? [];
  const empty = { columns: [], rows: [], low: 0, high: 1, cells: [], best: null, defaults: null };
  if (axes.length === 0 || results.length === 0) return empty;
  const sizes = axes.map((a) => a.values.length);
  const columnCount = Math.min(sizes[0], maximumCells);
  const rowCount = axes.length > 1 ? Math.min(sizes[1], maximumCells) : 1;
  const bestPoint = report.best?.point;
  const shown = shownResults(results, sizes, columnCount, rowCount, bestPoint);
  const accuracies = shown.filter(Boolean).map((r) => r.accuracy ?? 0);
  if (accuracies.length === 0) return empty;
  const low = accuracies.reduce((m, a) => Math.min(m, a), Infinity);
  const high = accuracies.reduce((m, a) => Math.max(m, a), -Infinity);
  const cells = [];
  shown.forEach((result, index) => {
    if (!result) return;
    const accuracy = result.accuracy ?? 0;
    const fraction = scaleFraction(accuracy, low, high);
    cells.push({
      row: Math.floor(index / columnCount), column: index % columnCount, point: result.point, result, accuracy, fraction,
      colour: scaleColour(fraction), ink: inkColour(fraction), label: percentText(accuracy), isBest: result.point === bestPoint,
      // As good as the best (one of the report's equal points; drawn dashed, as `tune --svg` does).
      isEqual: Boolean(report.equal_points) && result.point !== bestPoint && result.correct === report.best?.correct,
    });
  });
  const best = cells.find((c) => c.isBest);
  const d = report.defaults?.values ?? {};
  const column = coordinate(d[axes[0].key], axes[0].values, columnCount);
  const row = axes.length > 1 ? coordinate(d[axes[1].key], axes[1].values, rowCount) : 0.5;
  return {
    columns: binLabels(axes[0].values, columnCount),
    rows: axes.length > 1 ? binLabels(axes[1].values, rowCount) : [""],
    low, high, cells,
    best: best ? { column: best.column, row: best.row } : null,
    defaults: column === null || row === null ? null : { column, row },
  };
}

/** Stops of the legend's colour bar, bottom (the lowest cell) to top (the highest). */
export const LEGEND_STEPS = 32;

/**
 * The heat map of `report` in a `width` × `height` box: `heatmapCells` with each cell's pixel
 * rectangle, the `defaultsMark` (a centre and half-width, or null) and the `legend` (its colour
 * bar and its two ends' labels) at the right.
 */
export function heatmapModel(report, { width = 480, height = 320, maximumCells = MAXIMUM_CELLS } = {}) {
  const axes = report?.grid?.axes ?? [];
  const map = heatmapCells(report, { maximumCells });
  const pad = { left: axes[1] ? 64 : 16, right: 56, top: 8, bottom: 40 };
  if (map.cells.length === 0) return { ...map, axes, pad: null, cells: [], defaultsMark: null, legend: null };
  const plotWidth = width - pad.left - pad.right, plotHeight = height - pad.top - pad.bottom;
  const cw = plotWidth / map.columns.length;
  const ch = plotHeight / map.rows.length;
  const cells = map.cells.map((cell) => ({
    ...cell, fill: cell.colour,
    x: pad.left + cell.column * cw, y: pad.top + (map.rows.length - 1 - cell.row) * ch, width: cw, height: ch,
  }));
  const defaultsMark = map.defaults && {
    x: pad.left + map.defaults.column * cw, y: pad.top + (map.rows.length - map.defaults.row) * ch,
    radius: Math.max(4, Math.min(cw, ch) * 0.38) * 0.9,
  };
  const barHeight = Math.min(160, plotHeight);
  const legend = {
    x: width - pad.right + 8, top: pad.top, height: barHeight, width: 10,
    stops: Array.from({ length: LEGEND_STEPS }, (_, step) => ({
      y: pad.top + barHeight * (1 - (step + 1) / LEGEND_STEPS), height: barHeight / LEGEND_STEPS + 0.5,
      fill: scaleColour(step / (LEGEND_STEPS - 1)),
    })),
    high: percentText(map.high), low: percentText(map.low),
  };
  return { ...map, cells, axes, pad, cellWidth: cw, cellHeight: ch, width, height, defaultsMark, legend };
}

/** Table rows: the points best first by the tuner's order (then grid order), at most `limit`. */
export function tableRows(report, limit = 50) {
  const results = [...(report?.grid?.results ?? [])];
  results.sort((a, b) => (ranksAbove(a, b) ? -1 : ranksAbove(b, a) ? 1 : a.point - b.point));
  return results.slice(0, limit);
}

/** The library ids of the report's files (absolute or relative paths ending in an id). */
export function libraryIds(files, library) {
  return files
    .map((file) => library.find((r) => file === r.id || file.endsWith(`/${r.id}`))?.id)
    .filter(Boolean);
}
