// Target trials on the Record tab: the controls, the prompt, and the sheet drawn over the
// stage with its detent lines, following the finger and settling where, and as, the server
// says the chosen library settles it; each released trial is saved at once, then the next is asked.
// The decisions are trials.mjs.
import { $, h, s } from "./dom.view.mjs";
import * as P from "./protocol.mjs";
import { isTrial } from "./record.mjs";
import { LIBRARIES, settledTop, settleTop, sheetFor } from "./sheet.mjs";
import { promptText, sessionSeed, settleText, sheetTop, tally, TrialPlan, trialSheet } from "./trials.mjs";

/** How long the settled sheet stays before it moves to the next trial's start. */
const HOLD_MS = 400;

export class TrialsView {
  constructor(store) {
    this.store = store;
    this.toggle = $("trials-on");
    this.librarySelect = $("trials-library");
    this.prompt = $("trials-prompt");
    this.tallyLine = $("trials-tally");
    this.last = $("trials-last");
    this.svg = $("sheet");
    this.body = $("sheet-body");
    this.lines = $("sheet-detents");
    this.plan = new TrialPlan(sessionSeed(location.search, (Date.now() >>> 0) % 1_000_000_000));
    this.landings = [];
    this.screen = null;
    this.animation = null;
    this.reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    this.librarySelect.replaceChildren(...LIBRARIES.map((name) => h("option", { value: name, text: name })));
    this.toggle.addEventListener("change", () => this.refresh());
    this.librarySelect.addEventListener("change", () => this.refresh());
    store.on("recording", ({ status, mine }) => this.onRecording(status, mine));
    store.on("stage", () => this.refresh());
    this.refresh();
  }

  /** Whether the next gesture on the pad is a trial. */
  get active() {
    return this.toggle.checked && this.plan.current !== null;
  }

  /** The `trial` argument of `P.record` for the pad's `screen`. */
  request(screen) {
    this.screen = screen;
    return { sheet: trialSheet(sheetFor(screen), this.plan.current), library: this.librarySelect.value };
  }

  /** The sheet under the finger (the pad's points so far, in screen points). */
  follow(screen, points) {
    if (!this.active) return;
    this.screen = screen;
    this.stopAnimation();
    this.drawSheet(sheetTop(sheetFor(screen), this.plan.current.start, points));
  }

  refresh() {
    const on = this.toggle.checked && this.store.tab === "record";
    this.svg.toggleAttribute("hidden", !on);  // an SVG element has no hidden property
    this.librarySelect.disabled = !this.toggle.checked;
    this.prompt.hidden = !this.toggle.checked;
    this.tallyLine.hidden = !this.toggle.checked || this.landings.length === 0;
    if (!this.toggle.checked) this.last.hidden = true;
    if (!this.toggle.checked) return;
    const screen = this.screen ?? this.store.padScreen ?? { width: 390, height: 844 };
    this.screen = screen;
    const sheet = sheetFor(screen);
    this.prompt.textContent = promptText(this.plan, sheet);
    this.prompt.dataset.index = String(this.plan.index);
    if (!this.animation && this.plan.current) this.drawSheet(sheet.detents[this.plan.current.start]);
  }

  /** The sheet at `top` points, with its detent lines (the target marked). */
  drawSheet(top) {
    const screen = this.screen;
    const sheet = sheetFor(screen);
    this.svg.setAttribute("viewBox", `0 0 ${screen.width} ${screen.height}`);
    this.body.setAttribute("x", "0");
    this.body.setAttribute("width", String(screen.width));
    this.body.setAttribute("y", String(top));
    this.body.setAttribute("height", String(Math.max(0, screen.height - top)));
    this.svg.dataset.top = String(Math.round(top * 100) / 100);
    const target = this.plan.current?.target;
    // Names about 13 px tall whatever the stage's scale (the viewBox is in points).
    const k = Number(document.getElementById("stage").dataset.k) || 1;
    this.lines.setAttribute("font-size", String(Math.round((13 / k) * 10) / 10));
    this.lines.replaceChildren(...sheet.detents.flatMap((y, i) => [
      s("line", { x1: "0", x2: String(screen.width), y1: String(y), y2: String(y), class: i === target ? "detent target" : "detent" }),
      s("text", { x: "8", y: String(y - 4 / k), class: i === target ? "detent-name target" : "detent-name", text: sheet.names[i] }),
    ]));
  }

  stopAnimation() {
    if (this.animation?.frame) cancelAnimationFrame(this.animation.frame);
    if (this.animation?.timer) clearTimeout(this.animation.timer);
    this.animation = null;
  }

  /**
   * From the release position to the settled detent along the library's own motion (the
   * frames the server sent), or at once under reduced motion.
   */
  settle(settle, to) {
    this.stopAnimation();
    const started = performance.now();
    const step = () => {
      const t = (performance.now() - started) / 1000;
      const top = settleTop(settle.motion, settle.position, t, this.reduced.matches);
      this.drawSheet(top);
      if (top === settle.motion.tops.at(-1)) {
        this.svg.dataset.settled = String(to);
        // Held there a moment, then the sheet waits at the next trial's start.
        this.animation = { timer: setTimeout(() => {
          this.animation = null;
          this.refresh();
        }, HOLD_MS) };
        return;
      }
      this.animation = { frame: requestAnimationFrame(step) };
    };
    this.animation = { frame: requestAnimationFrame(step) };
  }

  onRecording(status, mine) {
    if (!mine || !isTrial(status) || !this.screen) return;
    const sheet = sheetFor(this.screen);
    if (status.state === "released") {
      const text = settleText(sheet, status);
      this.prompt.textContent = text ? `${text}; saving` : "released; saving";
      this.last.textContent = status.settle ? `last: ${text}, because ${status.settle.reason}` : "last: the server could not read the gesture back to settle it";
      this.last.hidden = false;
      if (status.settle) {
        this.landings.push(status.settle.landing);
        this.settle(status.settle, settledTop(sheet, status.settle.detent, this.screen));
      }
      // A trial is labelled by its target: saved at once, so the next can follow.
      this.store.send(P.save("trial"));
    } else if (status.state === "saved") {
      this.plan.advance();
      const counts = tally(this.landings);
      this.tallyLine.textContent = `${this.landings.length} saved: ${counts.hit} hit, ${counts.skip} skip, ${counts.stuck} stuck, ${counts.wrong} wrong`;
      this.tallyLine.dataset.saved = String(this.landings.length);
      this.refresh();  // the prompt; the sheet moves to the next start once it has settled
    }
  }
}
