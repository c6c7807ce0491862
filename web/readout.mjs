// Values read off the replay at a time, and between two times: what the playhead readout
// beside the stage, the timeline's crosshair and its range measure show. The frames are the
// timeline's (chart.mjs `FrameSeries.frames`: the load's `series` points, in time order), so a
// value read here is the value the chart draws at that time. Pure.
import { num } from "./format.mjs";
import { velocityLabel } from "./chart.mjs";

const AFTER_RELEASE = new Set(["completing", "finished", "cancelled"]);

/** Whether the finger is on the screen at a frame (the chart draws velocity only there). */
const fingerDown = (f) => Boolean(f?.gesture) && !AFTER_RELEASE.has(f.phase);

/** The index of the last frame at or before `time` (−1 when `time` is before the first). */
function indexAtOrBefore(frames, time) {
  let lo = 0;
  let hi = frames.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid].time <= time + 1e-9) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

const lerp = (a, b, f) => a + (b - a) * f;

/**
 * The replay's values at `time` along `axis` (`"x"` or `"y"`), joined linearly between the two
 * frames around it (the chart joins its points with straight lines, so this is the value on
 * the drawn curve); clamped to the first and last frame. `phase` is the phase of the frame at
 * or before `time`. `translation` and `velocity` are null where the finger is not down (the
 * chart draws no velocity there): at a frame after the release, or between the last frame
 * with the finger down and the first without. Null when there are no frames.
 */
export function valueAt(frames, time, axis = "y") {
  if (!frames?.length || !Number.isFinite(time)) return null;
  const t = Math.min(frames.at(-1).time, Math.max(frames[0].time, time));
  const i = Math.max(0, indexAtOrBefore(frames, t));
  const a = frames[i];
  const b = frames[Math.min(i + 1, frames.length - 1)];
  const f = b.time > a.time ? (t - a.time) / (b.time - a.time) : 0;
  const exact = f < 1e-9;
  const both = fingerDown(a) && (exact || fingerDown(b));
  const pick = (get) => (exact ? get(a) : lerp(get(a), get(b), f));
  return {
    time: t,
    phase: a.phase,
    progress: pick((x) => x.progress),
    drawn: pick((x) => x.rendered_progress),
    axis,
    translation: both ? pick((x) => x.gesture.translation[axis]) : null,
    velocity: both ? pick((x) => x.gesture.velocity[axis]) : null,
  };
}

/**
 * What changes between two times (in either order), along `axis`: `{from, to, dt, progress,
 * drawn, translation, velocity}`, each a difference `to − from` but `velocity`, the mean of
 * the velocity curve (the estimator's, as the chart draws it) over the part of the range where
 * the finger is down, by the trapezoid rule on the frames inside the range; null where the
 * finger is down for none of it, and `translation` null unless it is down at both ends.
 */
export function rangeStats(frames, t0, t1, axis = "y") {
  if (!frames?.length || !Number.isFinite(t0) || !Number.isFinite(t1)) return null;
  const a = valueAt(frames, Math.min(t0, t1), axis);
  const b = valueAt(frames, Math.max(t0, t1), axis);
  return {
    from: a.time,
    to: b.time,
    dt: b.time - a.time,
    progress: b.progress - a.progress,
    drawn: b.drawn - a.drawn,
    translation: a.translation !== null && b.translation !== null ? b.translation - a.translation : null,
    velocity: meanVelocity(frames, a, b, axis),
  };
}

/** The time mean of the velocity curve between two read values, where the finger is down. */
function meanVelocity(frames, a, b, axis) {
  const inside = frames.filter((f) => f.time > a.time + 1e-9 && f.time < b.time - 1e-9);
  const points = [a, ...inside.map((f) => ({ time: f.time, velocity: fingerDown(f) ? f.gesture.velocity[axis] : null })), b];
  let area = 0;
  let covered = 0;
  for (let i = 1; i < points.length; i++) {
    const p = points[i - 1];
    const q = points[i];
    if (p.velocity === null || q.velocity === null) continue;
    area += ((p.velocity + q.velocity) / 2) * (q.time - p.time);
    covered += q.time - p.time;
  }
  if (covered > 0) return area / covered;
  // A range narrower than a frame where the finger is down: the curve's value there.
  return a.velocity !== null && b.velocity !== null ? (a.velocity + b.velocity) / 2 : null;
}

const signed = (v, digits) => (Number.isFinite(v) ? `${v > 0 ? "+" : v < 0 ? "−" : "±"}${num(Math.abs(v), digits)}` : "–");
const velocityText = (v) => (Number.isFinite(v) ? `${velocityLabel(v)} pt/s` : "–");

/**
 * The readout's rows for a value (valueAt): `[{key, label, text, value}]`, `value` the number
 * behind the text (for tests and screen readers). `lifted` says why translation and velocity
 * have no value after the release.
 */
export function valueRows(v) {
  if (!v) return [];
  const lifted = "lifted";
  return [
    { key: "time", label: "time", text: `${v.time.toFixed(3)} s`, value: v.time },
    { key: "phase", label: "phase", text: v.phase, value: v.phase },
    { key: "progress", label: "progress", text: num(v.progress, 3), value: v.progress },
    { key: "drawn", label: "drawn", text: num(v.drawn, 3), value: v.drawn },
    { key: "translation", label: `finger ${v.axis}`, text: v.translation === null ? lifted : `${num(v.translation, 1)} pt`, value: v.translation },
    { key: "velocity", label: `velocity ${v.axis}`, text: v.velocity === null ? lifted : velocityText(v.velocity), value: v.velocity },
  ];
}

/** The range measure's rows (rangeStats), differences signed. */
export function rangeRows(r, axis = "y") {
  if (!r) return [];
  return [
    { key: "span", label: "", text: `${r.from.toFixed(3)} → ${r.to.toFixed(3)} s`, value: `${r.from},${r.to}` },
    { key: "dt", label: "Δt", text: `${num(r.dt, 3)} s`, value: r.dt },
    { key: "progress", label: "Δprogress", text: signed(r.progress, 3), value: r.progress },
    { key: "drawn", label: "Δdrawn", text: signed(r.drawn, 3), value: r.drawn },
    { key: "translation", label: `Δfinger ${axis}`, text: r.translation === null ? "–" : `${signed(r.translation, 1)} pt`, value: r.translation },
    { key: "velocity", label: `mean velocity ${axis}`, text: velocityText(r.velocity), value: r.velocity },
  ];
}

/**
 * Where a keyboard moves the timeline's readout cursor: one frame per arrow (ten with Page
 * keys), the view's ends with Home and End; null for a key the cursor does not use.
 */
export function cursorKey(key, time, { fps = 60, from, to }) {
  const frame = 1 / (fps || 60);
  const clamp = (t) => Math.min(to, Math.max(from, t));
  switch (key) {
    case "ArrowLeft": return clamp(time - frame);
    case "ArrowRight": return clamp(time + frame);
    case "PageDown": return clamp(time - 10 * frame);
    case "PageUp": return clamp(time + 10 * frame);
    case "Home": return from;
    case "End": return to;
    default: return null;
  }
}
