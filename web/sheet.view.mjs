// The Replay tab's sheets: the recording that plays, replayed as a drag of a three-detent sheet
// through one sheet library, and beside it another library on the same gesture. Each phone
// draws its sheet with the detent lines, moving with the finger and then as its library
// settles it (the frames the server sent), with the verdict under it: where, why, how. Asks
// the server with `compare` and a sheet (docs/PROTOCOL.md); the decisions are sheet.mjs.
import { $, h, s } from "./dom.view.mjs";
import { num } from "./format.mjs";
import {
  answerKey, detentName, DETENTS, keyOf, LIBRARIES, motionSeconds, motionTop, sheetFor, sheetRequest, startFor, verdictLines,
} from "./sheet.mjs";

const RETRY_MS = 250;
/** Answers kept, by key: a page that goes back and forth between two recordings asks once. */
const KEPT = 32;
/** The screen of a recording the library does not describe. */
const FALLBACK_SCREEN = { width: 390, height: 844 };

export class SheetView {
  constructor(store) {
    this.store = store;
    this.answers = new Map();
    this.pending = null;
    this.time = 0;
    this.frame = null;
    this.reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.selects = { a: $("sheet-a"), b: $("sheet-b") };
    this.selects.a.replaceChildren(h("option", { value: "", text: "off" }), ...LIBRARIES.map((name) => h("option", { value: name, text: name })));
    this.selects.b.replaceChildren(h("option", { value: "", text: "nothing" }), ...LIBRARIES.map((name) => h("option", { value: name, text: name })));
    this.start = $("sheet-start");
    this.start.replaceChildren(
      h("option", { value: "auto", text: "by the drag's direction" }), ...DETENTS.map((d) => h("option", { value: d.name, text: d.name })));
    this.play = $("sheet-play");
    this.scrub = $("sheet-time");
    for (const select of [this.selects.a, this.selects.b, this.start]) select.addEventListener("change", () => this.follow(true));
    this.play.addEventListener("click", () => this.toggle());
    this.scrub.addEventListener("input", () => {
      this.stop();
      this.show(Number(this.scrub.value));
    });
    store.on("playback", () => this.follow(false));
    store.on("series", () => this.follow(false));
    store.on("library", () => this.follow(false));
    store.on("sheet", (answer) => this.receive(answer));
    store.on("error", (error) => this.retry(error));
    this.follow(false);
  }

  /** The recording that plays, its screen, the sheet on it and the start detent asked for. */
  get setting() {
    const recording = this.store.playback?.recording;
    if (!recording) return null;
    const screen = this.store.library.find((r) => r.id === recording)?.screen ?? FALLBACK_SCREEN;
    const sheet = sheetFor(screen);
    const frames = this.store.series?.frames ?? [];
    const moved = frames.findLast?.((f) => f.gesture)?.gesture.translation.y ?? 0;
    return { recording, screen, sheet, start: startFor(this.start.value, sheet, moved > 0) };
  }

  /** The libraries chosen, A first; none when the sheet is off. */
  get libraries() {
    const a = this.selects.a.value;
    const b = this.selects.b.value;
    if (!a) return [];
    return b && b !== a ? [a, b] : [a];
  }

  /** Asks for what the choices want and is not kept yet, one request at a time; draws. */
  follow(restart) {
    const setting = this.setting;
    $("sheet-pair").hidden = this.libraries.length === 0;
    $("sheet-transport").hidden = this.libraries.length === 0;
    this.selects.b.disabled = !this.selects.a.value;
    if (!setting || this.libraries.length === 0) return this.draw();
    if (!this.pending) {
      const missing = this.libraries.find((library) => !this.answers.has(answerKey(setting.recording, library, setting.sheet, setting.start)));
      if (missing) {
        this.pending = answerKey(setting.recording, missing, setting.sheet, setting.start);
        this.store.send(sheetRequest(setting.recording, missing, setting.sheet, setting.start));
      }
    }
    if (restart) this.time = 0;
    this.draw();
  }

  receive(answer) {
    const key = keyOf(answer);
    this.answers.set(key, answer);
    if (this.answers.size > KEPT) this.answers.delete(this.answers.keys().next().value);
    if (this.pending === key) this.pending = null;
    this.follow(false);
  }

  /** Asked too soon (the page's five comparisons a second), or the server is busy: ask again. */
  retry(error) {
    if (!this.pending || error.in_reply_to !== "compare") return;
    this.pending = null;
    if (error.code !== "rate_limited" && error.code !== "busy") return this.draw(error.message);
    clearTimeout(this.retrying);
    this.retrying = setTimeout(() => this.follow(false), Math.max(RETRY_MS, error.retry_after_ms ?? 0));
  }

  /** The answers for the current setting, A then B (null while asked). */
  current() {
    const setting = this.setting;
    if (!setting) return [];
    return this.libraries.map((library) => this.answers.get(answerKey(setting.recording, library, setting.sheet, setting.start)) ?? null);
  }

  toggle() {
    if (this.frame) return this.stop();
    const answers = this.current().filter(Boolean);
    if (answers.length === 0) return;
    const end = Math.max(...answers.map(motionSeconds));
    // Reduced motion: no animation; the sheets are shown at rest (the scrub still steps through).
    if (this.reduced.matches) return this.show(end);
    const from = this.time >= end ? 0 : this.time;
    const started = performance.now() - from * 1000;
    this.play.textContent = "pause";
    this.play.setAttribute("aria-pressed", "true");
    const step = () => {
      const t = (performance.now() - started) / 1000;
      this.show(Math.min(t, end));
      if (t >= end) return this.stop();
      this.frame = requestAnimationFrame(step);
    };
    this.frame = requestAnimationFrame(step);
  }

  stop() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = null;
    this.play.textContent = "play";
    this.play.setAttribute("aria-pressed", "false");
  }

  show(t) {
    this.time = t;
    this.draw();
  }

  draw(problem = null) {
    const setting = this.setting;
    const answers = this.current();
    const end = Math.max(0, ...answers.filter(Boolean).map(motionSeconds));
    this.scrub.max = String(Math.max(end, 0.001));
    this.scrub.value = String(Math.min(this.time, end));
    $("sheet-clock").textContent = `${num(Math.min(this.time, end), 3)} s`;
    for (const [i, side] of ["a", "b"].entries()) {
      const figure = $(`sheet-phone-${side}`);
      const library = this.libraries[i];
      figure.hidden = !library;
      if (!library || !setting) continue;
      const answer = answers[i];
      const text = $(`sheet-text-${side}`);
      if (!answer) {
        text.replaceChildren(h("span", { text: problem ? `${library}: ${problem}` : `${library}: replaying…` }));
        figure.dataset.ready = "false";
        this.drawPhone(side, setting, null, null);
        continue;
      }
      // Before its own end each sheet moves; after it, it rests where its library put it.
      const top = motionTop(answer, Math.min(this.time, motionSeconds(answer)), false);
      figure.dataset.ready = "true";
      figure.dataset.detent = String(answer.detent);
      figure.dataset.top = String(Math.round(top * 100) / 100);
      text.replaceChildren(...verdictLines(answer, setting.sheet).map((line, j) => h(j === 0 ? "strong" : "span", { text: line })));
      this.drawPhone(side, setting, answer, top);
    }
  }

  /** One phone: the screen, the detent lines (the chosen one bolder) and the sheet at `top`. */
  drawPhone(side, setting, answer, top) {
    const { screen, sheet } = setting;
    const svg = $(`sheet-svg-${side}`);
    svg.setAttribute("viewBox", `0 0 ${screen.width} ${screen.height}`);
    const where = answer ? `${answer.library}: the sheet at ${num(top, 0)} pt; it settles at ${detentName(sheet, answer.detent)}` : "waiting for the replay";
    svg.setAttribute("aria-label", where);
    const chosen = answer?.detent;
    const y = top ?? sheet.detents[setting.start];
    // Sizes in the screen's units: the same on the page for an 844 pt phone and a 1920 px one.
    const u = screen.height / 844;
    const size = (v) => String(Math.round(v * u * 100) / 100);
    svg.replaceChildren(
      s("rect", {
        class: "phone-screen", x: "0", y: "0", width: String(screen.width), height: String(screen.height), rx: size(28), "stroke-width": size(3),
      }),
      s("rect", {
        class: "sheet-body", x: "0", y: String(y), width: String(screen.width), height: String(Math.max(0, screen.height - y)), rx: size(18),
        "stroke-width": size(2),
      }),
      ...sheet.detents.flatMap((d, i) => [
        s("line", {
          class: i === chosen ? "detent chosen" : "detent", x1: "0", x2: String(screen.width), y1: String(d), y2: String(d),
          "stroke-width": size(i === chosen ? 6 : 3), "stroke-dasharray": i === chosen ? null : `${size(12)} ${size(10)}`,
        }),
        s("text", {
          class: i === chosen ? "detent-name chosen" : "detent-name", x: size(14), y: String(d - 10 * u), "font-size": size(40),
          "stroke-width": size(9), text: sheet.names[i],
        }),
      ]),
    );
  }
}
