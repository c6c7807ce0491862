import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText, num, sliderValueText } from "../format.mjs";

test("numbers keep at most the digits asked for, and a non-number is a dash", () => {
  assert.equal(num(0.123456, 3), "0.123");
  assert.equal(num(2.5), "2.5");
  assert.equal(num(2), "2");
  assert.equal(num(NaN), "–");
  assert.equal(num(undefined), "–");
});

test("the clock shows milliseconds", () => {
  assert.equal(clockText(0.4), "0.400 s");
  assert.equal(clockText(12.3456), "12.346 s");
});

test("a slider says its value in its unit, not the exponent a logarithmic slider moves", () => {
  assert.equal(sliderValueText(0.04, "s", { log: true }), "0.04 s");
  assert.equal(sliderValueText(10 ** -1.39, "s", { log: true }), "0.0407 s");
  assert.equal(sliderValueText(1234.5, "travelUnit", { log: true }), "1230 travelUnit");
  assert.equal(sliderValueText(0.5, "progress", { digits: 2 }), "0.5 progress");
  assert.equal(sliderValueText(350, "pt/s", { digits: 0 }), "350 pt/s");
  assert.equal(sliderValueText(0.55, "", { digits: 2 }), "0.55");
  assert.equal(sliderValueText(NaN, "s", { log: true }), "–");
});
