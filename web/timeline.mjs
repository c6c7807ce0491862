// The timeline chart's DOM: renders a `chartModel` into an <svg> with DOM APIs.
import { s } from "./dom.mjs";
import { num } from "./dom.mjs";
import { timeLabel, velocityLabel } from "./chart.mjs";

export function renderTimeline(svg, model, { outcome = null, summary = null } = {}) {
  const { width, height, pad } = model;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const parts = [];
  const plotBottom = height - pad.bottom;
  parts.push(s("rect", { class: "plot", x: pad.left, y: pad.top, width: width - pad.left - pad.right, height: plotBottom - pad.top }));
  for (const t of model.pTicks) {
    parts.push(s("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: t.y, y2: t.y }));
    parts.push(s("text", { class: "tick", x: pad.left - 6, y: t.y + 4, "text-anchor": "end", text: num(t.value, 2) }));
  }
  for (const t of model.vTicks) {
    parts.push(s("text", { class: "tick velocity", x: width - pad.right + 6, y: t.y + 4, text: velocityLabel(t.value) }));
  }
  for (const t of model.xTicks) {
    parts.push(s("text", { class: "tick", x: t.x, y: height - 6, "text-anchor": "middle", text: timeLabel(t.value) }));
  }
  parts.push(s("text", { class: "axis-name", x: 4, y: pad.top + 8, text: "p" }));
  parts.push(s("text", { class: "axis-name velocity", x: width - 4, y: pad.top + 8, "text-anchor": "end", text: `v${model.axis}` }));
  if (model.threshold) {
    parts.push(s("line", { id: "chart-threshold", class: `threshold ${model.threshold.unit === "pt/s" ? "on-velocity" : ""}`,
      x1: pad.left, x2: width - pad.right, y1: model.threshold.y, y2: model.threshold.y, dataset: { value: String(model.threshold.value) } }));
    parts.push(s("text", { class: "threshold-label", x: width - pad.right - 4, y: model.threshold.y - 4, "text-anchor": "end",
      text: `θ ${num(model.threshold.value, 3)}${model.threshold.unit === "pt/s" ? " pt/s" : ""}` }));
  }
  if (model.velocityPath) parts.push(s("path", { class: "series velocity", d: model.velocityPath }));
  if (model.renderedPath) parts.push(s("path", { class: "series rendered", d: model.renderedPath }));
  if (model.progressPath) parts.push(s("path", { id: "chart-progress", class: "series progress", d: model.progressPath }));
  if (model.completionPath) parts.push(s("path", { class: `series completion ${outcome ?? ""}`, d: model.completionPath }));
  if (model.releaseX !== null) {
    parts.push(s("line", { id: "chart-release", class: "release", x1: model.releaseX, x2: model.releaseX, y1: pad.top, y2: plotBottom }));
    const label = summary ? `release · ${summary.decision}${Number.isFinite(summary.margin) ? ` by ${num(summary.margin, 3)}` : ""}` : "release";
    const right = model.releaseX < width * 0.6;
    parts.push(s("text", { class: `release-label ${outcome ?? ""}`, x: model.releaseX + (right ? 5 : -5), y: plotBottom - 6,
      "text-anchor": right ? "start" : "end", text: label }));
  }
  if (model.landing) {
    const l = model.landing;
    parts.push(s("line", { class: "landing-arrow", x1: l.x, x2: l.x + 14, y1: l.fromY, y2: l.y }));
    parts.push(s("circle", { id: "chart-landing", class: "landing", cx: l.x + 14, cy: l.y, r: 4.5, dataset: { value: String(l.value) } }));
    parts.push(s("text", { class: "landing-label", x: l.x + 22, y: l.y + 4, text: `projected ${num(l.value, 2)}` }));
  }
  if (model.playheadX !== null) {
    parts.push(s("line", { class: "playhead", x1: model.playheadX, x2: model.playheadX, y1: pad.top, y2: plotBottom }));
  }
  svg.replaceChildren(...parts);
}
