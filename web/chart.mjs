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
export function chartModel({ frames, playback, release = null, threshold = null, width, height, time = null }) {
  const pad = { left: 40, right: 52, top: 12, bottom: 24 };
  const start = playback?.start ?? 0;
  const end = Math.max(playback?.end ?? 1, start + 1e-3);
  const x = linearScale([start, end], [pad.left, width - pad.right]);
  const decision = release?.decision ?? null;
  const basis = decision?.basis ?? null;
  const velocityBasis = basis === "velocity";
  const shownThreshold = decision && !velocityBasis ? decision.threshold : velocityBasis ? null : threshold;

  const progressValues = frames.flatMap((f) => [f.progress, f.rendered_progress]);
  const extra = [0, 1];
  if (Number.isFinite(shownThreshold)) extra.push(shownThreshold);
  if (basis === "projection") extra.push(decision.statistic);
  const [pMin, pMax] = extent(progressValues, extra);
  const yP = linearScale([pMin, pMax], [height - pad.bottom, pad.top]);

  const axis = dominantAxis(frames);
  const velocities = frames.filter((f) => f.gesture).map((f) => f.gesture.velocity[axis]);
  const vExtra = [0];
  if (velocityBasis) vExtra.push(decision.threshold, decision.statistic);
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

  const model = {
    width, height, pad, x, yP, yV, axis,
    xTicks: niceTicks(start, end, Math.max(2, Math.floor((width - pad.left - pad.right) / 70))).map((t) => ({ value: t, x: x(t) })),
    pTicks: niceTicks(pMin, pMax, 4).map((v) => ({ value: v, y: yP(v) })),
    vTicks: vTicks.map((v) => ({ value: v, y: yV(v) })),
    progressPath: line(before.map((f) => [x(f.time), yP(f.progress)])),
    completionPath: line(completion.map((f) => [x(f.time), yP(f.progress)])),
    renderedPath: frames.some((f) => Math.abs(f.rendered_progress - f.progress) > 1e-6)
      ? line(frames.map((f) => [x(f.time), yP(f.rendered_progress)])) : "",
    velocityPath: line(frames.filter((f) => f.gesture && !isAfterRelease(f)).map((f) => [x(f.time), yV(f.gesture.velocity[axis])])),
    releaseX: Number.isFinite(releaseTime) ? x(releaseTime) : null,
    threshold: null,
    landing: null,
    playheadX: Number.isFinite(time) ? x(Math.min(end, Math.max(start, time))) : null,
  };
  if (Number.isFinite(shownThreshold)) {
    model.threshold = { value: shownThreshold, y: yP(shownThreshold), unit: "progress" };
  } else if (velocityBasis) {
    model.threshold = { value: decision.threshold, y: yV(decision.threshold), unit: "pt/s" };
  }
  if (basis === "projection" && model.releaseX !== null) {
    const fromProgress = releaseFrame ? releaseFrame.progress : before.length ? before[before.length - 1].progress : decision.statistic;
    model.landing = {
      x: model.releaseX, y: yP(decision.statistic), fromY: yP(fromProgress), value: decision.statistic,
    };
  }
  return model;
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
