// The view's address: `#tab=replay&recording=…&preset=…&p.threshold=0.4&t=0.25&cmp=defaults&z=0.1,0.6`
// (`cmp`: what the timeline compares with; `z`: the time span it shows, when zoomed).
// The token stays in the query (`?token=`), which this module does not touch. Pure.
import * as P from "./protocol.mjs";

const TABS = new Set(["replay", "record", "tune"]);

/** A parameter value from text: a number when it reads as one, otherwise the choice's name. */
export function parseValue(text) {
  if (text.trim() !== "" && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/** `from,to` seconds (from < to), or null. */
function parseZoom(text) {
  const [from, to, ...rest] = text.split(",").map((v) => (v.trim() === "" ? NaN : Number(v)));
  return rest.length === 0 && Number.isFinite(from) && Number.isFinite(to) && from < to ? { from, to } : null;
}

/** The state a hash (with or without `#`) describes. Unknown keys are ignored. */
export function parseHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const state = { tab: "replay", recording: null, preset: null, parameters: {}, time: null, compare: null, zoom: null };
  for (const [key, value] of params) {
    if (key === "tab" && TABS.has(value)) state.tab = value;
    else if (key === "recording" && value) state.recording = value;
    else if (key === "preset" && value) state.preset = value;
    else if (key === "t" && Number.isFinite(Number(value)) && value !== "") state.time = Number(value);
    else if (key === "cmp" && value) state.compare = value;
    else if (key === "z") state.zoom = parseZoom(value);
    else if (key.startsWith("p.") && key.length > 2) state.parameters[key.slice(2)] = parseValue(value);
  }
  return state;
}

/** The hash (with `#`) for a state; parameters in key order, the time to the millisecond. */
export function formatHash(state) {
  const params = new URLSearchParams();
  if (state.tab && state.tab !== "replay") params.set("tab", state.tab);
  if (state.recording) params.set("recording", state.recording);
  if (state.preset) params.set("preset", state.preset);
  for (const key of Object.keys(state.parameters ?? {}).sort()) params.set(`p.${key}`, String(state.parameters[key]));
  if (Number.isFinite(state.time)) params.set("t", String(Math.round(state.time * 1000) / 1000));
  if (state.compare) params.set("cmp", state.compare);
  if (state.zoom) params.set("z", `${Math.round(state.zoom.from * 1000) / 1000},${Math.round(state.zoom.to * 1000) / 1000}`);
  const text = params.toString().replaceAll("%2F", "/").replaceAll("%2C", ",");
  return text ? `#${text}` : "";
}

/** Parameters that differ from their specs' defaults (what a `load` and the address carry). */
export function overrides(values, specs) {
  const out = {};
  for (const spec of specs) {
    const v = values[spec.key];
    if (v === undefined) continue;
    if (spec.kind === "number" ? Math.abs(Number(v) - spec.defaultValue) > 1e-12 : v !== spec.defaultValue) out[spec.key] = v;
  }
  return out;
}

/** Whether two parameter sets are the same. */
export function sameParameters(a, b) {
  const ka = Object.keys(a ?? {}).sort();
  const kb = Object.keys(b ?? {}).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && String(a[k]) === String(b[k]));
}

/**
 * The address of the view: the tab, what is loaded (or, with nothing loaded, what `previous`
 * named), and the timeline's comparison and zoom (`view`; `previous`'s when not given).
 */
export function addressFor(tab, playback, previous, view = previous) {
  return {
    tab,
    recording: playback?.recording ?? previous.recording,
    preset: playback?.preset ?? previous.preset,
    parameters: playback?.parameters ?? previous.parameters,
    time: playback ? (playback.playing ? null : playback.time) : previous.time,
    compare: view.compare ?? null,
    zoom: view.zoom ?? null,
  };
}

/** The preset a reopened address plays: its own when the server has it, else the one playing, else the first. */
function reopenedPreset(want, playback, presets) {
  if (want.preset && presets.some((p) => p.name === want.preset)) return want.preset;
  return playback?.preset ?? presets[0]?.name;
}

/**
 * The messages that reopen the view an address names (a shared link, or the view before a
 * server restart): a `load` unless it is what plays already, then a seek and pause to its
 * time. None for a watch-only page or a recording the library does not have.
 */
export function reopenMessages(want, playback, { canControl, library, libraryTotal, presets }) {
  // A library still arriving a page at a time may not list it yet: the server says if it is gone.
  const listed = library.length < (libraryTotal ?? 0) || library.some((r) => r.id === want.recording);
  if (!canControl || !want.recording || !listed) return [];
  const preset = reopenedPreset(want, playback, presets);
  const messages = [];
  if (!playback || playback.recording !== want.recording || playback.preset !== preset || !sameParameters(playback.parameters, want.parameters)) {
    messages.push(P.load(want.recording, preset, want.parameters));
  }
  if (Number.isFinite(want.time)) messages.push(P.seek(want.time), P.pause());
  return messages;
}

/**
 * Whether an opened link names a view a watch-only page cannot show: a recording other than
 * the one it was given (it may not load). Such a page keeps the link in its address and says
 * why, rather than rewriting it to the view it shows.
 */
export const linkNotShown = (want, playback) => !!want.recording && want.recording !== playback?.recording;

/** What a watch-only page says of a link it cannot open (``linkNotShown``). */
export function watchOnlyLinkText(want) {
  const preset = want.preset ? ` under ${want.preset}` : "";
  const time = Number.isFinite(want.time) ? ` at ${want.time} s` : "";
  return `This link opens ${want.recording}${preset}${time}, but this page only watches, so it shows the server's view. `
    + "To open the link, add the ?\u2060token= that pantrace serve printed.";  // U+2060: no line break inside "?token="
}
