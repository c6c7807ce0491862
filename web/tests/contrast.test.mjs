import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { AA, contrastRatio, luminance, over, parseColour } from "../contrast.mjs";

test("colours parse from hex and rgb(a), and anything else is null", () => {
  assert.deepEqual(parseColour("#fff"), [255, 255, 255, 1]);
  assert.deepEqual(parseColour("#3F63F0"), [63, 99, 240, 1]);
  assert.deepEqual(parseColour("rgb(1, 2, 3)"), [1, 2, 3, 1]);
  assert.deepEqual(parseColour("rgba(63, 99, 240, 0.9)"), [63, 99, 240, 0.9]);
  assert.equal(parseColour("var(--fg)"), null);
  assert.equal(parseColour("#12345"), null);
});

test("contrast ratios are WCAG's: 21 for black on white, 4.54 for #767676, 1 for a colour on itself", () => {
  assert.equal(luminance([255, 255, 255]), 1);
  assert.equal(contrastRatio("#000", "#fff"), 21);
  assert.equal(contrastRatio("#fff", "#000"), 21);
  assert.equal(contrastRatio("#767676", "#ffffff").toFixed(2), "4.54");
  assert.equal(contrastRatio("#777777", "#ffffff") < AA.text, true);
  assert.equal(contrastRatio("#3f63f0", "#3f63f0"), 1);
  // A translucent colour is laid over the background first: black at half alpha on white is mid grey.
  assert.deepEqual(over([0, 0, 0, 0.5], [255, 255, 255, 1]), [127.5, 127.5, 127.5, 1]);
  assert.equal(contrastRatio([0, 0, 0, 0], "#ffffff"), 1);
});

// The viewer's palette (web/style.css), light and dark: every pair the page draws text or a
// focus ring with. The browser's axe-core scan (Tests/browser/test_accessibility.py) sees the
// states a page is in; this sees the ones a scan may not reach (capturing, saved, a cancelled
// phase, a warning) in both schemes.
const css = readFileSync(new URL("../style.css", import.meta.url), "utf8");
const blocks = [...css.matchAll(/:root\s*\{([^}]*)\}/g)].map((m) => Object.fromEntries([...m[1].matchAll(/--([\w-]+):\s*([^;]+);/g)].map((x) => [x[1], x[2].trim()])));
const SCHEMES = { light: blocks[0], dark: { ...blocks[0], ...blocks[1] } };

const TEXT = [
  // On the cards: body text, labels and hints, links, the charts' labels, warnings, the table's best row.
  ...["fg", "muted", "accent", "finish", "cancel", "warn", "progress", "completion", "velocity", "threshold", "landing"].map((fg) => [fg, "card"]),
  // On the page and the tab strip: the tabs not chosen.
  ["fg", "bg"], ["muted", "bg"],
  // On the grey pills and boxes: the phase, the decision, the record status, intents, the comparison, the tune queue.
  ...["fg", "muted", "accent", "completion", "finish", "cancel"].map((fg) => [fg, "grid"]),
  // Filled: primary buttons, the chosen finish/cancel label, the toast.
  ["accent-fg", "accent"], ["accent-fg", "finish"], ["accent-fg", "cancel"], ["bg", "fg"],
];

for (const [scheme, palette] of Object.entries(SCHEMES)) {
  test(`every text colour of the ${scheme} palette has 4.5:1 on what it is drawn on, the focus ring 3:1`, () => {
    assert.ok(Object.keys(palette).length > 20, "the palette was read");
    const low = [];
    for (const [fg, bg] of TEXT) {
      const ratio = contrastRatio(palette[fg], palette[bg]);
      if (!(ratio >= AA.text)) low.push(`--${fg} ${palette[fg]} on --${bg} ${palette[bg]}: ${ratio.toFixed(2)}:1`);
    }
    for (const bg of ["card", "bg"]) {
      const ratio = contrastRatio(palette.accent, palette[bg]);
      if (!(ratio >= AA.graphics)) low.push(`focus ring --accent on --${bg}: ${ratio.toFixed(2)}:1`);
    }
    assert.deepEqual(low, []);
  });
}
