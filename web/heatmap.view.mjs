// The Tune tab's heat map and result table: renders a `heatmapModel` and `tableRows`
// (heatmap.mjs) with DOM APIs. `onPick(result)` is called when a cell or a row is chosen.
import { h, s } from "./dom.view.mjs";
import { heatmapModel, tableRows, valueLabel } from "./heatmap.mjs";
import { cellTitle, heatmapHeight, TABLE_HEADS, tableCells, tickEvery } from "./tune.mjs";

/** A diamond of half-width 5 centred on `(cx, cy)`: the mark of the preset's defaults. */
const diamond = (cx, cy) => `M${cx} ${cy - 5} L${cx + 5} ${cy} L${cx} ${cy + 5} L${cx - 5} ${cy} Z`;

function cellParts(cell, onPick) {
  const rect = s("rect", { class: `cell${cell.isBest ? " best" : ""}`, x: cell.x + 1, y: cell.y + 1, width: Math.max(1, cell.width - 2),
    height: Math.max(1, cell.height - 2), rx: 3, fill: cell.fill, tabindex: "0", role: "button",
    dataset: { point: String(cell.result.point) } }, s("title", { text: cellTitle(cell.result) }));
  rect.addEventListener("click", () => onPick(cell.result));
  rect.addEventListener("keydown", (e) => { if (e.key === "Enter") onPick(cell.result); });
  const parts = [rect];
  if (cell.width >= 30 && cell.height >= 16) {
    parts.push(s("text", { class: "cell-label", x: cell.x + cell.width / 2, y: cell.y + cell.height / 2 + 4, "text-anchor": "middle", text: cell.label }));
  }
  if (cell.isDefault) {
    parts.push(s("path", { class: "default-mark", d: diamond(cell.x + cell.width - 8, cell.y + 8) }, s("title", { text: "the preset's defaults" })));
  }
  return parts;
}

function axisLabels(m, axes, width, height) {
  const parts = [];
  const every = tickEvery(m.columns.length, width);
  m.columns.forEach((v, i) => {
    if (i % every) return;
    parts.push(s("text", { class: "tick", x: m.pad.left + (i + 0.5) * m.cellWidth, y: height - m.pad.bottom + 16, "text-anchor": "middle", text: valueLabel(v) }));
  });
  parts.push(s("text", { class: "axis-title", x: m.pad.left + (width - m.pad.left - m.pad.right) / 2, y: height - 6, "text-anchor": "middle", text: axes[0]?.key ?? "" }));
  if (axes[1]) {
    m.rows.forEach((v, i) => {
      parts.push(s("text", { class: "tick", x: m.pad.left - 6, y: m.pad.top + (m.rows.length - 1 - i + 0.5) * m.cellHeight + 4, "text-anchor": "end", text: valueLabel(v) }));
    });
  }
  return parts;
}

/** Draws the report's heat map into `svg`, as wide as the element. */
export function renderHeatmap(svg, report, onPick) {
  const width = Math.max(260, svg.clientWidth || 480);
  const axes = report.grid?.axes ?? [];
  const height = heatmapHeight(axes);
  const m = heatmapModel(report, { width, height });
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.dataset.cells = String(m.cells.length);
  svg.replaceChildren(...m.cells.flatMap((cell) => cellParts(cell, onPick)), ...axisLabels(m, axes, width, height));
}

/** Fills `table` with the report's best 40 points. */
export function renderTable(table, report, onPick) {
  const axes = report.grid?.axes ?? [];
  const head = h("tr", {}, ...axes.map((a) => h("th", { text: a.key })), ...TABLE_HEADS.map((t) => h("th", { text: t })));
  const rows = tableRows(report, 40).map((r) => {
    const tr = h("tr", { class: r.point === report.best?.point ? "best" : "", tabindex: "0", dataset: { point: String(r.point) } },
      ...tableCells(r, axes).map((text) => h("td", { text })));
    tr.addEventListener("click", () => onPick(r));
    return tr;
  });
  table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows));
}
