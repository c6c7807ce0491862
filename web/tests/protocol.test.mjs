import { test } from "node:test";
import assert from "node:assert/strict";
import * as protocol from "../protocol.mjs";
import { fixtures, fixture } from "./fixtures.mjs";

const server = fixtures("server");
const client = fixtures("client");

test("every server fixture decodes to a message of its type", () => {
  assert.ok(Object.keys(server).length >= 8);
  for (const [name, text] of Object.entries(server)) {
    const message = protocol.decodeServerMessage(text);
    assert.ok(message, name);
    assert.equal(message.type, name.replace(/-(release|busy|live|notices)$/, "").replace("-", "_"), name);
  }
});

test("the hello fixture carries the library, presets, playback and summary", () => {
  const hello = protocol.decodeServerMessage(server.hello);
  assert.equal(hello.v, protocol.PROTOCOL_VERSION);
  assert.equal(hello.can_control, true);
  assert.equal(hello.state.library[0].id, "synthetic/fixture.pantrace");
  assert.equal(hello.state.playback.load, 1);
  assert.equal(hello.state.summary.decision, "cancel");
});

test("the release frame carries the decision's statistic, threshold and basis", () => {
  const frame = protocol.decodeServerMessage(server["frame-release"]);
  assert.equal(frame.frame.release.decision.basis, "progress");
  assert.equal(frame.frame.release.decision.threshold, 0.5);
  assert.ok(Math.abs(frame.frame.release.decision.statistic - 0.25366) < 1e-4);
  assert.equal(protocol.decodeServerMessage(server.frame).frame.release, undefined);
});

test("each client builder produces its golden fixture", () => {
  const built = {
    compare: protocol.compare("synthetic/fixture.pantrace", "swipe-back", { threshold: 0.4 }),
    discard: protocol.discard(),
    label: protocol.label("finish"),
    load: protocol.load("synthetic/swipe-down-1.pantrace", "swipe-dismiss", { threshold: 0.3, velocity: "lsq2" }),
    loop: protocol.loop(false),
    pause: protocol.pause(),
    play: protocol.play(),
    pointer: protocol.pointer(1532.25, 12.5, 400, "down", 1),
    record: protocol.record({ width: 390, height: 844, scale: 3 }, "left", "swipe-back", { threshold: 0.27 },
      { sheet: { detents: [101, 422, 692], start: 2, target: 1 }, library: "gorhom" }),
    follow: protocol.follow(4),
    library: protocol.libraryFrom(100),
    visible: protocol.visible(false),
    save: protocol.save("my edge swipe"),
    seek: protocol.seek(0.25),
    speed: protocol.speed(0.5),
    step: protocol.step(-1),
    tune: protocol.tune([], "swipe-dismiss", [protocol.gridAxis("threshold", { from: 0.2, to: 0.8, step: 0.05 })]),
    watch: protocol.watch(2),
    keep: protocol.keep(["live/unsaved-ios-2-20261127101500-3.pantrace", "live/unsaved-ios-2-20261127101500-4.pantrace"], "finish", " edge back "),
    drop: protocol.drop(["live/unsaved-ios-2-20261127101500-5.pantrace"]),
  };
  // `source` and `samples` come from a live source (PanTraceLive, `pantrace live`), not a page.
  const fromPages = Object.keys(client).filter((name) => name !== "source" && name !== "samples");
  assert.deepEqual(Object.keys(built).sort(), fromPages.sort());
  for (const [name, message] of Object.entries(built)) {
    assert.equal(JSON.stringify(message), JSON.stringify(JSON.parse(client[name])), name);
  }
});

test("optional client fields are left out, never null", () => {
  assert.deepEqual(protocol.save("  "), { type: "save" });
  assert.deepEqual(protocol.record({ width: 390, height: 844 }), { type: "record", screen: { width: 390, height: 844, scale: 1 } });
  assert.deepEqual(protocol.follow(null), { type: "follow" });
  assert.equal(protocol.speed(9).value, 4);
  assert.equal(protocol.speed(0).value, 0.1);
  assert.equal(protocol.gridAxis("velocity", { values: ["recorded", "lsq2"] }), "velocity=recorded,lsq2");
});

test("unknown message types are ignored, broken ones are refused with the field at fault", () => {
  assert.equal(protocol.decodeServerMessage('{"type":"news","v":2}'), null);
  assert.throws(() => protocol.decodeServerMessage("{"), /not JSON/);
  assert.throws(() => protocol.decodeServerMessage("[1]"), /not a JSON object/);
  assert.throws(() => protocol.decodeServerMessage('{"kind":"frame"}'), /type/);
  const frame = JSON.parse(server.frame);
  frame.frame.layers[1].translation.y = "214";
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify(frame)), (e) => e instanceof protocol.ProtocolError && e.path === "frame.layers[1].translation.y");
  const playback = JSON.parse(server.playback);
  delete playback.load;
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify(playback)), /load/);
});

test("library notices are optional lines; one that is not a string is refused by its path", () => {
  const page = { type: "library", recordings: [], offset: 0, total: 0 };
  assert.deepEqual(protocol.decodeServerMessage(JSON.stringify(page)).notices, undefined);
  assert.deepEqual(protocol.decodeServerMessage(JSON.stringify({ ...page, notices: ["c.pantraces: only its first 1000"] })).notices,
    ["c.pantraces: only its first 1000"]);
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify({ ...page, notices: [3] })), (e) => e.path === "notices[0]" || /notices/.test(e.message));
  // The server's own encoding (the golden fixture) decodes to the line it carries.
  assert.match(protocol.decodeServerMessage(fixture("server", "library-notices")).notices[0], /only its first 3 are listed/);
  const hello = JSON.parse(server.hello);
  hello.state.library_notices = "one";
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify(hello)), /library_notices/);
});

test("frames of an earlier load are dropped, live preview frames are kept", () => {
  const frame = JSON.parse(fixture("server", "frame"));
  assert.equal(protocol.isCurrentFrame(frame, 1), true);
  assert.equal(protocol.isCurrentFrame(frame, 2), false);
  assert.equal(protocol.isCurrentFrame({ ...frame, load: -1 }, 2), true);
});

test("preset parameters decode into slider and choice specs, plus velocity", () => {
  const preset = protocol.decodeServerMessage(server.hello).state.presets[0];
  const specs = protocol.presetSpecs(preset);
  const threshold = specs.find((s) => s.key === "threshold");
  assert.deepEqual([threshold.kind, threshold.min, threshold.max, threshold.defaultValue], ["number", 0, 1, 0.5]);
  const comparison = specs.find((s) => s.key === "comparison");
  assert.deepEqual([comparison.kind, comparison.choices, comparison.defaultValue], ["choice", ["atLeast", "greaterThan"], "greaterThan"]);
  const velocity = specs.at(-1);
  assert.deepEqual([velocity.key, velocity.defaultValue, velocity.choices.length], ["velocity", "recorded", 4]);
});

test("watching nothing and keeping without a label or name leave those fields out", () => {
  assert.deepEqual(protocol.watch(null), { type: "watch" });
  assert.deepEqual(protocol.keep(["a"], "", "  "), { type: "keep", files: ["a"] });
});

test("a sources message with a mistyped field is refused by name", () => {
  const bad = JSON.parse(server.sources);
  bad.sources[0].live = "yes";
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify(bad)), /sources\[0\]\.live: expected a boolean/);
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify({ type: "dropped", files: [3] })), /files\[0\]: expected a string/);
});

test("a sheet answer decodes with its drag and settle, and a broken one is refused by its field", () => {
  const message = protocol.decodeServerMessage(server.sheet);
  assert.equal(message.library, "gorhom");
  assert.ok(message.drag.length > 0 && message.settle.tops.length > 0);
  const broken = JSON.parse(server.sheet);
  broken.drag[1] = [0.1];
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify(broken)), /drag\[1\]/);
  const empty = JSON.parse(server.sheet);
  empty.settle.tops = [];
  assert.throws(() => protocol.decodeServerMessage(JSON.stringify(empty)), /settle\.tops/);
  assert.deepEqual(protocol.compare("a", "vaul", {}, { detents: [1, 2], start: 0 }).sheet, { detents: [1, 2], start: 0 });
  assert.equal(protocol.compare("a", "best").sheet, undefined);
});
