// The tune report (docs/TUNE.md `--json` schema) as a heat map model and table rows.
// Columns are the first axis, rows the second; with more axes a cell shows the best point
// over the rest (most correct, then larger minimum margin), as `pantrace tune --svg` does.

/** Accuracy in [0, 1] to a colour from red (0) through amber to green (1). */
export function accuracyColour(accuracy) {
  const a = Math.min(1, Math.max(0, Number.isFinite(accuracy) ? accuracy : 0));
  const hue = Math.round(a * 130);
  return `hsl(${hue} 70% ${Math.round(42 + 8 * Math.sin(a * Math.PI))}%)`;
}

const same = (a, b) => (typeof a === "number" && typeof b === "number" ? Math.abs(a - b) < 1e-9 : String(a) === String(b));

function better(a, b) {
  if (!b) return true;
  if (a.correct !== b.correct) return a.correct > b.correct;
  return (a.min_margin ?? 0) > (b.min_margin ?? 0);
}

/** A value as a short label: numbers to at most 4 significant digits. */
export function valueLabel(v) {
  return typeof v === "number" ? String(Number(v.toPrecision(4))) : String(v);
}

/**
 * The heat map of `report` in a `width` × `height` box: `cells` with their grid position,
 * pixel rectangle, result, fill and marks (`isBest`, `isDefault`).
 */
export function heatmapModel(report, { width = 480, height = 320 } = {}) {
  const axes = report?.grid?.axes ?? [];
  const results = report?.grid?.results ?? [];
  if (axes.length === 0 || results.length === 0) return { columns: [], rows: [], cells: [], axes, pad: null };
  const colAxis = axes[0];
  const rowAxis = axes[1] ?? null;
  const columns = colAxis.values;
  const rows = rowAxis ? rowAxis.values : [null];
  const pad = { left: rowAxis ? 64 : 16, right: 8, top: 8, bottom: 40 };
  const cw = (width - pad.left - pad.right) / columns.length;
  const ch = (height - pad.top - pad.bottom) / rows.length;
  const bestPoint = report.best?.point;
  const grid = new Map();
  for (const r of results) {
    const c = columns.findIndex((v) => same(v, r.values[colAxis.key]));
    const w = rowAxis ? rows.findIndex((v) => same(v, r.values[rowAxis.key])) : 0;
    if (c < 0 || w < 0) continue;
    const key = `${c},${w}`;
    const held = grid.get(key);
    if (!held || r.point === bestPoint || (held.point !== bestPoint && better(r, held))) grid.set(key, r);
  }
  const defaults = report.defaults?.values ?? {};
  const cells = [];
  for (const [key, result] of grid) {
    const [c, w] = key.split(",").map(Number);
    const isDefault = axes.every((a) => defaults[a.key] === undefined || same(defaults[a.key], result.values[a.key]));
    cells.push({
      column: c, row: w, result,
      x: pad.left + c * cw, y: pad.top + (rows.length - 1 - w) * ch, width: cw, height: ch,
      fill: accuracyColour(result.accuracy),
      label: `${Math.round((result.accuracy ?? 0) * 100)}%`,
      isBest: result.point === bestPoint,
      isDefault: isDefault && Object.keys(defaults).length > 0,
    });
  }
  cells.sort((a, b) => a.result.point - b.result.point);
  return { columns, rows, cells, axes, pad, cellWidth: cw, cellHeight: ch, width, height };
}

/** Table rows: the points by accuracy (best first, then grid order), at most `limit`. */
export function tableRows(report, limit = 50) {
  const results = [...(report?.grid?.results ?? [])];
  results.sort((a, b) => b.correct - a.correct || (b.min_margin ?? 0) - (a.min_margin ?? 0) || a.point - b.point);
  return results.slice(0, limit);
}

/** The library ids of the report's files (absolute or relative paths ending in an id). */
export function libraryIds(files, library) {
  return files
    .map((file) => library.find((r) => file === r.id || file.endsWith(`/${r.id}`))?.id)
    .filter(Boolean);
}
