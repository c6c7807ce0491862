// The replay's timeline chart as numbers and SVG path strings: scales, ticks, series.
// Pure; the DOM layer (timeline.view.mjs) turns the model into elements.
import { num } from "./format.mjs";
import { fmt } from "./geometry.mjs";

/** A linear map from `[d0, d1]` to `[r0, r1]`, with `invert`. A zero-width domain maps to the middle. */
export function linearScale([d0, d1], [r0, r1]) {
  const span = d1 - d0;
  const map = (v) => (span === 0 ? (r0 + r1) / 2 : r0 + ((v - d0) / span) * (r1 - r0));
  map.invert = (r) => (r1 === r0 ? d0 : d0 + ((r - r0) / (r1 - r0)) * span);
  map.domain = [d0, d1];
  map.range = [r0, r1];
  return map;
}

/** "Nice" tick values (1, 2, 5 × 10^n steps) covering `[min, max]` with about `count` ticks. */
export function niceTicks(min, max, count = 5) {
  if (!(Number.isFinite(min) && Number.isFinite(max)) || count < 1) return [];
  if (min === max) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Math.round(v / step) * step === 0 ? 0 : Number((Math.round(v / step) * step).toPrecision(12)));
  }
  return ticks;
}

/** `[min, max]` of numbers, widened to include `include`; `[0, 1]` for none. */
export function extent(values, include = []) {
  const all = [...values, ...include].filter(Number.isFinite);
  if (all.length === 0) return [0, 1];
  return [Math.min(...all), Math.max(...all)];
}

/** A `series` message's point as the frame-like record the chart and the finger read. */
export function seriesFrame(point) {
  const frame = { time: point.time, phase: point.phase, progress: point.progress, rendered_progress: point.rendered_progress, fromSeries: true };
  if (point.translation) frame.gesture = { translation: point.translation, velocity: point.velocity ?? { x: 0, y: 0 } };
  return frame;
}

/**
 * Frames of one load kept once per time, in time order (a looping replay sends them again).
 * The load's `series` (the whole replay, sent at once) fills it; frames that arrive later do
 * not replace its points, whose velocity is the estimator's at that instant.
 */
export class FrameSeries {
  constructor() {
    this.byTime = new Map();
    this.release = null;
    this.whole = null;
  }
  add(frame) {
    const key = Math.round(frame.time * 1e6);
    if (frame.release) this.release = frame.release;
    if (this.byTime.get(key)?.fromSeries) return;
    this.byTime.set(key, frame);
    this._sorted = null;
  }
  /** The whole replay (a `series` message's `series`): its points, markers and keyframes. */
  addWhole(series) {
    this.whole = series;
    for (const point of series.points) this.byTime.set(Math.round(point.time * 1e6), seriesFrame(point));
    if (series.release_report) this.release = series.release_report;
    this._sorted = null;
  }
  /** Touch-down, release and settle times, once the series has come. */
  get markers() {
    return this.whole ? { touchDown: this.whole.touch_down, release: this.whole.release, settle: this.whole.settle } : null;
  }
  get frames() {
    this._sorted ??= [...this.byTime.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    return this._sorted;
  }
  get size() {
    return this.byTime.size;
  }
}

/** The gesture axis that moves most: `"x"` or `"y"`. */
export function dominantAxis(frames) {
  let x = 0;
  let y = 0;
  for (const f of frames) {
    if (!f.gesture) continue;
    x = Math.max(x, Math.abs(f.gesture.velocity.x), Math.abs(f.gesture.translation.x));
    y = Math.max(y, Math.abs(f.gesture.velocity.y), Math.abs(f.gesture.translation.y));
  }
  return x > y ? "x" : "y";
}

const isAfterRelease = (f) => f.phase === "completing" || f.phase === "finished" || f.phase === "cancelled";

/**
 * Everything the timeline draws, in pixels of a `width` × `height` box.
 *
 * - `frames`: the frame states received for the current load, in time order.
 * - `playback`: `{start, end, release, time}`; `release`: the release frame's `release`
 *   (decision with `statistic`, `threshold`, `basis`), when it has arrived.
 * - `threshold`: the threshold to show before the release frame arrives (the parameters').
 */
export function chartModel({ frames, playback, release = null, threshold = null, width, height, time = null, view = null, markers = null, comparison = null }) {
  const pad = { left: 40, right: 52, top: 12, bottom: 24 };
  const whole = fitView(playback);
  const { from: start, to: end } = view ?? whole;
  const x = linearScale([start, end], [pad.left, width - pad.right]);
  const decision = release?.decision ?? null;
  const basis = decision?.basis ?? null;
  const velocityBasis = basis === "velocity";
  const shownThreshold = decision && !velocityBasis ? decision.threshold : velocityBasis ? null : threshold;

  const compared = comparison?.frames ?? [];
  const comparedDecision = comparison?.release?.decision ?? null;
  const comparedOnVelocity = comparedDecision?.basis === "velocity";
  const progressValues = [...frames, ...compared].flatMap((f) => [f.progress, f.rendered_progress]);
  const extra = [0, 1];
  if (Number.isFinite(shownThreshold)) extra.push(shownThreshold);
  if (basis === "projection") extra.push(decision.statistic);
  if (comparedDecision && !comparedOnVelocity && Number.isFinite(comparedDecision.threshold)) extra.push(comparedDecision.threshold);
  const [pMin, pMax] = extent(progressValues, extra);
  const yP = linearScale([pMin, pMax], [height - pad.bottom, pad.top]);

  const axis = dominantAxis(frames);
  const velocities = frames.filter((f) => f.gesture).map((f) => f.gesture.velocity[axis]);
  const vExtra = [0];
  if (velocityBasis) vExtra.push(decision.threshold, decision.statistic);
  if (comparedOnVelocity && Number.isFinite(comparedDecision.threshold)) vExtra.push(comparedDecision.threshold);
  let [vMin, vMax] = extent(velocities, vExtra);
  if (vMin === vMax) [vMin, vMax] = [vMin - 1, vMax + 1];
  const vTicks = niceTicks(vMin, vMax, 4);
  const yV = linearScale([Math.min(vMin, vTicks[0]), Math.max(vMax, vTicks[vTicks.length - 1])], [height - pad.bottom, pad.top]);

  const line = (points) => points.map((p, i) => `${i ? "L" : "M"}${fmt(p[0])} ${fmt(p[1])}`).join(" ");
  const before = frames.filter((f) => !isAfterRelease(f));
  const after = frames.filter(isAfterRelease);
  // The completion curve starts where the gesture left off.
  const completion = before.length && after.length ? [before[before.length - 1], ...after] : after;
  const releaseTime = playback?.release;
  const releaseFrame = frames.find((f) => f.release) ?? null;

  const plotRight = width - pad.right;
  const inPlot = (px) => px >= pad.left - 0.5 && px <= plotRight + 0.5;
  const model = {
    width, height, pad, x, yP, yV, axis, view: { from: start, to: end }, zoomed: Boolean(view) && (start > whole.from + 1e-9 || end < whole.to - 1e-9),
    markers: markerLines(markers, x).filter((m) => inPlot(m.x)),
    comparison: comparison ? comparisonPaths(comparison, x, yP, line) : null,
    xTicks: niceTicks(start, end, Math.max(2, Math.floor((width - pad.left - pad.right) / 70))).map((t) => ({ value: t, x: x(t) })),
    pTicks: niceTicks(pMin, pMax, 4).map((v) => ({ value: v, y: yP(v) })),
    vTicks: vTicks.map((v) => ({ value: v, y: yV(v) })),
    progressPath: line(before.map((f) => [x(f.time), yP(f.progress)])),
    completionPath: line(completion.map((f) => [x(f.time), yP(f.progress)])),
    renderedPath: frames.some((f) => Math.abs(f.rendered_progress - f.progress) > 1e-6)
      ? line(frames.map((f) => [x(f.time), yP(f.rendered_progress)])) : "",
    velocityPath: line(frames.filter((f) => f.gesture && !isAfterRelease(f)).map((f) => [x(f.time), yV(f.gesture.velocity[axis])])),
    releaseX: Number.isFinite(releaseTime) && inPlot(x(releaseTime)) ? x(releaseTime) : null,
    threshold: null,
    landing: null,
    playheadX: Number.isFinite(time) && time >= start - 1e-9 && time <= end + 1e-9 ? x(time) : null,
  };
  if (Number.isFinite(shownThreshold)) {
    model.threshold = { value: shownThreshold, y: yP(shownThreshold), unit: "progress" };
  } else if (velocityBasis) {
    model.threshold = { value: decision.threshold, y: yV(decision.threshold), unit: "pt/s" };
  }
  if (model.comparison && comparedDecision && Number.isFinite(comparedDecision.threshold)) {
    const value = comparedDecision.threshold;
    model.comparison.threshold = comparedOnVelocity ? { value, y: yV(value), unit: "pt/s" } : { value, y: yP(value), unit: "progress" };
  }
  model.thresholdMarks = thresholdMarks(model, comparison);
  if (basis === "projection" && model.releaseX !== null) {
    const fromProgress = releaseFrame ? releaseFrame.progress : before.length ? before[before.length - 1].progress : decision.statistic;
    model.landing = {
      x: model.releaseX, y: yP(decision.statistic), fromY: yP(fromProgress), value: decision.statistic,
    };
  }
  return model;
}

/** The whole replay's time span, from touch-down to settle: what "fit" shows. */
export function fitView(playback) {
  const from = playback?.start ?? 0;
  return { from, to: Math.max(playback?.end ?? 1, from + 1e-3) };
}

/** The narrowest view: five frames, and never under 10 ms. */
const minimumSpan = (playback) => Math.max(0.01, 5 / (playback?.fps || 60));

/** `view` zoomed by `factor` (> 1 zooms in) about time `at`, kept inside the replay. */
export function zoomView(view, at, factor, playback) {
  const whole = fitView(playback);
  const wholeSpan = whole.to - whole.from;
  const span = Math.min(wholeSpan, Math.max(minimumSpan(playback), (view.to - view.from) / factor));
  const f = view.to > view.from ? (at - view.from) / (view.to - view.from) : 0.5;
  return clampView({ from: at - f * span, to: at - f * span + span }, whole);
}

/** `view` moved by `dt` seconds, kept inside the replay. */
export const panView = (view, dt, playback) => clampView({ from: view.from + dt, to: view.to + dt }, fitView(playback));

function clampView(view, whole) {
  const span = Math.min(view.to - view.from, whole.to - whole.from);
  const from = Math.min(Math.max(view.from, whole.from), whole.to - span);
  return { from, to: from + span };
}

/** The time under a pixel `px` of the chart (clamped to the view). */
export function timeAt(model, px) {
  const t = model.x.invert(px);
  return Math.min(model.view.to, Math.max(model.view.from, t));
}

const MARKERS = [["touchDown", "down"], ["release", "release"], ["settle", "settle"]];

/** Marker lines for touch-down, release and settle: `{name, label, time, x}`. */
function markerLines(markers, x) {
  if (!markers) return [];
  return MARKERS.filter(([key]) => Number.isFinite(markers[key])).map(([key, label]) => ({ name: key, label, time: markers[key], x: x(markers[key]) }));
}

/** The comparison's progress, completion and release, on the chart's scales. */
function comparisonPaths({ frames, markers, summary, same }, x, yP, line) {
  const before = frames.filter((f) => !isAfterRelease(f));
  const after = frames.filter(isAfterRelease);
  const completion = before.length && after.length ? [before[before.length - 1], ...after] : after;
  return {
    progressPath: line(before.map((f) => [x(f.time), yP(f.progress)])),
    completionPath: line(completion.map((f) => [x(f.time), yP(f.progress)])),
    settleX: Number.isFinite(markers?.settle) ? x(markers.settle) : null,
    outcome: summary?.decision ?? null,
    same: same ?? null,
    threshold: null,
  };
}

/** Labels closer than this (px) would overlap: one line says both. */
const LABEL_GAP = 12;

/**
 * The threshold lines to draw, each with its label: the playing setting's (`a`) and, with a
 * comparison, the compared one's (`b`), each naming its value and its setting (`A` playing,
 * `B` compared, with the setting's name when the plot has room). Two equal thresholds are one
 * line labelled for both. The upper line is labelled above it, the lower below, so two close
 * lines keep their labels apart.
 */
export function thresholdMarks(model, comparison) {
  const a = model.threshold;
  const b = model.comparison?.threshold ?? null;
  const room = Math.floor((model.width - model.pad.left - model.pad.right) / 6.5);
  const named = (tag, name) => (name ? `${tag} ${name}` : tag);
  const fit = (full, short) => (full.length <= room ? full : short);
  if (!b) return a ? [{ ...a, which: "a", label: thresholdLabel(a) }] : [];
  const aName = comparison?.playingName ?? null;
  const bName = comparison?.name ?? null;
  if (!a) return [{ ...b, which: "b", below: false, label: fit(`${thresholdLabel(b)} · ${named("B", bName)}`, `${thresholdLabel(b)} · B`) }];
  if (a.unit === b.unit && Math.abs(a.value - b.value) < 1e-9) {
    return [{ ...a, which: "both", below: false, label: fit(`${thresholdLabel(a)} · A and B (the same threshold)`, `${thresholdLabel(a)} · A and B`) }];
  }
  const close = Math.abs(a.y - b.y) < LABEL_GAP;
  const aUpper = a.y <= b.y;
  // Both named, or (when either name does not fit) both by letter only, so the two read alike.
  const full = [`${thresholdLabel(a)} · ${named("A", aName)}`, `${thresholdLabel(b)} · ${named("B", bName)}`];
  const [aLabel, bLabel] = full.every((l) => l.length <= room) ? full : [`${thresholdLabel(a)} · A`, `${thresholdLabel(b)} · B`];
  return [
    { ...a, which: "a", below: close && !aUpper, label: aLabel },
    { ...b, which: "b", below: close && aUpper, label: bLabel },
  ];
}

/**
 * The legend's keys: only what the chart draws. `projected` for a projection decision,
 * `drawn` when the drawn progress differs from the progress, `compare` with a comparison.
 */
export function legendKeys(model) {
  const keys = ["progress", "completion", "velocity"];
  if (model.renderedPath) keys.push("drawn");
  if (model.threshold) keys.push("threshold");
  if (model.landing) keys.push("projected");
  if (model.comparison) keys.push("compare");
  if (model.comparison?.threshold && !(model.thresholdMarks ?? []).some((m) => m.which === "both")) keys.push("compare-threshold");
  return keys;
}

/**
 * The class each drawn thing has on the chart: the timeline draws its lines with these, and
 * the legend draws each key's sample with the very same classes, so a key's colour, dash,
 * width and opacity are its line's (one CSS rule styles both).
 */
export const STROKES = {
  progress: "series progress",
  completion: "series completion",
  drawn: "series rendered",
  velocity: "series velocity",
  threshold: "threshold",
  comparedThreshold: "threshold compared",
  landing: "landing",
  compareProgress: "series compare-progress",
  compareCompletion: "series compare-completion",
};

/**
 * Each legend key's sample: the shapes to draw (`line` or `dot`) with their line's class
 * (STROKES); the compared completion takes its decision's colour as on the chart.
 */
export function legendSwatch(key, model = null) {
  const outcome = model?.comparison?.outcome ? ` ${model.comparison.outcome}` : "";
  switch (key) {
    case "progress": return [{ shape: "line", class: STROKES.progress }];
    case "completion": return [{ shape: "line", class: STROKES.completion }];
    case "drawn": return [{ shape: "line", class: STROKES.drawn }];
    case "velocity": return [{ shape: "line", class: STROKES.velocity }];
    case "threshold": return [{ shape: "line", class: STROKES.threshold }];
    case "compare-threshold": return [{ shape: "line", class: STROKES.comparedThreshold }];
    case "projected": return [{ shape: "dot", class: STROKES.landing }];
    case "compare": return [{ shape: "line", class: STROKES.compareProgress }, { shape: "line", class: `${STROKES.compareCompletion}${outcome}` }];
    default: return [];
  }
}

/** One decimal for seconds under 10, as a tick label. */
export const timeLabel = (t) => `${Number(t.toFixed(2))}s`;

/** A velocity tick label: 1200 → "1.2k". */
export function velocityLabel(v) {
  const a = Math.abs(v);
  if (a >= 1000) return `${Number((v / 1000).toFixed(1))}k`;
  return String(Number(v.toFixed(a < 10 ? 1 : 0)));
}

/** The threshold line's label: `θ 0.5`, or `θ 300 pt/s` on the velocity scale. */
export const thresholdLabel = (threshold) => `θ ${num(threshold.value, 3)}${threshold.unit === "pt/s" ? " pt/s" : ""}`;

/** The release line's label: the decision and its margin once the summary has come. */
export function releaseLabel(summary) {
  if (!summary) return "release";
  return `release · ${summary.decision}${Number.isFinite(summary.margin) ? ` by ${num(summary.margin, 3)}` : ""}`;
}

/** The projected landing point's label. */
export const landingLabel = (value) => `projected ${num(value, 2)}`;
