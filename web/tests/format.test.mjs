import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText, num } from "../format.mjs";

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
