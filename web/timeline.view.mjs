// The timeline chart's DOM: renders a `chartModel` (chart.mjs) into an <svg> with DOM APIs,
// at most once per animation frame and again when the chart is resized.
import { chartModel, landingLabel, releaseLabel, thresholdLabel, timeLabel, velocityLabel } from "./chart.mjs";
import { s } from "./dom.view.mjs";
import { num } from "./format.mjs";

/**
 * The chart in `svg`, drawn from what `read()` returns when the frame comes:
 * `{frames, size, release, playback, threshold, time, summary}`.
 */
export class Timeline {
  constructor(svg, read) {
    this.svg = svg;
    this.read = read;
    this.pending = false;
    new ResizeObserver(() => this.schedule()).observe(svg);
  }

  /** Redraws on the next animation frame (once, however often it is asked). */
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.render(this.read());
    });
  }

  render({ frames, size, release, playback, threshold, time, summary }) {
    const width = Math.max(240, this.svg.clientWidth || 600);
    const height = Math.max(160, this.svg.clientHeight || 200);
    const model = chartModel({ frames, playback, release, threshold, width, height, time });
    renderTimeline(this.svg, model, { outcome: summary?.decision ?? null, summary });
    this.svg.dataset.frames = String(size);
  }
}

function axisParts({ width, height, pad, pTicks, vTicks, xTicks, axis }) {
  const parts = [s("rect", { class: "plot", x: pad.left, y: pad.top, width: width - pad.left - pad.right, height: height - pad.bottom - pad.top })];
  for (const t of pTicks) {
    parts.push(s("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: t.y, y2: t.y }));
    parts.push(s("text", { class: "tick", x: pad.left - 6, y: t.y + 4, "text-anchor": "end", text: num(t.value, 2) }));
  }
  for (const t of vTicks) {
    parts.push(s("text", { class: "tick velocity", x: width - pad.right + 6, y: t.y + 4, text: velocityLabel(t.value) }));
  }
  for (const t of xTicks) {
    parts.push(s("text", { class: "tick", x: t.x, y: height - 6, "text-anchor": "middle", text: timeLabel(t.value) }));
  }
  parts.push(s("text", { class: "axis-name", x: 4, y: pad.top + 8, text: "p" }));
  parts.push(s("text", { class: "axis-name velocity", x: width - 4, y: pad.top + 8, "text-anchor": "end", text: `v${axis}` }));
  return parts;
}

function thresholdParts({ width, pad, threshold }) {
  if (!threshold) return [];
  return [
    s("line", { id: "chart-threshold", class: `threshold ${threshold.unit === "pt/s" ? "on-velocity" : ""}`,
      x1: pad.left, x2: width - pad.right, y1: threshold.y, y2: threshold.y, dataset: { value: String(threshold.value) } }),
    s("text", { class: "threshold-label", x: width - pad.right - 4, y: threshold.y - 4, "text-anchor": "end", text: thresholdLabel(threshold) }),
  ];
}

function seriesParts(model, outcome) {
  const parts = [];
  if (model.velocityPath) parts.push(s("path", { class: "series velocity", d: model.velocityPath }));
  if (model.renderedPath) parts.push(s("path", { class: "series rendered", d: model.renderedPath }));
  if (model.progressPath) parts.push(s("path", { id: "chart-progress", class: "series progress", d: model.progressPath }));
  if (model.completionPath) parts.push(s("path", { class: `series completion ${outcome ?? ""}`, d: model.completionPath }));
  return parts;
}

/** The release line, its label on the side with room. */
function releaseParts({ width, height, pad, releaseX }, outcome, summary) {
  if (releaseX === null) return [];
  const plotBottom = height - pad.bottom;
  const right = releaseX < width * 0.6;
  return [
    s("line", { id: "chart-release", class: "release", x1: releaseX, x2: releaseX, y1: pad.top, y2: plotBottom }),
    s("text", { class: `release-label ${outcome ?? ""}`, x: releaseX + (right ? 5 : -5), y: plotBottom - 6,
      "text-anchor": right ? "start" : "end", text: releaseLabel(summary) }),
  ];
}

function landingParts({ landing: l }) {
  if (!l) return [];
  return [
    s("line", { class: "landing-arrow", x1: l.x, x2: l.x + 14, y1: l.fromY, y2: l.y }),
    s("circle", { id: "chart-landing", class: "landing", cx: l.x + 14, cy: l.y, r: 4.5, dataset: { value: String(l.value) } }),
    s("text", { class: "landing-label", x: l.x + 22, y: l.y + 4, text: landingLabel(l.value) }),
  ];
}

function playheadParts({ height, pad, playheadX }) {
  if (playheadX === null) return [];
  return [s("line", { class: "playhead", x1: playheadX, x2: playheadX, y1: pad.top, y2: height - pad.bottom })];
}

/** Draws `model` into `svg`, replacing what it showed; `outcome` and `summary` label the release. */
export function renderTimeline(svg, model, { outcome = null, summary = null } = {}) {
  svg.setAttribute("viewBox", `0 0 ${model.width} ${model.height}`);
  svg.replaceChildren(...axisParts(model), ...thresholdParts(model), ...seriesParts(model, outcome),
    ...releaseParts(model, outcome, summary), ...landingParts(model), ...playheadParts(model));
}
