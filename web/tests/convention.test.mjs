// The naming convention of web/README.md: `*.view.mjs` modules (and the entry point, app.mjs)
// touch the DOM; every other module is pure, so it loads in Node and never reaches for the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const web = new URL("../", import.meta.url);
const modules = readdirSync(web).filter((f) => f.endsWith(".mjs"));
const pure = modules.filter((f) => !f.endsWith(".view.mjs") && f !== "app.mjs");
// The page's globals (`location` only as the page's: a pure module may take one as a parameter).
const DOM = /\b(document|window|globalThis|HTML\w*Element|ResizeObserver|requestAnimationFrame|getComputedStyle)\b|\bhistory\.|\blocation\.hash/;
const code = (file) => readFileSync(new URL(file, web), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");

test("pure modules do not use the DOM or import a view", () => {
  assert.ok(pure.length >= 10);
  for (const file of pure) {
    const text = code(file);
    assert.doesNotMatch(text, DOM, `${file} uses the DOM: name it *.view.mjs`);
    assert.doesNotMatch(text, /from "\.\/[\w.-]+\.view\.mjs"/, `${file} imports a view`);
  }
});

test("pure modules load in Node", async () => {
  for (const file of pure) await import(new URL(file, web));
});

test("every pure module has tests", () => {
  const tests = new Set(readdirSync(new URL("tests/", web)).filter((f) => f.endsWith(".test.mjs")).map((f) => f.replace(/\.test\.mjs$/, ".mjs")));
  for (const file of pure) assert.ok(tests.has(file), `web/tests/${file.replace(/\.mjs$/, ".test.mjs")} is missing`);
});
