import { test } from "node:test";
import assert from "node:assert/strict";
import * as g from "../geometry.mjs";
import { decodeServerMessage } from "../protocol.mjs";
import { fixture } from "./fixtures.mjs";

const layer = (over = {}) => ({
  role: "outgoing", frame: { x: 0, y: 0, width: 390, height: 844 }, scale: 1,
  translation: { x: 0, y: 0 }, alpha: 1, corner_radius: 0, ...over,
});
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

test("the presented frame scales about the centre, then translates", () => {
  const p = g.presentedFrame(layer({ frame: { x: 10, y: 20, width: 100, height: 200 }, scale: 0.5, translation: { x: 5, y: -10 } }));
  assert.deepEqual(p, { x: 10 + 25 + 5, y: 20 + 50 - 10, width: 50, height: 100 });
});

test("the fixture frame's presented layer sits at its translation, scaled to the stage", () => {
  const frame = decodeServerMessage(fixture("server", "frame")).frame;
  const presented = frame.layers.find((l) => l.role === "presented");
  const box = g.layerBox(presented, 0.5);
  close(box.y, 214.08913790139079 / 2);
  assert.deepEqual([box.x, box.width, box.height], [0, 195, 422]);
});

test("CSS puts the untransformed frame in the box and the scale and translation in the transform", () => {
  const s = g.layerStyle(layer({ frame: { x: 0, y: 281, width: 390, height: 563 }, scale: 0.85, translation: { x: 0, y: 100 }, corner_radius: 15, alpha: 0.5 }), 0.5);
  assert.equal(s.left, "0px");
  assert.equal(s.top, "140.5px");
  assert.equal(s.width, "195px");
  assert.equal(s.height, "281.5px");
  assert.equal(s.transform, "translate(0px, 50px) scale(0.85)");
  assert.equal(s.transformOrigin, "50% 50%");
  assert.equal(s.borderRadius, "7.5px");
  assert.equal(s.opacity, "0.5");
  assert.equal(s.clipPath, "none");
  assert.equal(s.visibility, "visible");
});

test("a screen-space mask becomes a clip circle in the layer's own coordinates", () => {
  // Translated by (100, 0) and scaled 0.5 about the centre: presented origin (197.5, 211).
  const l = layer({ scale: 0.5, translation: { x: 100, y: 0 }, mask: { center: { x: 297.5, y: 411 }, radius: 50 } });
  const m = g.maskInLayer(l);
  close(m.cx, 200);
  close(m.cy, 400);
  close(m.r, 100);
  // Mapping back through the transform lands on the screen-space centre.
  const p = g.presentedFrame(l);
  close(p.x + m.cx * l.scale, 297.5);
  close(p.y + m.cy * l.scale, 411);
  assert.equal(g.layerStyle(l, 2).clipPath, "circle(200px at 400px 800px)");
});

test("an unscaled, untranslated masked layer clips at the mask's own centre", () => {
  const l = layer({ role: "incoming", mask: { center: { x: 972, y: 134.4 }, radius: 54.59 } });
  assert.equal(g.layerStyle(l, 0.25).clipPath, "circle(13.648px at 243px 33.6px)");
});

test("an oval mask (radius_y) becomes a clip ellipse, scaled into the layer's coordinates", () => {
  const l = layer({ scale: 0.5, translation: { x: 100, y: 0 }, mask: { center: { x: 297.5, y: 411 }, radius: 50, radius_y: 30 } });
  const m = g.maskInLayer(l);
  close(m.cx, 200);
  close(m.cy, 400);
  close(m.rx, 100);
  close(m.ry, 60);
  assert.equal(m.r, undefined);
  assert.equal(g.layerStyle(l, 2).clipPath, "ellipse(200px 120px at 400px 800px)");
  // circle-reveal at r = 1 on 390 × 844: the 79 × 48 pt button outset by R.
  const oval = layer({ role: "incoming", mask: { center: { x: 351, y: 59.08 }, radius: 39.5 + 880.41, radius_y: 24 + 880.41 } });
  assert.equal(g.layerStyle(oval, 1).clipPath, "ellipse(919.91px 904.41px at 351px 59.08px)");
});

test("a mask whose radius_y equals its radius is a circle", () => {
  const l = layer({ mask: { center: { x: 10, y: 20 }, radius: 5, radius_y: 5 } });
  assert.equal(g.layerStyle(l, 1).clipPath, "circle(5px at 10px 20px)");
  assert.equal(g.layerSvg(l).clipShape, "circle");
});

test("a zero radius mask or a zero scale hides the layer", () => {
  assert.equal(g.layerStyle(layer({ mask: { center: { x: 1, y: 1 }, radius: 5, radius_y: 0 } }), 1).visibility, "hidden");
  assert.equal(g.layerStyle(layer({ mask: { center: { x: 1, y: 1 }, radius: 0 } }), 1).visibility, "hidden");
  assert.equal(g.layerStyle(layer({ scale: 0 }), 1).visibility, "hidden");
  assert.deepEqual(g.maskInLayer(layer()), null);
});

test("SVG draws the presented frame in screen points with the mask in screen coordinates", () => {
  const svg = g.layerSvg(layer({ scale: 0.5, corner_radius: 10, mask: { center: { x: 50, y: 60 }, radius: 7 } }));
  assert.deepEqual(svg.rect, { x: "97.5", y: "211", width: "195", height: "422", rx: "5", opacity: "1" });
  assert.deepEqual(svg.clip, { cx: "50", cy: "60", r: "7" });
  assert.equal(svg.clipShape, "circle");
  assert.equal(g.layerSvg(layer()).clip, null);
  const oval = g.layerSvg(layer({ mask: { center: { x: 50, y: 60 }, radius: 7, radius_y: 9 } }));
  assert.deepEqual(oval.clip, { cx: "50", cy: "60", rx: "7", ry: "9" });
  assert.equal(oval.clipShape, "ellipse");
});

test("the stage fits the screen in its box", () => {
  close(g.fitScale({ width: 390, height: 844 }, { width: 300, height: 422 }), 0.5);
  close(g.fitScale({ width: 390, height: 844 }, { width: 195, height: 1000 }), 0.5);
  assert.equal(g.fitScale({ width: 0, height: 0 }, { width: 10, height: 10 }), 1);
  assert.deepEqual(g.screenOfLayers([layer(), layer({ frame: { x: 0, y: 0, width: 117, height: 844 } })]), { width: 390, height: 844 });
});

test("the finger starts at the edge of an edge pan, otherwise back from the centre against the motion", () => {
  const screen = { width: 400, height: 800 };
  assert.deepEqual(g.fingerAnchor(screen, "left", null), { x: 8, y: 400 });
  assert.deepEqual(g.fingerAnchor(screen, null, { x: 0, y: 100 }), { x: 200, y: 160 });
  assert.deepEqual(g.fingerAnchor(screen, null, { x: 0, y: 0 }), { x: 200, y: 400 });
  assert.equal(g.polyline([{ x: 1, y: 2 }, { x: 3.14159, y: 4 }]), "M1 2 L3.142 4");
  assert.equal(g.polyline([]), "");
});

test("the finger is about 11 CSS px across at any stage scale, and at least 10 points", () => {
  assert.equal(g.touchRadius(0.5), 22);
  assert.equal(g.touchRadius(2), 10);
  assert.equal(g.touchRadius(0), 1100);
});
