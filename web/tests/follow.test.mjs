import assert from "node:assert/strict";
import test from "node:test";
import { followChoices, followingText, shortName } from "../follow.mjs";

test("a page may follow every page with control but itself", () => {
  const pages = { pages: [{ page: 1, recording: "synthetic/edge-back-0.pantrace", preset: "best" }, { page: 3 }], total: 5 };
  assert.deepEqual(followChoices(pages, 1), [{ value: "3", text: "page 3" }]);
  assert.deepEqual(followChoices(pages, 2).map((c) => c.text), ["page 1 · edge-back-0", "page 3"]);
  assert.deepEqual(followChoices(null, 1), []);
});

test("the following state names the page, and nothing when not following", () => {
  assert.equal(followingText(4), "following page 4: you see its view");
  assert.equal(followingText(null), "");
  assert.equal(shortName("live/a.b-1.pantrace"), "a.b-1");
});
