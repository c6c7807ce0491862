import { test } from "node:test";
import assert from "node:assert/strict";
import { filmstripItems } from "../filmstrip.mjs";
import { fixture } from "./fixtures.mjs";

test("the filmstrip has the stage at touch-down, release, mid-completion and settle, each with its time", () => {
  const series = JSON.parse(fixture("server", "series")).series;
  const items = filmstripItems(series, { width: 390, height: 844 });
  assert.deepEqual(items.map((i) => i.moment), ["touch_down", "release", "mid_completion", "settle"]);
  assert.ok(items[0].label.startsWith("touch-down · "));
  assert.equal(items[3].time, series.settle);
  assert.deepEqual(items[0].screen, { width: 390, height: 844 });
  assert.ok(items.every((i) => i.layers.length > 0 && i.layers.every((l) => l.rect && l.role)));
  assert.deepEqual(filmstripItems(null), []);
});
