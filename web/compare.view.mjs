// The "compare with" menu and the two lines under it (compare.mjs decides): asks the server
// for the other setting's whole replay whenever what plays changes, so the timeline draws both.
import { $, h } from "./dom.view.mjs";
import {
  compareChoices, compareMessage, compareProblem, comparesWithItself, comparisonChart, comparisonFits, comparisonLine, sameCurve, sameCurveText, settingName,
} from "./compare.mjs";

const RETRY_MS = 250;

export class CompareView {
  constructor(store) {
    this.store = store;
    this.askedFor = null;
    $("compare").addEventListener("change", (e) => this.store.setView({ compare: e.target.value || null }));
    store.on("presets", () => this.showMenu());
    store.on("playback", () => this.follow());
    store.on("view", () => this.follow());
    store.on("compare", () => this.show());
    store.on("summary", () => this.show());
    store.on("series", () => this.show());
    // The server answers at most five comparisons a second per page: ask again shortly.
    store.on("error", (error) => {
      if (error.in_reply_to !== "compare") return;
      // Refused for good (the recording or preset is gone): said where "computing…" was.
      if (error.code !== "rate_limited" && error.code !== "busy") {
        this.refused = { ask: this.askedFor, text: `dashed: the server could not compare: ${error.message}` };
        return this.show();
      }
      // Asked too soon (five a second per page), or the server's budget for watch-only
      // comparisons is spent for now: ask again when the server says it may succeed.
      clearTimeout(this.retry);
      this.retry = setTimeout(() => {
        this.askedFor = null;
        this.follow();
      }, Math.max(RETRY_MS, error.retry_after_ms ?? 0));
    });
  }

  showMenu() {
    const menu = $("compare");
    const playing = this.store.playback?.preset;
    const choices = compareChoices(this.store.presets, playing);
    const key = choices.map((c) => c.value).join(",");
    if (menu.dataset.choices !== key) {
      menu.replaceChildren(...choices.map((c) => h("option", { value: c.value, text: c.text })));
      menu.dataset.choices = key;
    }
    menu.value = this.store.view.compare ?? "";
  }

  /** Asks for the comparison the view wants, once per load and choice. */
  follow() {
    this.showMenu();
    const { playback, view, comparison } = this.store;
    const choice = view.compare;
    const ask = `${playback?.load}:${choice}`;
    const problem = compareProblem(choice, this.store.presets);
    if (!problem && choice && playback && !comparisonFits(comparison, choice, playback) && this.askedFor !== ask) {
      const message = compareMessage(choice, playback);
      if (message) {
        this.askedFor = ask;
        this.store.send(message);
      }
    }
    this.show();
  }

  show() {
    const { playback, view, comparison, summary } = this.store;
    const box = $("compare-box");
    const fits = comparisonFits(comparison, view.compare, playback);
    box.hidden = !view.compare || !playback;
    box.dataset.ready = String(fits);
    if (box.hidden) return;
    $("compare-a").textContent = comparisonLine(`playing: ${settingName(playback.preset, playback.parameters)}`, summary);
    let b = "dashed: computing…";
    const problem = compareProblem(view.compare, this.store.presets);
    if (problem) b = problem;
    else if (!fits && this.refused && this.refused.ask === `${playback.load}:${view.compare}`) b = this.refused.text;
    else if (fits && comparesWithItself(comparison, playback)) b = "dashed: the defaults are what plays; move a parameter to see the two apart";
    else if (fits) b = comparisonLine(`dashed: ${settingName(comparison.preset, comparison.parameters)}`, comparison.summary);
    $("compare-b").textContent = b;
    box.dataset.decisionA = summary?.decision ?? "";
    box.dataset.decisionB = fits ? comparison.summary.decision : "";
    // Two settings that draw one curve: the dashed line hides under the solid one, so say it.
    const same = fits && this.store.series.whole ? sameCurve(this.store.series.frames, comparisonChart(comparison).frames) : null;
    box.dataset.same = same === null ? "" : String(same);
    $("compare-same").hidden = !same;
    $("compare-same").textContent = sameCurveText(same);
  }
}
