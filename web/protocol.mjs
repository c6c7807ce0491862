// The live wire protocol, version 3 (docs/PROTOCOL.md): decoding server messages and
// building client messages. Pure: no DOM, no sockets.

export const PROTOCOL_VERSION = 3;

/** Velocity sources a `load` may name besides the preset's own parameters. */
export const VELOCITY_SOURCES = ["recorded", "lsq2", "impulse", "flutter"];

/** A server message that does not follow the protocol, with the field at fault. */
export class ProtocolError extends Error {
  constructor(message, path = "") {
    super(path ? `${path}: ${message}` : message);
    this.name = "ProtocolError";
    this.path = path;
  }
}

const isNumber = (v) => typeof v === "number" && Number.isFinite(v);

function need(object, key, check, what, path) {
  const value = object?.[key];
  if (!check(value)) throw new ProtocolError(`expected ${what}, got ${JSON.stringify(value)}`, path ? `${path}.${key}` : key);
  return value;
}
const number = (o, k, p) => need(o, k, isNumber, "a number", p);
const string = (o, k, p) => need(o, k, (v) => typeof v === "string", "a string", p);
const boolean = (o, k, p) => need(o, k, (v) => typeof v === "boolean", "a boolean", p);
const object = (o, k, p) => need(o, k, (v) => v !== null && typeof v === "object" && !Array.isArray(v), "an object", p);
const array = (o, k, p) => need(o, k, Array.isArray, "an array", p);
const optional = (o, k, check, p) => { if (o[k] !== undefined && o[k] !== null) check(o, k, p); };
const strings = (o, k, p) => array(o, k, p).forEach((_, i) => string(o[k], i, `${p ? `${p}.` : ""}${k}`));

function vector(o, k, p) {
  const v = object(o, k, p);
  number(v, "x", `${p}.${k}`);
  number(v, "y", `${p}.${k}`);
}

function rect(o, k, p) {
  const r = object(o, k, p);
  for (const f of ["x", "y", "width", "height"]) number(r, f, `${p}.${k}`);
}

function layer(l, p) {
  string(l, "role", p);
  rect(l, "frame", p);
  number(l, "scale", p);
  vector(l, "translation", p);
  number(l, "alpha", p);
  number(l, "corner_radius", p);
  if (l.mask !== undefined) {
    const m = object(l, "mask", p);
    vector(m, "center", `${p}.mask`);
    number(m, "radius", `${p}.mask`);
    if (m.radius_y !== undefined) number(m, "radius_y", `${p}.mask`);
  }
}

function frameState(f, p) {
  number(f, "time", p);
  string(f, "phase", p);
  number(f, "progress", p);
  number(f, "rendered_progress", p);
  array(f, "layers", p).forEach((l, i) => layer(l, `${p}.layers[${i}]`));
  if (f.gesture !== undefined) {
    const g = object(f, "gesture", p);
    number(g, "time", `${p}.gesture`);
    string(g, "phase", `${p}.gesture`);
    vector(g, "translation", `${p}.gesture`);
    vector(g, "velocity", `${p}.gesture`);
  }
  if (f.release !== undefined) {
    const r = object(f, "release", p);
    const d = object(r, "decision", `${p}.release`);
    string(d, "outcome", `${p}.release.decision`);
    number(d, "statistic", `${p}.release.decision`);
    number(d, "threshold", `${p}.release.decision`);
    optional(d, "basis", string, `${p}.release.decision`);
    optional(r, "reason", string, `${p}.release`);
    optional(r, "margin", number, `${p}.release`);
  }
}

function recordingInfo(r, p) {
  string(r, "id", p);
  string(r, "name", p);
  string(r, "intent", p);
  string(r, "source", p);
  const s = object(r, "screen", p);
  number(s, "width", `${p}.screen`);
  number(s, "height", `${p}.screen`);
  optional(r, "tags", array, p);
  if (r.device != null) string(object(r, "device", p), "name", `${p}.device`);
}

function presetEntry(e, p) {
  string(e, "name", p);
  array(e, "parameters", p).forEach((q, i) => {
    string(q, "key", `${p}.parameters[${i}]`);
    object(q, "allowed", `${p}.parameters[${i}]`);
    need(q, "default_value", (v) => v !== undefined && v !== null, "a value", `${p}.parameters[${i}]`);
  });
}

function playback(m, p) {
  number(m, "load", p);
  string(m, "recording", p);
  string(m, "preset", p);
  object(m, "parameters", p);
  boolean(m, "playing", p);
  number(m, "speed", p);
  boolean(m, "loop", p);
  for (const k of ["time", "start", "end", "release", "fps"]) number(m, k, p);
}

function summary(m, p) {
  string(m, "decision", p);
  optional(m, "reason", string, p);
  optional(m, "margin", number, p);
  optional(m, "release_s", number, p);
}

function seriesPoint(q, p) {
  number(q, "time", p);
  string(q, "phase", p);
  number(q, "progress", p);
  number(q, "rendered_progress", p);
  if (q.translation !== undefined) vector(q, "translation", p);
  if (q.velocity !== undefined) vector(q, "velocity", p);
}

function recordingStatus(m, p) {
  string(m, "state", p);
  optional(m, "samples", number, p);
  optional(m, "file", string, p);
  optional(m, "id", string, p);
  optional(m, "page", number, p);
  optional(m, "held_s", number, p);
  if (m.sheet != null) array(object(m, "sheet", p), "detents", `${p}.sheet`);
  if (m.settle != null) {
    const s = object(m, "settle", p);
    string(s, "library", `${p}.settle`);
    string(s, "reason", `${p}.settle`);
    need(s, "detent", (v) => Number.isInteger(v) || v === "dismissed", "a detent index or \"dismissed\"", `${p}.settle`);
    number(s, "position", `${p}.settle`);
    sheetSettle(object(s, "motion", `${p}.settle`), `${p}.settle.motion`);
  }
}

/** A library's settle as the server samples it: its motion in words and the top edge per frame. */
function sheetSettle(m, p) {
  string(m, "motion", p);
  number(m, "fps", p);
  number(m, "duration_s", p);
  const tops = array(m, "tops", p);
  tops.forEach((v, i) => need(tops, i, Number.isFinite, "a number", p));
  if (tops.length === 0) throw new ProtocolError("expected at least one frame", `${p}.tops`);
}

function pageInfo(q, p) {
  number(q, "page", p);
  optional(q, "recording", string, p);
  optional(q, "preset", string, p);
}

function sourceInfo(q, p) {
  number(q, "source", p);
  string(q, "name", p);
  object(q, "screen", p);
  number(q, "scale", p);
  boolean(q, "connected", p);
  boolean(q, "live", p);
  number(q, "gestures", p);
  number(q, "dropped", p);
}

const validators = {
  hello(m) {
    number(m, "v");
    boolean(m, "can_control");
    number(m, "page");
    const s = object(m, "state");
    array(s, "library", "state").forEach((r, i) => recordingInfo(r, `state.library[${i}]`));
    number(s, "library_total", "state");
    optional(s, "library_notices", strings, "state");
    array(s, "pages", "state").forEach((q, i) => pageInfo(q, `state.pages[${i}]`));
    array(s, "presets", "state").forEach((e, i) => presetEntry(e, `state.presets[${i}]`));
    if (s.playback !== undefined) playback(object(s, "playback", "state"), "state.playback");
    if (s.summary !== undefined) summary(object(s, "summary", "state"), "state.summary");
    if (s.recording !== undefined) recordingStatus(object(s, "recording", "state"), "state.recording");
    if (s.sources !== undefined) array(s, "sources", "state").forEach((q, i) => sourceInfo(q, `state.sources[${i}]`));
  },
  frame(m) {
    number(m, "seq");
    number(m, "load");
    frameState(object(m, "frame"), "frame");
    if (m.if_released != null) {
      const r = object(m, "if_released");
      string(r, "decision", "if_released");
      string(r, "reason", "if_released");
      number(r, "margin", "if_released");
    }
  },
  playback: (m) => playback(m, ""),
  series(m) {
    string(m, "role");
    number(m, "load");
    string(m, "recording");
    string(m, "preset");
    object(m, "parameters");
    number(m, "fps");
    summary(object(m, "summary"), "summary");
    const s = object(m, "series");
    array(s, "points", "series").forEach((q, i) => seriesPoint(q, `series.points[${i}]`));
    for (const k of ["stride", "touch_down", "release", "settle"]) number(s, k, "series");
    array(s, "keyframes", "series").forEach((k, i) => {
      string(k, "moment", `series.keyframes[${i}]`);
      frameState(object(k, "frame", `series.keyframes[${i}]`), `series.keyframes[${i}].frame`);
    });
  },
  summary: (m) => summary(m, ""),
  sheet(m) {
    string(m, "recording");
    string(m, "library");
    const sheet = object(m, "sheet");
    array(sheet, "detents", "sheet");
    number(sheet, "start", "sheet");
    need(m, "detent", (v) => Number.isInteger(v) || v === "dismissed", "a detent index or \"dismissed\"", "");
    string(m, "reason");
    string(m, "estimator");
    number(m, "release");
    number(m, "release_position");
    array(m, "drag").forEach((q, i) => {
      if (!Array.isArray(q) || q.length !== 2 || !q.every(Number.isFinite)) throw new ProtocolError("expected [t, top]", `drag[${i}]`);
    });
    sheetSettle(object(m, "settle"), "settle");
  },
  library(m) {
    array(m, "recordings").forEach((r, i) => recordingInfo(r, `recordings[${i}]`));
    number(m, "offset");
    number(m, "total");
    optional(m, "notices", strings, "");
  },
  pages(m) {
    array(m, "pages").forEach((q, i) => pageInfo(q, `pages[${i}]`));
    number(m, "total");
  },
  following(m) {
    optional(m, "page", number, "");
    optional(m, "reason", string, "");
  },
  recording: (m) => recordingStatus(m, ""),
  tune(m) {
    string(m, "preset");
    object(m, "report");
  },
  source_ready(m) {
    number(m, "source");
    number(m, "received");
  },
  ack(m) {
    number(m, "received");
  },
  sources(m) {
    array(m, "sources").forEach((q, i) => sourceInfo(q, `sources[${i}]`));
  },
  device_gesture(m) {
    number(m, "source");
    string(m, "file");
    string(m, "state");
    number(m, "samples");
  },
  kept(m) {
    array(m, "files").forEach((f, i) => {
      string(f, "from", `files[${i}]`);
      string(f, "to", `files[${i}]`);
    });
  },
  dropped(m) {
    array(m, "files").forEach((f, i) => {
      if (typeof f !== "string") throw new ProtocolError(`expected a string, got ${JSON.stringify(f)}`, `files[${i}]`);
    });
  },
  error(m) {
    string(m, "code");
    string(m, "message");
    optional(m, "retry_after_ms", number, "");
  },
};

/**
 * Decodes one server message (text of a WebSocket message).
 * Returns the message object, or `null` for a type this viewer does not know (to be ignored,
 * as the protocol asks). Throws a `ProtocolError` naming the field at fault otherwise.
 */
export function decodeServerMessage(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch (error) {
    throw new ProtocolError(`not JSON: ${error.message}`);
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) throw new ProtocolError("not a JSON object");
  const type = string(message, "type");
  const validate = validators[type];
  if (!validate) return null;
  validate(message);
  return message;
}

/** Whether a frame belongs to what the viewer shows: the latest load, or the live preview (−1). */
export function isCurrentFrame(frameMessage, latestLoad) {
  return frameMessage.load === -1 || frameMessage.load === latestLoad;
}

// Swift's synthesized Codable wraps an enum's payload as `{"_0": payload}`; servers before the
// plain encoding (`{"range":[lo,hi]}`, `0.5`) sent that, so both read the same.
const unwrap = (v) => (v !== null && typeof v === "object" && !Array.isArray(v) && "_0" in v ? v._0 : v);

/** A preset parameter of the catalog (`{key, meaning, unit, default_value, allowed}`) as a control's spec. */
export function parameterSpec(parameter) {
  const { key, meaning = "", unit = "" } = parameter;
  const allowed = parameter.allowed ?? {};
  let def = parameter.default_value;
  if (def !== null && typeof def === "object") def = unwrap(def.number ?? def.choice ?? def);
  if (allowed.range) {
    const [min, max] = unwrap(allowed.range);
    return { key, meaning, unit, kind: "number", min, max, defaultValue: typeof def === "number" ? def : min };
  }
  const choices = unwrap(allowed.choices) ?? [];
  return { key, meaning, unit, kind: "choice", choices, defaultValue: typeof def === "string" ? def : choices[0] };
}

/** The specs of a preset's parameters plus `velocity` (whose default is the preset's estimator). */
export function presetSpecs(preset) {
  const specs = (preset?.parameters ?? []).map(parameterSpec);
  specs.push({
    key: "velocity", meaning: "velocity estimator used at release", unit: "", kind: "choice",
    choices: VELOCITY_SOURCES, defaultValue: preset?.velocity_estimator ?? "recorded",
  });
  return specs;
}

// MARK: Client messages (§3), field order as in the golden fixtures.

export const load = (recording, preset, parameters = {}) => ({ type: "load", recording, preset, parameters });
export const play = () => ({ type: "play" });
export const pause = () => ({ type: "pause" });
export const seek = (time) => ({ type: "seek", time });
export const speed = (value) => ({ type: "speed", value: Math.min(4, Math.max(0.1, value)) });
export const loop = (enabled) => ({ type: "loop", enabled: Boolean(enabled) });
export const step = (frames) => ({ type: "step", frames: Math.trunc(frames) });
/** Arms the pad; the gesture is decided with `preset` and `parameters`, the page's own sliders. */
/** `trial`: a target trial's `{ sheet: {detents, start, target}, library }` (trials.mjs), or none. */
export function record(screen, edge, preset, parameters, trial) {
  const m = { type: "record", screen: { width: screen.width, height: screen.height, scale: screen.scale ?? 1 } };
  if (edge) m.edge = edge;
  if (preset) m.preset = preset;
  if (preset && parameters) m.parameters = parameters;
  if (trial) {
    m.sheet = trial.sheet;
    if (trial.library) m.sheet_library = trial.library;
  }
  return m;
}
export const pointer = (t_ms, x, y, phase, id) => ({ type: "pointer", t_ms, x, y, phase, pointer: id });
export const label = (intent) => ({ type: "label", intent });
export function save(name) {
  const trimmed = (name ?? "").trim();
  return trimmed ? { type: "save", name: trimmed } : { type: "save" };
}
export const discard = () => ({ type: "discard" });
export const tune = (recordings, preset, grid) => ({ type: "tune", recordings, preset, grid });
export const compare = (recording, preset, parameters = {}, sheet = null) =>
  (sheet ? { type: "compare", recording, preset, parameters, sheet } : { type: "compare", recording, preset, parameters });
/** Follows page `page`'s view; `null` stops following. */
export const follow = (page) => (page == null ? { type: "follow" } : { type: "follow", page });
/** Says whether the page is shown: a hidden page's view waits and is sent no frames. */
export const visible = (shown) => ({ type: "visible", visible: Boolean(shown) });
/** Watches live source `source` through this page's own setting; `null` stops watching. */
export const watch = (source) => (source == null ? { type: "watch" } : { type: "watch", source });
/** Labels and saves unsaved device gestures (`files`: library ids). */
export function keep(files, intent, name) {
  const m = { type: "keep", files };
  if (intent) m.intent = intent;
  const trimmed = (name ?? "").trim();
  if (trimmed) m.name = trimmed;
  return m;
}
/** Deletes unsaved device gestures. */
export const drop = (files) => ({ type: "drop", files });
/** Asks for the library's recordings from `offset` on. */
export const libraryFrom = (offset) => ({ type: "library", offset });

/** `KEY=FROM:TO:STEP` for a numeric axis, `KEY=V1,V2,…` for a list (docs/TUNE.md). */
export function gridAxis(key, axis) {
  if (axis.values) return `${key}=${axis.values.join(",")}`;
  return `${key}=${axis.from}:${axis.to}:${axis.step}`;
}
