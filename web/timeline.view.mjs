// The timeline chart's DOM: renders a `chartModel` (chart.mjs) into an <svg> with DOM APIs,
// at most once per animation frame and again when the chart is resized; and its input: click
// or drag to seek, wheel or pinch to zoom, horizontal wheel (or shift) to pan, double-click to
// fit the whole replay. Over the chart, the readout (readout.mjs): a crosshair with the values
// under the mouse (hover), under a finger held still (long-press) or at a keyboard cursor, and
// a range measure (shift-drag, or any drag in measure mode). The readout is this page's own:
// it never seeks or pauses.
import { chartModel, fitView, landingLabel, legendKeys, legendSwatch, panView, releaseLabel, STROKES, timeAt, timeLabel, velocityLabel, zoomView } from "./chart.mjs";
import { h, s } from "./dom.view.mjs";
import { num } from "./format.mjs";
import { cursorKey, rangeRows, rangeStats, valueAt, valueRows } from "./readout.mjs";

/** Zoom per wheel pixel (a notch of 100 px zooms by e^0.2 ≈ 1.22×) and per key press. */
const WHEEL_ZOOM = 0.002;
export const KEY_ZOOM = 1.5;
/** A finger held this long without moving more than TOUCH_SLOP px reads values instead of seeking. */
const LONG_PRESS_MS = 450;
const TOUCH_SLOP = 8;
/** A measure narrower than this (px) was a click: it places the crosshair. */
const CLICK_PX = 3;
/** The keys the focused timeline keeps for its readout cursor (replay.view.mjs lets them through). */
export const CURSOR_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Escape"]);

/**
 * The chart in `svg`, drawn from what `read()` returns when the frame comes:
 * `{frames, size, release, playback, threshold, time, summary, markers, comparison}`.
 * `seek(time)` is called when the person clicks or drags on it (only when `canSeek()`);
 * `onDraw(model)` after each drawing (the legend follows what is drawn).
 */
export class Timeline {
  /**
   * `refused(action)` is called when a page that may not seek clicks or taps the chart (it
   * says so); `readoutEl` shows the readout's values as text.
   */
  constructor(svg, read, { seek = () => {}, canSeek = () => false, onDraw = () => {}, refused = () => {}, readoutEl = null } = {}) {
    this.svg = svg;
    this.read = read;
    this.seek = seek;
    this.canSeek = canSeek;
    this.onDraw = onDraw;
    this.refused = refused;
    this.readoutEl = readoutEl;
    this.pending = false;
    /** The time span shown, or null to fit the whole replay. */
    this.view = null;
    this.model = null;
    this.pointers = new Map();
    this.pinch = null;
    /** The readout: the time under the mouse, the time a press or the keyboard left it at, a range. */
    this.hover = null;
    this.pinned = null;
    this.range = null;
    this.measuring = false;
    /** What the pressed pointer does: `seek`, `inspect`, `measure`, or `pending` (a touch not yet a tap, drag or long-press). */
    this.gesture = null;
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
    svg.addEventListener("pointerdown", (e) => this.onDown(e));
    svg.addEventListener("pointermove", (e) => this.onMove(e));
    const lift = (e) => this.onLift(e);
    svg.addEventListener("pointerup", lift);
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("pointerleave", (e) => {
      if (e.pointerType !== "mouse" || this.hover === null) return;
      this.hover = null;
      this.showReadout();
    });
    // A long press would open a context menu on touch screens.
    svg.addEventListener("contextmenu", (e) => e.preventDefault());
    svg.addEventListener("dblclick", (e) => {
      e.preventDefault();
      this.fit();
    });
    svg.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    svg.addEventListener("keydown", (e) => this.onKey(e));
  }

  /** The time under a pointer event. */
  timeOf(e) {
    return timeAt(this.model, this.chartX(e.clientX));
  }

  onDown(e) {
    if (e.button !== 0 || !this.model) return;
    this.pointers.set(e.pointerId, e.clientX);
    this.svg.setPointerCapture?.(e.pointerId);
    if (this.pointers.size === 2) {
      this.endGesture();
      this.startPinch();
      return;
    }
    if (this.pointers.size !== 1) return;
    const t = this.timeOf(e);
    if (e.pointerType === "mouse") this.hover = t;
    if (this.measuring || e.shiftKey) {
      this.gesture = { kind: "measure", startX: e.clientX };
      this.range = { from: t, to: t };
    } else if (this.canSeek() && e.pointerType === "touch") {
      // A finger: a tap or a drag seeks; held still, it reads values instead.
      this.gesture = { kind: "pending", startX: e.clientX, timer: setTimeout(() => this.longPress(), LONG_PRESS_MS) };
    } else if (this.canSeek()) {
      this.gesture = { kind: "seek" };
      this.seek(t);
    } else {
      // A page that only watches reads values where it presses, and says why it did not seek.
      this.gesture = { kind: "inspect" };
      this.pinned = t;
      this.refused("seek");
    }
    this.showReadout();
  }

  longPress() {
    const g = this.gesture;
    if (g?.kind !== "pending") return;
    g.kind = "inspect";
    this.pinned = this.model ? timeAt(this.model, this.chartX(this.pointers.values().next().value)) : null;
    this.showReadout();
  }

  onMove(e) {
    if (!this.model) return;
    if (!this.pointers.has(e.pointerId)) {
      // A mouse over the chart with no button down: the crosshair follows it.
      if (e.pointerType === "mouse") {
        this.hover = this.timeOf(e);
        this.showReadout();
      }
      return;
    }
    this.pointers.set(e.pointerId, e.clientX);
    if (this.pinch) return this.movePinch();
    if (this.pointers.size !== 1) return;
    const t = this.timeOf(e);
    if (e.pointerType === "mouse") this.hover = t;
    const g = this.gesture;
    if (g?.kind === "pending" && Math.abs(e.clientX - g.startX) > TOUCH_SLOP) {
      clearTimeout(g.timer);
      g.kind = "seek";
      this.pinned = null;  // a finger that drags the playhead: no crosshair left at another time
    }
    if (g?.kind === "seek") this.seek(t);
    else if (g?.kind === "inspect") this.pinned = t;
    else if (g?.kind === "measure") this.range = { ...this.range, to: t };
    this.showReadout();
  }

  onLift(e) {
    if (!this.pointers.has(e.pointerId)) return;
    const g = this.gesture;
    if (g && this.pointers.size === 1 && this.model && e.type === "pointerup") {
      const t = this.timeOf(e);
      // A tap seeks when it lifts (a long press, or a scroll that took the finger, does not),
      // and takes away a crosshair an earlier long press left, which would read another time.
      if (g.kind === "pending") {
        this.pinned = null;
        this.seek(t);
      }
      if (g.kind === "measure" && Math.abs(e.clientX - g.startX) < CLICK_PX) {
        // A click in measure mode places the crosshair instead.
        this.range = null;
        this.pinned = t;
      }
    }
    this.endGesture();
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    this.showReadout();
  }

  endGesture() {
    if (this.gesture?.timer) clearTimeout(this.gesture.timer);
    this.gesture = null;
  }

  /**
   * The focused chart's keys move its readout cursor (one frame per arrow, ten with Page
   * keys, Home and End to the view's ends); with shift they stretch a range from it; Escape
   * clears the readout. None of them seeks.
   */
  onKey(e) {
    if (!this.model || !CURSOR_KEYS.has(e.key) || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (e.key === "Escape") return this.clearReadout();
    const input = this.read();
    const start = this.pinned ?? input.time ?? this.model.view.from;
    const next = cursorKey(e.key, start, { fps: input.playback?.fps, ...this.model.view });
    if (next === null) return;
    if (e.shiftKey) this.range = { from: this.range && this.range.to === start ? this.range.from : start, to: next };
    this.pinned = next;
    this.showReadout();
  }

  /** Measure mode: a drag (mouse or finger) measures instead of seeking. */
  setMeasuring(on) {
    this.measuring = on;
    this.svg.dataset.measuring = String(on);
  }

  clearReadout() {
    this.hover = null;
    this.pinned = null;
    this.range = null;
    this.showReadout();
  }

  /** The readout's values now: at the crosshair (`cursor`) and over the range, read off what the chart draws. */
  readout() {
    const { frames } = this.read();
    const axis = this.model?.axis ?? "y";
    const at = this.hover ?? this.pinned;
    const range = this.range && this.range.from !== this.range.to ? rangeStats(frames, this.range.from, this.range.to, axis) : null;
    return { cursor: at === null ? null : valueAt(frames, at, axis), range, axis, pinned: this.pinned !== null };
  }

  /** Redraws the crosshair and the range (not the chart), and the readout's text. */
  showReadout() {
    if (!this.model) return;
    const readout = this.readout();
    drawOverlay(this.svg, this.model, readout);
    if (this.readoutEl) showReadoutText(this.readoutEl, readout, () => this.clearReadout());
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
    this.showReadout();
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

/** The threshold lines, each labelled with its value and its setting (chart.mjs `thresholdMarks`). */
function thresholdParts({ width, pad, thresholdMarks: marks = [] }) {
  return marks.flatMap((m) => [
    s("line", { id: m.which === "b" ? "chart-compare-threshold" : "chart-threshold",
      class: `${m.which === "b" ? STROKES.comparedThreshold : STROKES.threshold} ${m.unit === "pt/s" ? "on-velocity" : ""}`,
      x1: pad.left, x2: width - pad.right, y1: m.y, y2: m.y, dataset: { value: String(m.value), which: m.which } }),
    s("text", { class: `threshold-label ${m.which === "b" ? "compared" : ""}`, x: width - pad.right - 4, y: m.below ? m.y + 12 : m.y - 4,
      "text-anchor": "end", dataset: { which: m.which }, text: m.label }),
  ]);
}

function seriesParts(model, outcome) {
  const parts = [];
  if (model.velocityPath) parts.push(s("path", { class: STROKES.velocity, d: model.velocityPath }));
  if (model.renderedPath) parts.push(s("path", { class: STROKES.drawn, d: model.renderedPath }));
  if (model.progressPath) parts.push(s("path", { id: "chart-progress", class: STROKES.progress, d: model.progressPath }));
  if (model.completionPath) parts.push(s("path", { class: `${STROKES.completion} ${outcome ?? ""}`, d: model.completionPath }));
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
    s("circle", { id: "chart-landing", class: STROKES.landing, cx: l.x + 14, cy: l.y, r: 4.5, dataset: { value: String(l.value) } }),
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
  if (c.progressPath) parts.push(s("path", { class: STROKES.compareProgress, d: c.progressPath }));
  if (c.completionPath) parts.push(s("path", { id: "chart-compare", class: `${STROKES.compareCompletion} ${outcome ?? ""}`, d: c.completionPath }));
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
  svg.replaceChildren(s("defs", {}, clip), ...axisParts(model), plotted, ...releaseParts(model, outcome, summary), ...playheadParts(model),
    ...sameCurveParts(model));
  svg.dataset.sameCurve = String(model.comparison?.same ?? "");
}

/** When the compared curve lies under the playing one, the chart says so. */
function sameCurveParts({ comparison: c, pad }) {
  if (!c?.same) return [];
  // Under the markers' labels (touch-down, release), which sit at the top of the plot.
  return [s("text", { id: "chart-same-curve", class: "same-curve-label", x: pad.left + 6, y: pad.top + 28, text: "same curve: A and B coincide" })];
}

/** The crosshair and the range measure, over the chart (redrawn alone as the pointer moves). */
export function drawOverlay(svg, model, { cursor, range }) {
  svg.querySelector("#chart-overlay")?.remove();
  const { height, pad, width, x } = model;
  const top = pad.top;
  const bottom = height - pad.bottom;
  const inView = (t) => t >= model.view.from - 1e-9 && t <= model.view.to + 1e-9;
  const clampX = (px) => Math.min(width - pad.right, Math.max(pad.left, px));
  const parts = [];
  if (range) {
    const x0 = clampX(x(range.from));
    const x1 = clampX(x(range.to));
    parts.push(s("rect", { id: "chart-measure", class: "measure-range", x: x0, y: top, width: Math.max(0, x1 - x0), height: bottom - top,
      dataset: { from: String(range.from), to: String(range.to) } }));
    for (const [t, px] of [[range.from, x0], [range.to, x1]]) {
      if (inView(t)) parts.push(s("line", { class: "measure-edge", x1: px, x2: px, y1: top, y2: bottom }));
    }
    const right = (x0 + x1) / 2 < width * 0.6;
    parts.push(s("text", { class: "measure-label", x: right ? x0 + 4 : x1 - 4, y: top + 24, "text-anchor": right ? "start" : "end",
      text: `Δt ${num(range.dt, 3)} s · Δp ${num(range.progress, 3)}` }));
  }
  if (cursor && inView(cursor.time)) {
    const cx = x(cursor.time);
    parts.push(s("line", { id: "chart-crosshair", class: "crosshair", x1: cx, x2: cx, y1: top, y2: bottom, dataset: { time: String(cursor.time) } }));
    parts.push(s("circle", { class: "crosshair-dot progress", cx, cy: model.yP(cursor.progress), r: 3.5 }));
    if (model.renderedPath) parts.push(s("circle", { class: "crosshair-dot drawn", cx, cy: model.yP(cursor.drawn), r: 3 }));
    if (cursor.velocity !== null) parts.push(s("circle", { class: "crosshair-dot velocity", cx, cy: model.yV(cursor.velocity), r: 3 }));
    // Its time on the time axis, over the ticks (clear of the release label inside the plot).
    const label = `${cursor.time.toFixed(3)} s`;
    const half = label.length * 3.4 + 4;
    const tx = Math.min(width - half, Math.max(half, cx));
    parts.push(s("rect", { class: "crosshair-tag", x: tx - half, y: height - 19, width: 2 * half, height: 17, rx: 4 }));
    parts.push(s("text", { class: "crosshair-label", x: tx, y: height - 6, "text-anchor": "middle", text: label }));
  }
  svg.append(s("g", { id: "chart-overlay", class: "overlay" }, ...parts));
}

/** One row of the readout's text, its numbers kept whole in data attributes (`data-progress`, …). */
function readoutRow(kind, title, rows, extra = []) {
  const dataset = { kind };
  for (const r of rows) dataset[r.key] = r.value === null || r.value === undefined ? "" : String(r.value);
  // The row's title and its buttons ("clear") come first, on the row's first line: at the end
  // they wrapped onto a line of their own and pushed what is under the chart down.
  return h("div", { class: `readout-row ${kind}`, dataset },
    h("span", { class: "readout-title", text: title }),
    ...extra,
    ...rows.map((r) => h("span", { class: "readout-value", dataset: { key: r.key } },
      r.label ? h("span", { class: "readout-key", text: r.label }) : null, r.label ? ` ${r.text}` : r.text)));
}

/** The readout's values as text under the chart; a hint while there are none. */
export function showReadoutText(el, { cursor, range, axis, pinned }, clear) {
  // Redrawn only when it changes (it is a live region: a screen reader reads each change).
  const signature = JSON.stringify([cursor, range, pinned]);
  if (el.dataset.signature === signature) return;
  el.dataset.signature = signature;
  // The range first, with its "clear": the crosshair's row below it comes and goes with the
  // mouse, and must not move the button the mouse is going to.
  // A finger's lift clears too: after a measuring drag on the chart, Chromium's touch emulation
  // was seen to dispatch the tap's pointer and touch events to the button but no click.
  const clearButton = () => h("button", {
    type: "button", class: "link readout-clear", text: "clear", title: "clear the readout (Esc)", onclick: clear,
    onpointerup: (e) => { if (e.pointerType === "touch") clear(); },
  });
  const rows = [];
  if (range) rows.push(readoutRow("range", "measure", rangeRows(range, axis), [clearButton()]));
  if (cursor) rows.push(readoutRow("cursor", "at", valueRows(cursor).filter((r) => r.key !== "translation"), range || !pinned ? [] : [clearButton()]));
  if (!rows.length) rows.push(h("span", { class: "hint readout-hint", text: "values: hover, long-press or focus the chart and use ← → · measure: shift-drag, or measure then drag" }));
  el.replaceChildren(...rows);
  el.dataset.cursor = String(Boolean(cursor));
  el.dataset.range = String(Boolean(range));
}

/**
 * The legend shows only what the chart draws (legendKeys), each key's sample drawn with its
 * line's own classes (chart.mjs `legendSwatch`), so key and line look the same.
 */
export function showLegend(legend, model) {
  const keys = new Set(legendKeys(model));
  for (const key of legend.querySelectorAll(".key")) {
    key.hidden = !keys.has(key.dataset.key);
    if (key.hidden) continue;
    const swatch = legendSwatch(key.dataset.key, model);
    const signature = swatch.map((p) => p.class).join("|");
    if (key.dataset.swatch === signature) continue;
    key.dataset.swatch = signature;
    key.querySelector(".swatch")?.remove();
    const width = 22 * swatch.length;
    key.prepend(s("svg", { class: "swatch", width, height: 10, viewBox: `0 0 ${width} 10`, "aria-hidden": "true" },
      ...swatch.map((p, i) => (p.shape === "dot"
        ? s("circle", { class: p.class, cx: 11 + 22 * i, cy: 5, r: 4 })
        : s("line", { class: p.class, x1: 1 + 22 * i, x2: 21 + 22 * i, y1: 5, y2: 5 })))));
  }
}
