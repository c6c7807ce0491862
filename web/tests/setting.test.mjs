import { test } from "node:test";
import assert from "node:assert/strict";
import { parseSetting, SETTING_LIMIT, settingOf, settingText } from "../setting.mjs";

/** A preset as `hello` lists it: one number parameter and one choice. */
const preset = {
  name: "swipe-dismiss", velocity_estimator: "lsq2",
  parameters: [
    { key: "threshold", meaning: "", unit: "", default_value: 0.5, allowed: { range: [0, 1] } },
    { key: "completionCurve", meaning: "", unit: "", default_value: "easeInOut", allowed: { choices: ["linear", "easeInOut"] } },
  ],
};
const presetNamed = (name) => (name === preset.name ? preset : undefined);

test("the view's setting holds every parameter, the view's own value else the default, velocity among them", () => {
  const setting = settingOf({ preset: "swipe-dismiss", parameters: { threshold: 0.3 } }, preset);
  assert.deepEqual(setting, { preset: "swipe-dismiss", parameters: { threshold: 0.3, completionCurve: "easeInOut", velocity: "lsq2" } });
  assert.equal(settingText(setting), '{"parameters":{"completionCurve":"easeInOut","threshold":0.3,"velocity":"lsq2"},"preset":"swipe-dismiss"}');
  assert.equal(settingOf(null, preset), null);
});

test("a pasted setting opens when the server would take it, and says what is wrong when not", () => {
  const text = '{"parameters":{"completionCurve":"linear","threshold":0.25,"velocity":"impulse"},"preset":"swipe-dismiss"}';
  assert.deepEqual(parseSetting(text, presetNamed).setting, {
    preset: "swipe-dismiss", parameters: { completionCurve: "linear", threshold: 0.25, velocity: "impulse" },
  });
  // What copying writes, opening reads back.
  const copied = settingText(settingOf({ preset: "swipe-dismiss", parameters: { threshold: 0.7 } }, preset));
  assert.equal(parseSetting(copied, presetNamed).setting.parameters.threshold, 0.7);
  const cases = [
    ["not json", /^not JSON: /],
    ["[1]", /expected a JSON object/],
    ['{"parameters":{}}', /no "preset"/],
    ['{"preset":"nonesuch"}', /unknown preset "nonesuch"/],
    ['{"preset":"swipe-dismiss","parameters":{"nope":1}}', /parameters\.nope: swipe-dismiss has no parameter "nope"/],
    ['{"preset":"swipe-dismiss","parameters":{"threshold":"x"}}', /parameters\.threshold: expected a number/],
    ['{"preset":"swipe-dismiss","parameters":{"threshold":1.5}}', /parameters\.threshold: 1\.5 is outside 0…1/],
    ['{"preset":"swipe-dismiss","parameters":{"threshold":1}}', null],
    ['{"preset":"swipe-dismiss","parameters":{"velocity":"guess"}}', /parameters\.velocity: expected one of/],
    ['{"preset":"swipe-dismiss","parameters":[]}', /parameters: expected an object/],
  ];
  for (const [input, expected] of cases) {
    const result = parseSetting(input, presetNamed);
    if (expected === null) assert.ok(result.setting, input);
    else assert.match(result.error ?? "", expected, input);
  }
  assert.match(parseSetting(" ".repeat(SETTING_LIMIT + 1), presetNamed).error, /at most/);
});
