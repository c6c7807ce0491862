import { test } from "node:test";
import assert from "node:assert/strict";
import * as n from "../notice.mjs";
import { decodeServerMessage } from "../protocol.mjs";
import { fixtures } from "./fixtures.mjs";

const CODES = ["forbidden", "busy", "invalid", "not_found", "rate_limited", "failed", "bad_message", "bad_json", "version"];
const REPLIES = ["pointer", "label", "save", "discard", "load", "compare", "tune", "seek", "speed", "step", "record", "play", undefined];

test("every server error reads as a sentence without its code or the server's text", () => {
  for (const code of CODES) {
    for (const in_reply_to of REPLIES) {
      const error = { type: "error", code, message: "invalid: not recording: send record first", in_reply_to };
      const text = n.errorSentence(error);
      assert.match(text, /^[A-Z].*[.!?:)…]$/s, `${code}/${in_reply_to}: ${text}`);
      assert.ok(!text.includes(code.replace("_", " ")) || code === "busy", `${code} appears in ${text}`);
      assert.ok(!text.includes(":" + " send record first") && !text.includes("not recording"), text);
      assert.ok(!/\b(invalid|forbidden|not_found|rate_limited|bad_message|bad_json)\b/.test(text), text);
    }
  }
});

test("the pad's late pointer error says to press again, not the protocol text", () => {
  const text = n.errorSentence({ code: "invalid", message: "not recording: send record first", in_reply_to: "pointer" });
  assert.match(text, /press on the pad to record again/);
});

test("forbidden says how to get control; an unknown code still reads as a sentence", () => {
  assert.match(n.errorSentence({ code: "forbidden", message: "pause changes state" }), /pantrace serve printed/);
  assert.match(n.errorSentence({ code: "something_new", message: "x" }), /^The server refused that/);
  assert.match(n.errorSentence(null), /^The server refused that/);
});

test("the console keeps everything the server said", () => {
  const line = n.errorLogLine({ code: "invalid", message: "not recording: send record first", in_reply_to: "pointer" });
  assert.equal(line, "pantrace serve answered pointer with invalid: not recording: send record first");
});

test("the golden error fixtures map to sentences", () => {
  const errors = Object.values(fixtures("server")).map((t) => decodeServerMessage(t)).filter((m) => m?.type === "error");
  assert.ok(errors.length >= 1);
  for (const e of errors) assert.ok(!n.errorSentence(e).includes(e.message), e.message);
});

test("a watch-only page says what it can't do and how to get control", () => {
  for (const action of ["seek", "play", "step", "speed", "record", "other"]) {
    const text = n.watchOnlyText(action);
    assert.match(text, /^This page only watches: it can't /);
    assert.ok(text.endsWith(n.GET_CONTROL));
    assert.match(text, /\?token=/);
  }
  assert.match(n.watchOnlyText("record"), /can't record/);
  assert.match(n.watchOnlyText("seek"), /can't move the playhead/);
});

test("the player's keys name their action; other keys none", () => {
  assert.equal(n.keyAction(" "), "play");
  assert.equal(n.keyAction("ArrowLeft"), "step");
  assert.equal(n.keyAction("]"), "speed");
  assert.equal(n.keyAction("a"), null);
});

test("a refused pad says who holds it, in the server's words; a busy comparison is asked again", () => {
  const { errorSentence } = n;
  const held = { code: "busy", in_reply_to: "record", message: "page 3 holds the record pad (for 4 s); it is free when that page lifts its finger, saves or discards" };
  assert.equal(errorSentence(held), `The pad is taken: ${held.message}.`);
  assert.match(errorSentence({ code: "busy", in_reply_to: "compare", message: "x" }), /asked again in a moment/);
  assert.match(errorSentence({ code: "busy", in_reply_to: "pointer", message: "not words of a page" }), /^Another page is recording/);
});

test("a sheet replay that cannot be made says why in the server's words", () => {
  const e = { code: "invalid", in_reply_to: "compare", message: "sheet: detent 2 at 2000 pt is off a screen 844 pt tall (0…844)" };
  assert.equal(n.errorSentence(e), "That sheet replay can't be made: sheet: detent 2 at 2000 pt is off a screen 844 pt tall (0…844). Nothing changed.");
  assert.match(n.errorSentence({ code: "invalid", in_reply_to: "compare", message: "unknown preset" }), /does not know that preset/);
});
