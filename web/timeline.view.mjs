// The timeline chart's DOM: renders a `chartModel` (chart.mjs) into an <svg> with DOM APIs,
// at most once per animation frame and again when the chart is resized; and its input: click
// or drag to seek, wheel or pinch to zoom, horizontal wheel (or shift) to pan, double-click to
// fit the whole replay.
import { chartModel, fitView, landingLabel, legendKeys, panView, releaseLabel, thresholdLabel, timeAt, timeLabel, velocityLabel, zoomView } from "./chart.mjs";
import { s } from "./dom.view.mjs";
import { num } from "./format.mjs";

/** Zoom per wheel pixel (a notch of 100 px zooms by e^0.2 ≈ 1.22×) and per key press. */
const WHEEL_ZOOM = 0.002;
export const KEY_ZOOM = 1.5;

/**
 * The chart in `svg`, drawn from what `read()` returns when the frame comes:
 * `{frames, size, release, playback, threshold, time, summary, markers, comparison}`.
 * `seek(time)` is called when the person clicks or drags on it (only when `canSeek()`);
 * `onDraw(model)` after each drawing (the legend follows what is drawn).
 */
export class Timeline {
  constructor(svg, read, { seek = () => {}, canSeek = () => false, onDraw = () => {} } = {}) {
    this.svg = svg;
    this.read = read;
    this.seek = seek;
    this.canSeek = canSeek;
    this.onDraw = onDraw;
    this.pending = false;
    /** The time span shown, or null to fit the whole replay. */
    this.view = null;
    this.model = null;
    this.pointers = new Map();
    this.pinch = null;
    new ResizeObserver(() => this.schedule()).observe(svg);
    this.listen();
  }

  // MARK: View

  /** Shows the whole replay, from touch-down to settle. */
  fit() {
    this.view = null;
    this.schedule();
  }

  /** Zooms by `factor` about `at` (default: the middle of the view). */
  zoom(factor, at = null) {
    const playback = this.read().playback;
    if (!playback) return;
    const view = this.view ?? fitView(playback);
    this.view = zoomView(view, at ?? (view.from + view.to) / 2, factor, playback);
    this.schedule();
  }

  pan(dt) {
    const playback = this.read().playback;
    if (!playback) return;
    this.view = panView(this.view ?? fitView(playback), dt, playback);
    this.schedule();
  }

  // MARK: Input

  /** The chart's x (in its own units) under a client x. */
  chartX(clientX) {
    const box = this.svg.getBoundingClientRect();
    return ((clientX - box.left) / Math.max(1, box.width)) * (this.model?.width ?? box.width);
  }

  listen() {
    const svg = this.svg;
    svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || !this.model) return;
      this.pointers.set(e.pointerId, e.clientX);
      svg.setPointerCapture?.(e.pointerId);
      if (this.pointers.size === 2) this.startPinch();
      else if (this.pointers.size === 1 && this.canSeek()) this.seek(timeAt(this.model, this.chartX(e.clientX)));
    });
    svg.addEventListener("pointermove", (e) => {
      if (!this.pointers.has(e.pointerId) || !this.model) return;
      this.pointers.set(e.pointerId, e.clientX);
      if (this.pinch) this.movePinch();
      else if (this.pointers.size === 1 && this.canSeek()) this.seek(timeAt(this.model, this.chartX(e.clientX)));
    });
    const lift = (e) => {
      this.pointers.delete(e.pointerId);
      if (this.pointers.size < 2) this.pinch = null;
    };
    svg.addEventListener("pointerup", lift);
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("dblclick", (e) => {
      e.preventDefault();
      this.fit();
    });
    svg.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
  }

  onWheel(e) {
    if (!this.model) return;
    e.preventDefault();
    const span = this.model.view.to - this.model.view.from;
    const plotWidth = this.model.width - this.model.pad.left - this.model.pad.right;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      const delta = e.shiftKey && !e.deltaX ? e.deltaY : e.deltaX;
      this.pan((delta / plotWidth) * span);
    } else {
      this.zoom(Math.exp(-e.deltaY * WHEEL_ZOOM), timeAt(this.model, this.chartX(e.clientX)));
    }
  }

  /** Two fingers: the view follows their span and their middle. */
  startPinch() {
    const [a, b] = [...this.pointers.values()];
    const playback = this.read().playback;
    const view = this.view ?? fitView(playback);
    this.pinch = { distance: Math.max(8, Math.abs(a - b)), middle: timeAt(this.model, this.chartX((a + b) / 2)), view };
  }

  movePinch() {
    const [a, b] = [...this.pointers.values()];
    const playback = this.read().playback;
    const factor = Math.max(8, Math.abs(a - b)) / this.pinch.distance;
    const zoomed = zoomView(this.pinch.view, this.pinch.middle, factor, playback);
    // Keep the time that was under the fingers' middle under it.
    const model = this.model;
    const middleX = this.chartX((a + b) / 2);
    const f = (middleX - model.pad.left) / (model.width - model.pad.left - model.pad.right);
    const shift = this.pinch.middle - (zoomed.from + f * (zoomed.to - zoomed.from));
    this.view = panView(zoomed, shift, playback);
    this.schedule();
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

  render({ frames, size, release, playback, threshold, time, summary, markers, comparison }) {
    const width = Math.max(240, this.svg.clientWidth || 600);
    const height = Math.max(160, this.svg.clientHeight || 200);
    const model = chartModel({ frames, playback, release, threshold, width, height, time, view: this.view, markers, comparison });
    this.model = model;
    renderTimeline(this.svg, model, { outcome: summary?.decision ?? null, summary, comparison });
    const d = this.svg.dataset;
    d.frames = String(size);
    d.from = String(model.view.from);
    d.to = String(model.view.to);
    d.zoomed = String(model.zoomed);
    this.onDraw(model);
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

function markerParts({ height, pad, markers }) {
  return markers.flatMap((m) => [
    s("line", { class: `marker ${m.name}`, x1: m.x, x2: m.x, y1: pad.top, y2: height - pad.bottom, dataset: { time: String(m.time) } }),
    s("text", { class: "marker-label", x: m.x + 3, y: pad.top + 10, text: m.label }),
  ]);
}

/** The comparison's curves (dashed) and where it settles. */
function comparisonParts({ comparison: c, height, pad }, outcome) {
  if (!c) return [];
  const parts = [];
  if (c.progressPath) parts.push(s("path", { class: "series compare-progress", d: c.progressPath }));
  if (c.completionPath) parts.push(s("path", { id: "chart-compare", class: `series compare-completion ${outcome ?? ""}`, d: c.completionPath }));
  if (c.settleX !== null && c.settleX >= pad.left) {
    parts.push(s("line", { class: "marker compare-settle", x1: c.settleX, x2: c.settleX, y1: pad.top, y2: height - pad.bottom }));
  }
  return parts;
}

function playheadParts({ height, pad, playheadX }) {
  if (playheadX === null) return [];
  return [s("line", { class: "playhead", x1: playheadX, x2: playheadX, y1: pad.top, y2: height - pad.bottom })];
}

/** Draws `model` into `svg`, replacing what it showed; `outcome` and `summary` label the release. */
export function renderTimeline(svg, model, { outcome = null, summary = null, comparison = null } = {}) {
  const { width, height, pad } = model;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  // Curves outside the view (zoomed in) are clipped to the plot.
  const clip = s("clipPath", { id: "plot-clip" },
    s("rect", { x: pad.left, y: 0, width: Math.max(0, width - pad.left - pad.right), height }));
  const plotted = s("g", { "clip-path": "url(#plot-clip)" }, ...thresholdParts(model), ...markerParts(model),
    ...comparisonParts(model, comparison?.summary?.decision), ...seriesParts(model, outcome), ...landingParts(model));
  svg.replaceChildren(s("defs", {}, clip), ...axisParts(model), plotted, ...releaseParts(model, outcome, summary), ...playheadParts(model));
}

/** The legend shows only what the chart draws (legendKeys). */
export function showLegend(legend, model) {
  const keys = new Set(legendKeys(model));
  for (const key of legend.querySelectorAll(".key")) key.hidden = !keys.has(key.dataset.key);
}
