// A setting in its one JSON form, `{"parameters":{…},"preset":NAME}`: the preset and every
// parameter's value, velocity among them, the form `pantrace tune --save-setting` writes and
// `replay`, `emit` and `serve` take with `--setting` (docs/TUNE.md, "A setting file"). The
// Replay tab copies the view's setting in it and opens one pasted in it. Pure.
import * as P from "./protocol.mjs";

/** The largest setting text read: a preset's parameters take well under 2 KiB. */
export const SETTING_LIMIT = 64 * 1024;

/** The view's setting: its preset and every parameter (the view's value, else the default). */
export function settingOf(playback, preset) {
  if (!playback || !preset) return null;
  const parameters = {};
  for (const spec of P.presetSpecs(preset)) parameters[spec.key] = playback.parameters?.[spec.key] ?? spec.defaultValue;
  return { preset: playback.preset, parameters };
}

/** The setting as a setting file holds it: keys sorted, one line. */
export function settingText(setting) {
  const parameters = Object.fromEntries(Object.keys(setting.parameters).sort().map((k) => [k, setting.parameters[k]]));
  return JSON.stringify({ parameters, preset: setting.preset });
}

/**
 * A pasted setting, checked as the server checks `--set`: `{ setting }`, or `{ error }` naming
 * what is wrong (not JSON, no preset, an unknown preset or key, a value of the wrong kind or
 * out of range, an unknown choice). `presetNamed(name)` is the store's catalogue lookup.
 */
export function parseSetting(text, presetNamed) {
  if (text.length > SETTING_LIMIT) return { error: `a setting is at most ${SETTING_LIMIT} characters, this is ${text.length}` };
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON: ${error.message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { error: "not a setting: expected a JSON object" };
  if (typeof value.preset !== "string") return { error: "not a setting: no \"preset\" (a preset's name)" };
  const preset = presetNamed(value.preset);
  if (!preset) return { error: `unknown preset "${value.preset}"` };
  const given = value.parameters ?? {};
  if (given === null || typeof given !== "object" || Array.isArray(given)) return { error: "parameters: expected an object of KEY: VALUE" };
  const specs = new Map(P.presetSpecs(preset).map((s) => [s.key, s]));
  const parameters = {};
  for (const [key, v] of Object.entries(given)) {
    const spec = specs.get(key);
    if (!spec) return { error: `parameters.${key}: ${value.preset} has no parameter "${key}" (${[...specs.keys()].join(", ")})` };
    if (spec.kind === "number") {
      if (typeof v !== "number" || !Number.isFinite(v)) return { error: `parameters.${key}: expected a number, got ${JSON.stringify(v)}` };
      if (v < spec.min || v > spec.max) return { error: `parameters.${key}: ${v} is outside ${spec.min}…${spec.max}` };
    } else if (!spec.choices.includes(v)) {
      return { error: `parameters.${key}: expected one of ${spec.choices.join(", ")}, got ${JSON.stringify(v)}` };
    }
    parameters[key] = v;
  }
  return { setting: { preset: value.preset, parameters } };
}
