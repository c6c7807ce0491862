import { test } from "node:test";
import assert from "node:assert/strict";
import { generator, sessionSeed, promptText, settleText, sheetTop, tally, TrialPlan, trialSheet } from "../trials.mjs";
import { sheetFor } from "../sheet.mjs";

test("a seed gives the same trials, each with a target other than its start", () => {
  const a = new TrialPlan(7, 300);
  const b = new TrialPlan(7, 300);
  assert.deepEqual(a.trials, b.trials);
  assert.notDeepEqual(a.trials, new TrialPlan(8, 300).trials);
  assert.ok(a.trials.every((t) => t.start !== t.target && t.start >= 0 && t.start < 3 && t.target >= 0 && t.target < 3));
  // Every pair of start and target comes up in 300 trials.
  const pairs = new Set(a.trials.map((t) => `${t.start}>${t.target}`));
  assert.equal(pairs.size, 6);
  const draws = Array.from({ length: 5 }, generator(1));
  assert.ok(draws.every((x) => x >= 0 && x < 1));
});

test("the prompt counts the trials and says the session's end", () => {
  const sheet = sheetFor({ width: 390, height: 844 });
  const plan = new TrialPlan(3, 2);
  const first = plan.current;
  assert.equal(promptText(plan, sheet), `Trial 1 of 2: move the sheet from ${sheet.names[first.start]} to ${sheet.names[first.target]}`);
  plan.advance();
  plan.advance();
  assert.equal(plan.current, null);
  assert.match(promptText(plan, sheet), /^All 2 trials done/);
  plan.advance();
  assert.equal(plan.index, 2);
  assert.deepEqual(trialSheet(sheet, first), { detents: sheet.detents, start: first.start, target: first.target });
});

test("the sheet follows the finger from its start and settles where the server says", () => {
  const sheet = { detents: [100, 400, 700], names: ["full", "half", "peek"] };
  assert.equal(sheetTop(sheet, 2, []), 700);
  assert.equal(sheetTop(sheet, 2, [{ x: 0, y: 500 }, { x: 0, y: 380 }]), 580);
  const status = { sheet: { target: 1 }, settle: { library: "gorhom", detent: 0, landing: "skip" } };
  assert.equal(settleText(sheet, status), "gorhom settles at full: skip (meant half)");
  assert.equal(settleText(sheet, { settle: { library: "vaul", detent: "dismissed" } }), "vaul settles at closed");
  assert.equal(settleText(sheet, {}), "");
});

test("the tally counts each landing", () => {
  assert.deepEqual(tally(["hit", "hit", "skip", "wrong", "stuck", "odd"]), { hit: 2, skip: 1, stuck: 1, wrong: 1 });
});

test("a session's seed is the address's trial-seed when it is a whole number", () => {
  assert.equal(sessionSeed("?token=x&trial-seed=42", 7), 42);
  assert.equal(sessionSeed("?trial-seed=-1", 7), 7);
  assert.equal(sessionSeed("?trial-seed=abc", 7), 7);
  assert.equal(sessionSeed("", 7), 7);
});
