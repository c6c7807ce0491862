import { test } from "node:test";
import assert from "node:assert/strict";
import {
  answerKey, DETENTS, detentName, keyOf, LIBRARIES, motionSeconds, motionTop, settledTop, settleSeconds, settleTop, sheetFor, sheetRequest,
  startFor, verdictLines,
} from "../sheet.mjs";

/** A `sheet` answer as the server sends it: two drag points, then three settle frames at 60 Hz. */
const answer = {
  type: "sheet", recording: "real/a.pantrace", library: "gorhom", parameters: {},
  sheet: { detents: [101, 422, 692], start: 2 }, detent: 1, reason: "nearest is detent 1", velocity: -812.4,
  estimator: "recorded", margin: null, landing: null, release_position: 520, release: 0.1,
  drag: [[0, 690], [0.05, 600]],
  settle: { motion: "Reanimated withSpring (…)", duration_s: 0.05, fps: 60, tops: [480, 440, 422] },
};

test("the sheet's detents are whole points down the screen, most expanded first", () => {
  const sheet = sheetFor({ width: 390, height: 844 });
  assert.deepEqual(sheet.detents, [101, 422, 692]);
  assert.deepEqual(sheet.names, ["full", "half", "peek"]);
  assert.equal(DETENTS.length, 3);
  assert.ok(!LIBRARIES.includes("panmodal") && LIBRARIES.length === 8);
  assert.equal(detentName(sheet, 1), "half");
  assert.equal(detentName(sheet, "dismissed"), "closed");
  assert.equal(settledTop(sheet, 1, { height: 844 }), 422);
  assert.equal(settledTop(sheet, "dismissed", { height: 844 }), 844);
});

test("a settle shows each frame the server sent for 1/fps s, from the release, and rests on the last", () => {
  const settle = answer.settle;
  assert.equal(settleTop(settle, 520, 0), 520);
  assert.equal(settleTop(settle, 520, 1 / 60 - 1e-9), 520);
  assert.equal(settleTop(settle, 520, 1 / 60 + 1e-9), 480);
  assert.equal(settleTop(settle, 520, 2.5 / 60), 440);
  assert.equal(settleTop(settle, 520, 10), 422);
  // Reduced motion: at rest at once.
  assert.equal(settleTop(settle, 520, 0, true), 422);
  assert.equal(settleTop({ tops: [], fps: 60 }, 520, 1), 520);
  assert.equal(settleSeconds(settle), 3 / 60);
});

test("a replayed sheet follows the finger until the release, then the library's settle", () => {
  assert.equal(motionTop(answer, 0), 690);
  assert.equal(motionTop(answer, 0.049), 690);
  assert.equal(motionTop(answer, 0.05), 600);
  assert.equal(motionTop(answer, 0.0999), 600);
  assert.equal(motionTop(answer, 0.1), 520);
  assert.equal(motionTop(answer, 0.1 + 1.5 / 60), 480);
  assert.equal(motionTop(answer, 1), 422);
  assert.equal(motionTop(answer, 0.02, true), 690, "reduced motion still shows where the finger was");
  assert.equal(motionTop(answer, 0.2, true), 422);
  assert.ok(Math.abs(motionSeconds(answer) - (0.1 + 3 / 60)) < 1e-12);
});

test("auto starts an upward drag at the least expanded detent and a downward one at the most", () => {
  const sheet = sheetFor({ width: 390, height: 844 });
  assert.equal(startFor("auto", sheet, false), 2);
  assert.equal(startFor("auto", sheet, true), 0);
  assert.equal(startFor("half", sheet, true), 1);
  assert.equal(startFor("nonsense", sheet, true), 2);
});

test("the request names the sheet and the library, and an answer is kept under the same key", () => {
  const sheet = sheetFor({ width: 390, height: 844 });
  assert.deepEqual(sheetRequest("real/a.pantrace", "gorhom", sheet, 2), {
    type: "compare", recording: "real/a.pantrace", preset: "gorhom", parameters: {}, sheet: { detents: [101, 422, 692], start: 2 },
  });
  assert.equal(keyOf(answer), answerKey("real/a.pantrace", "gorhom", sheet, 2));
  assert.notEqual(keyOf(answer), answerKey("real/a.pantrace", "vaul", sheet, 2));
  assert.notEqual(keyOf(answer), answerKey("real/a.pantrace", "gorhom", sheet, 0));
});

test("the verdict names the detent, why, the velocity read and how the sheet moves", () => {
  const sheet = sheetFor({ width: 390, height: 844 });
  assert.deepEqual(verdictLines(answer, sheet), [
    "gorhom settles at half, from peek",
    "why: nearest is detent 1",
    "read -812 pt/s (recorded) at 520 pt",
    "moves: Reanimated withSpring (…), at rest after 0.05 s",
  ]);
  assert.match(verdictLines({ ...answer, velocity: null, detent: "dismissed" }, sheet)[0], /settles at closed/);
  assert.match(verdictLines({ ...answer, velocity: null }, sheet)[2], /^read not finite/);
});
