// Comparing two settings of the same gesture (the Replay tab's "compare with"): what to ask the
// server for, and the two lines under the menu. Pure.
import { seriesFrame } from "./chart.mjs";
import { valueAt } from "./readout.mjs";
import { num } from "./format.mjs";
import * as P from "./protocol.mjs";

/** The `compare` message for `choice` (`"defaults"` or a preset's name) over what plays; null for none. */
export function compareMessage(choice, playback) {
  if (!choice || !playback) return null;
  if (choice === "defaults") return P.compare(playback.recording, playback.preset, {});
  return P.compare(playback.recording, choice, {});
}

/**
 * Why `choice` cannot be compared (an address's `cmp=` naming no preset the server has), or
 * null: such a choice is said, not asked for and left "computing…" for ever.
 */
export function compareProblem(choice, presets) {
  if (!choice || choice === "defaults" || (presets ?? []).length === 0) return null;
  if (presets.some((p) => p.name === choice)) return null;
  return `dashed: nothing to compare with: no preset is called "${choice}" (choose one in the menu)`;
}

/** Whether a comparison answers `choice` for the recording that plays now. */
export function comparisonFits(comparison, choice, playback) {
  if (!comparison || !choice || !playback || comparison.recording !== playback.recording) return false;
  const preset = choice === "defaults" ? playback.preset : choice;
  return comparison.preset === preset && (choice !== "defaults" || Object.keys(comparison.parameters ?? {}).length === 0);
}

/**
 * What the chart draws of a comparison: its frames, settle marker, summary and release (whose
 * decision's threshold is drawn beside the playing one's), and both settings' names (`name`
 * the compared one, `playingName` the one playing, from `playback`) for the threshold labels.
 */
export function comparisonChart(comparison, playback = null) {
  if (!comparison) return null;
  const series = comparison.series;
  return {
    frames: series.points.map(seriesFrame), markers: { settle: series.settle }, summary: comparison.summary,
    release: series.release_report ?? null,
    name: settingName(comparison.preset, comparison.parameters),
    playingName: playback ? settingName(playback.preset, playback.parameters) : null,
  };
}

/**
 * Two progress curves closer than this everywhere coincide: a thousandth of the progress
 * range, under a fifth of a pixel on the timeline, and far under the 0.01 a threshold slider
 * steps by — a difference a person could see or act on is larger.
 */
export const SAME_CURVE_EPSILON = 1e-3;

/**
 * How far apart two replays' progress curves are over the time both cover: the largest
 * |progress a − progress b| at every frame time of either inside the overlap, each curve read
 * on its straight segments (readout.mjs `valueAt`), with the overlap `{from, to}`; null when
 * the two do not overlap.
 */
export function curveDifference(a, b) {
  if (!a?.length || !b?.length) return null;
  const from = Math.max(a[0].time, b[0].time);
  const to = Math.min(a.at(-1).time, b.at(-1).time);
  if (to < from) return null;
  let max = 0;
  for (const f of [...a, ...b]) {
    if (f.time < from - 1e-9 || f.time > to + 1e-9) continue;
    max = Math.max(max, Math.abs(valueAt(a, f.time).progress - valueAt(b, f.time).progress));
  }
  return { max, from, to };
}

/** Whether two replays draw the same progress curve: within `epsilon` everywhere they overlap. */
export function sameCurve(a, b, epsilon = SAME_CURVE_EPSILON) {
  const d = curveDifference(a, b);
  return d !== null && d.max < epsilon;
}

/** The compare box's note when the two curves coincide, or "". */
export const sameCurveText = (same) => (same ? "same curve: A and B coincide (the dashed line is under the solid one)" : "");

/** A setting named for people: the preset, with its changed parameters or "defaults". */
export function settingName(preset, parameters) {
  const changed = Object.entries(parameters ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return changed.length ? `${preset} · ${changed.map(([k, v]) => `${k} ${typeof v === "number" ? num(v, 3) : v}`).join(", ")}` : `${preset} · defaults`;
}

/** One line of the compare box: the setting, the decision and its margin, when it settles. */
export function comparisonLine(name, summary) {
  if (!summary) return `${name}: –`;
  const margin = Number.isFinite(summary.margin) ? ` by ${num(summary.margin, 3)} ${summary.margin_unit ?? ""}`.trimEnd() : "";
  const settle = Number.isFinite(summary.settle_s) ? `, settles ${num(summary.settle_s, 2)} s after release` : "";
  return `${name}: ${summary.decision.toUpperCase()}${margin}${settle}`;
}

/** Whether the comparison is the very setting that plays (the defaults, when nothing was changed). */
export const comparesWithItself = (comparison, playback) =>
  Boolean(comparison && playback) && comparison.preset === playback.preset && Object.keys(playback.parameters ?? {}).length === 0
    && Object.keys(comparison.parameters ?? {}).length === 0;

/** The compare menu's choices: defaults, then every other preset. */
export function compareChoices(presets, playing) {
  return [
    { value: "", text: "nothing" },
    { value: "defaults", text: "this preset's defaults" },
    ...presets.filter((p) => p.name !== playing).map((p) => ({ value: p.name, text: `${p.name} (defaults)` })),
  ];
}
