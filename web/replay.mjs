// The Replay tab's decisions, without the DOM: the keyboard and the speeds, the recording
// menu, the decision line, the parameters' values and the messages a change sends. Pure.
import { overrides, sameParameters } from "./address.mjs";
import { middleEllipsis, num } from "./format.mjs";
import * as P from "./protocol.mjs";

/** The speeds `[` and `]` step through (the speed menu's). */
export const SPEEDS = [0.1, 0.25, 0.5, 1, 1.5, 2, 4];

/** The next speed below `speed` (the slowest at the bottom). */
export const slowerSpeed = (speed) => SPEEDS.slice().reverse().find((s) => s < speed - 1e-9) ?? SPEEDS[0];

/** The next speed above `speed` (the fastest at the top). */
export const fasterSpeed = (speed) => SPEEDS.find((s) => s > speed + 1e-9) ?? SPEEDS.at(-1);

/** The message the play button sends: pause while playing, otherwise play. */
export const toggleMessage = (playback) => (playback.playing ? P.pause() : P.play());

/** The message a key sends to the player, or `null` for a key the replay does not use. */
export function keyMessage(key, playback) {
  switch (key) {
    case " ": return toggleMessage(playback);
    case "ArrowLeft": return P.step(-1);
    case "ArrowRight": return P.step(1);
    case "[": return P.speed(slowerSpeed(playback.speed));
    case "]": return P.speed(fasterSpeed(playback.speed));
    default: return null;
  }
}

/** The `load` for recording `id` under `preset`, keeping the parameters when the preset stays. */
export const loadMessage = (id, preset, playback) => P.load(id, preset, playback?.preset === preset ? playback.parameters : {});

/**
 * The folder of a library id (`.` at the top); a corpus's gesture (`path/c.pantraces#name`)
 * goes under its corpus file, whatever its name holds.
 */
function folderOf(id) {
  const corpus = id.indexOf(".pantraces#");
  if (corpus >= 0) return id.slice(0, corpus + ".pantraces".length);
  return id.includes("/") ? id.slice(0, id.lastIndexOf("/")) : ".";
}

/**
 * The library grouped by folder, in the library's order, folders of recordings before corpus
 * files (each corpus its own group, after them): a corpus of thousands of gestures does not
 * bury the rest of the library under it. `[[folder, recordings], …]`.
 */
export function recordingGroups(library) {
  const groups = new Map();
  for (const r of library) {
    const folder = folderOf(r.id);
    if (!groups.has(folder)) groups.set(folder, []);
    groups.get(folder).push(r);
  }
  const all = [...groups];
  const isCorpus = ([folder]) => folder.endsWith(".pantraces");
  return [...all.filter((g) => !isCorpus(g)), ...all.filter(isCorpus)];
}

/**
 * What a page says while the library arrives a page at a time: "loading library: 300 of
 * 1,080" until every recording the server lists is here; empty once it is.
 */
export function libraryLoadingText(listed, total) {
  if (!(listed < total)) return "";
  const n = (v) => v.toLocaleString("en-US");
  return `loading library: ${n(listed)} of ${n(total)}`;
}

/** A recording as the menu names it: name (cut in the middle when long), intent and source. */
export const recordingLabel = (r) => `${middleEllipsis(r.name)} · ${r.intent} · ${r.source}`;

/**
 * The decision under the stage, from a `summary`: data attributes, headline and reason; the
 * drag that drives the preset; and, when the recording does not drive it, why and by how much
 * (`fit`, empty when it fits) with the direction that would (`summary.suggested_direction`).
 */
export function decisionText(summary) {
  const s = summary;
  const known = s?.correct !== undefined;
  const margin = Number.isFinite(s?.margin) ? ` · margin ${num(s.margin, 3)} ${s.margin_unit ?? ""}` : "";
  const verdict = !known ? "" : s.correct ? ` · matches intent (${s.intent})` : ` · meant ${s.intent}`;
  const misfit = s?.fit !== undefined && s.fit !== "fits";
  const hint = misfit && s.suggested_direction ? ` (try direction = ${s.suggested_direction})` : "";
  return {
    outcome: s?.decision ?? "",
    correct: known ? String(s.correct) : "",
    headline: s ? s.decision : "–",
    reason: s ? `${s.reason ?? ""}${margin}${verdict}` : "",
    fitState: s?.fit ?? "",
    fit: misfit ? `This recording ${(s.fit_note ?? s.fit).replace(/^does not fit: /, "does not drive the preset: ")}${hint}` : "",
    drag: s?.drag ? `driven by a ${s.drag.replace(/^drag /, "drag ")}` : "",
  };
}

/**
 * The decision box while a live gesture (the record pad's or a watched device's) is under way:
 * never a decision before the release, only what this page's own setting would decide if the
 * finger lifted now. `live` is the latest live frame this page was sent, read through its own
 * preset and parameters (its `if_released`); the recording's status (`status.if_released`, the
 * recorder's setting) speaks only for the recording page itself, until its first frame comes.
 */
export function liveDecisionText(status, live = null, mine = true) {
  const base = { outcome: "pending", correct: "", fitState: "", fit: "", drag: "" };
  if (!live && status?.state === "armed") return { ...base, headline: "armed", reason: "move more than 10 pt to start the pan" };
  const r = live ? live.if_released : mine ? status?.if_released : null;
  if (!r) return { ...base, headline: "tracking", reason: "" };
  return { ...base, headline: `would ${r.decision} if released now`, reason: `${r.reason} · margin ${num(r.margin, 3)}` };
}

/**
 * The decision box after a live gesture's release, before this page loads anything else: the
 * release as this page's own setting decided it (the `release` of its last live frame).
 */
export function liveReleaseText(release) {
  const margin = Number.isFinite(release?.margin) ? ` · margin ${num(release.margin, 3)}` : "";
  return {
    outcome: release?.decision?.outcome ?? "", correct: "", fitState: "", fit: "", drag: "",
    headline: release?.decision?.outcome ?? "–", reason: release ? `${release.reason ?? ""}${margin}` : "",
  };
}

/** The timeline's input while a gesture is recorded: its frames so far, from touch-down to now. */
export function liveChartInput(frames) {
  const start = frames[0]?.time ?? 0;
  const now = frames.at(-1)?.time ?? start;
  return {
    frames, size: frames.length, release: null, summary: null, comparison: null, time: now,
    playback: { start, end: Math.max(now, start + 0.5), release: NaN, fps: 60 },
    markers: frames.length ? { touchDown: start } : null,
  };
}

/** The threshold the timeline draws before the release: the loaded one, else the preset's default. */
export function timelineThreshold(playback, specs) {
  const spec = specs.find((sp) => sp.key === "threshold");
  const threshold = Number(playback?.parameters?.threshold ?? spec?.defaultValue);
  return Number.isFinite(threshold) ? threshold : null;
}

/** Every parameter's value in a load: its own, or the spec's default. */
export const parameterValues = (specs, parameters) => Object.fromEntries(specs.map((sp) => [sp.key, parameters[sp.key] ?? sp.defaultValue]));

/** A slider's value as its label shows it (a unit other than progress after it), to `digits` decimals. */
/**
 * A parameter's unit as a person reads it: the catalog names `travel`'s unit by another
 * parameter (`travelUnit`), so "1 travelUnit" reads "1 × width", "0.6 × height" or "300 pt".
 */
export function parameterUnit(spec, values) {
  if (spec.unit !== "travelUnit") return spec.unit;
  return { width: "× width", height: "× height", points: "pt" }[values?.travelUnit] ?? "";
}

export const parameterText = (value, unit, digits = 3) => `${num(value, digits)}${unit && unit !== "progress" ? ` ${unit}` : ""}`;

/** The 1, 2 or 5 × 10ⁿ step nearest above `raw`. */
function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((x) => x >= raw * (1 - 1e-9));
}

/** Decimals a step needs (0.05 → 2, 10 → 0). */
const decimalsOf = (step) => Math.max(0, -Math.floor(Math.log10(step) + 1e-9));

/**
 * How a parameter's slider maps to its value. A range over three decades or more (a travel of
 * 0.01…10,000) is logarithmic, in hundredths of a decade, values to three significant digits;
 * any other moves in a "nice" step of about a hundredth of the range (0.01 for 0…1), so an
 * arrow key moves a step a person can see. `digits`: the decimals the label shows, the same
 * two the decision's reason prints for a progress threshold.
 */
export function sliderScale(spec) {
  if (spec.min > 0 && spec.max / spec.min >= 1000) {
    const toValue = (v) => Number((10 ** v).toPrecision(3));
    return { min: Math.log10(spec.min), max: Math.log10(spec.max), step: 0.01, log: true, toValue, toSlider: (x) => Math.log10(x), digits: 3 };
  }
  const step = niceStep((spec.max - spec.min) / 100);
  const digits = decimalsOf(step);
  const toValue = (v) => Number(Number(v).toFixed(digits));
  return { min: spec.min, max: spec.max, step, log: false, toValue, toSlider: (x) => x, digits: Math.max(digits, 2) };
}

/** A slider's step (in its own units). */
export const sliderStep = (spec) => sliderScale(spec).step;

/** Whether a value differs from its spec's default (the row is marked changed). */
export function isChanged(value, spec) {
  if (spec.kind !== "number") return String(value) !== String(spec.defaultValue);
  return Math.abs(Number(value) - spec.defaultValue) > 1e-9 * Math.max(1, Math.abs(spec.defaultValue));
}

/** Whether the sliders (showing `values` of `preset`) no longer show what plays and must be rebuilt. */
export const paramsOutdated = ({ preset, values, specs }, playback) =>
  preset !== playback.preset || !sameParameters(overrides(values, specs), playback.parameters);

/** The messages that re-decide with new parameters: a `load`, a seek back to `time`, and a pause unless playing. */
export function reloadMessages(playback, parameters, time) {
  const messages = [P.load(playback.recording, playback.preset, parameters), P.seek(time)];
  if (!playback.playing) messages.push(P.pause());
  return messages;
}

/**
 * The title an exported timeline carries: the recording, the preset, the parameters that differ
 * from the preset's (or "defaults"), and what it is compared with, if anything.
 */
export function exportTitle(playback, compare = null) {
  if (!playback) return "";
  const set = Object.entries(playback.parameters ?? {}).map(([k, v]) => `${k} = ${typeof v === "number" ? num(v, 4) : v}`);
  const setting = set.length ? set.join(", ") : "defaults";
  return `${playback.recording} · ${playback.preset} (${setting})${compare ? ` · compared with ${compare}` : ""}`;
}

/**
 * The preset's summary under the preset menu. The catalog's summary states the defaults
 * ("θ = 0.5"); when the view's setting changes some, it says so and gives the values shown,
 * so the line never contradicts the sliders.
 */
export function presetSummaryText(preset, parameters) {
  const summary = preset?.summary ?? "";
  const changed = Object.entries(parameters ?? {});
  if (!summary || changed.length === 0) return summary;
  const values = changed.map(([k, v]) => `${k} = ${typeof v === "number" ? num(v, 4) : v}`).join(", ");
  return `${summary} (the preset's defaults; this view sets ${values})`;
}
