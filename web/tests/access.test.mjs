import assert from "node:assert/strict";
import test from "node:test";
import { accessNotice } from "../access.mjs";

test("a refused token gets a plain notice; control and no token get none", () => {
  assert.match(accessNotice({ hasToken: true, canControl: false }), /refused this page's token/);
  assert.equal(accessNotice({ hasToken: true, canControl: true }), null);
  assert.equal(accessNotice({ hasToken: false, canControl: false }), null);
});
