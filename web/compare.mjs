// Comparing two settings of the same gesture (the Replay tab's "compare with"): what to ask the
// server for, and the two lines under the menu. Pure.
import { seriesFrame } from "./chart.mjs";
import { num } from "./format.mjs";
import * as P from "./protocol.mjs";

/** The `compare` message for `choice` (`"defaults"` or a preset's name) over what plays; null for none. */
export function compareMessage(choice, playback) {
  if (!choice || !playback) return null;
  if (choice === "defaults") return P.compare(playback.recording, playback.preset, {});
  return P.compare(playback.recording, choice, {});
}

/** Whether a comparison answers `choice` for the recording that plays now. */
export function comparisonFits(comparison, choice, playback) {
  if (!comparison || !choice || !playback || comparison.recording !== playback.recording) return false;
  const preset = choice === "defaults" ? playback.preset : choice;
  return comparison.preset === preset && (choice !== "defaults" || Object.keys(comparison.parameters ?? {}).length === 0);
}

/** What the chart draws of a comparison: its frames, settle marker and summary. */
export function comparisonChart(comparison) {
  if (!comparison) return null;
  const series = comparison.series;
  return { frames: series.points.map(seriesFrame), markers: { settle: series.settle }, summary: comparison.summary };
}

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
