// The Tune tab's heat map and result table: renders a `heatmapModel` and `tableRows`
// (heatmap.mjs, which decides the cells, colours, best cell and labels, as `pantrace tune
// --svg` does) with DOM APIs. `onPick(result)` is called when a cell or a row is chosen.
import { css, h, s } from "./dom.view.mjs";
import { heatmapModel, tableRows } from "./heatmap.mjs";
import { cellTitle, heatmapHeight, TABLE_HEADS, tableCells, tickEvery } from "./tune.mjs";

/** Enter or Space on a focused element that is not a button (a cell, a row) does what a click does. */
function onActivate(el, action) {
  el.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    action();
  });
}

/** A diamond of half-width `r` centred on `(x, y)`: the mark of the preset's defaults. */
const diamond = ({ x, y, radius: r }) => `M${x} ${y - r} L${x + r} ${y} L${x} ${y + r} L${x - r} ${y} Z`;

function cellParts(cell, onPick) {
  const rect = s("rect", { class: `cell${cell.isBest ? " best" : ""}${cell.isEqual ? " equal" : ""}`, x: cell.x + 1, y: cell.y + 1, width: Math.max(1, cell.width - 2),
    height: Math.max(1, cell.height - 2), rx: 3, fill: cell.fill, tabindex: "0", role: "button",
    dataset: { point: String(cell.result.point) } }, s("title", { text: cellTitle(cell.result) }));
  rect.addEventListener("click", () => onPick(cell.result));
  onActivate(rect, () => onPick(cell.result));
  const parts = [rect];
  if (cell.width >= 30 && cell.height >= 16) {
    const label = s("text", { class: "cell-label", x: cell.x + cell.width / 2, y: cell.y + cell.height / 2 + 4, "text-anchor": "middle", text: cell.label });
    css(label, { fill: cell.ink });
    parts.push(label);
  }
  return parts;
}

/** The defaults' diamond, where they fall (between cells for a value off the grid), as the SVG draws it. */
function defaultsParts(mark) {
  if (!mark) return [];
  const path = s("path", { class: "default-mark", d: diamond(mark) }, s("title", { text: "the preset's defaults" }));
  css(path, { fill: "none", stroke: "var(--accent)", strokeWidth: "2", pointerEvents: "none" });
  return [path];
}

/** The colour bar: the lowest cell's accuracy at the bottom, the highest at the top. */
function legendParts(legend) {
  if (!legend) return [];
  return [
    ...legend.stops.map((stop) => s("rect", { x: legend.x, y: stop.y, width: legend.width, height: stop.height, fill: stop.fill })),
    s("text", { class: "tick", x: legend.x + legend.width + 4, y: legend.top + 9, text: legend.high }),
    s("text", { class: "tick", x: legend.x + legend.width + 4, y: legend.top + legend.height, text: legend.low }),
  ];
}

function axisLabels(m, axes, width, height) {
  const parts = [];
  const every = tickEvery(m.columns.length, width);
  m.columns.forEach((label, i) => {
    if (i % every) return;
    parts.push(s("text", { class: "tick", x: m.pad.left + (i + 0.5) * m.cellWidth, y: height - m.pad.bottom + 16, "text-anchor": "middle", text: label }));
  });
  parts.push(s("text", { class: "axis-title", x: m.pad.left + (width - m.pad.left - m.pad.right) / 2, y: height - 6, "text-anchor": "middle", text: axes[0]?.key ?? "" }));
  if (axes[1]) {
    m.rows.forEach((label, i) => {
      parts.push(s("text", { class: "tick", x: m.pad.left - 6, y: m.pad.top + (m.rows.length - 1 - i + 0.5) * m.cellHeight + 4, "text-anchor": "end", text: label }));
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
  if (!m.pad) {
    svg.replaceChildren();
    return;
  }
  svg.replaceChildren(...m.cells.flatMap((cell) => cellParts(cell, onPick)), ...defaultsParts(m.defaultsMark), ...legendParts(m.legend),
    ...axisLabels(m, axes, width, height));
}

/** Fills `table` with the report's best 40 points. */
export function renderTable(table, report, onPick) {
  const axes = report.grid?.axes ?? [];
  const head = h("tr", {}, ...axes.map((a) => h("th", { text: a.key })), ...TABLE_HEADS.map((t) => h("th", { text: t })));
  const heads = [...axes.map((a) => a.key), ...TABLE_HEADS];
  const rows = tableRows(report, 40).map((r) => {
    const cells = tableCells(r, axes);
    // A focusable row is named by its cells, each with its column's head.
    const name = cells.map((text, i) => `${heads[i]} ${text}`).join(", ");
    const tr = h("tr", { class: r.point === report.best?.point ? "best" : "", tabindex: "0", "aria-label": name, dataset: { point: String(r.point) } },
      ...cells.map((text) => h("td", { text })));
    tr.addEventListener("click", () => onPick(r));
    onActivate(tr, () => onPick(r));
    return tr;
  });
  table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows));
}
