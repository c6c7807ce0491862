// The Tune tab: a sweep over one or two parameters, its heat map and table
// (heatmap.view.mjs), and replaying the recordings a chosen point misjudges, one after
// another. The decisions are tune.mjs.
import { $, h } from "./dom.view.mjs";
import * as P from "./protocol.mjs";
import { renderHeatmap, renderTable } from "./heatmap.view.mjs";
import { libraryLoadingText, recordingGroups } from "./replay.mjs";
import {
  bestText, decidesTwoState, defaultAxis, defaultAxisKey, findingsLines, matchesFilter, MisjudgedQueue, misjudgedCandidates, recordingsSummary, sweepExclusions, sweepGrid, sweepRecordings, sweepStatus,
} from "./tune.mjs";

export class TuneView {
  constructor(store) {
    this.store = store;
    this.presetSelect = $("tune-preset");
    this.axesBox = $("tune-axes");
    this.checklist = $("tune-recordings");
    this.status = $("tune-status");
    this.heatmap = $("heatmap");
    this.table = $("tune-table");
    this.queueBox = $("tune-queue");
    this.report = null;
    this.queue = null;
    this.listen();
    store.on("library", () => this.setLibrary(store.library));
    store.on("presets", (current) => this.setPresets(store.presets, current));
    store.on("playback", (playback) => this.onPlayback(playback, store.summary));
    store.on("tune", (tune) => this.show(tune));
    store.on("error", (error) => { if (error.in_reply_to === "tune") this.onError(error); });
  }

  listen() {
    this.presetSelect.addEventListener("change", () => this.renderAxes());
    $("tune-run").addEventListener("click", () => this.run());
    $("tune-all").addEventListener("click", () => this.checkAll(true));
    $("tune-none").addEventListener("click", () => this.checkAll(false));
    this.checklist.addEventListener("change", (e) => {
      if (e.target.classList.contains("folder-box")) this.checkFolder(e.target.dataset.folder, e.target.checked);
      else this.countChecked();
    });
    $("tune-filter").addEventListener("input", () => this.applyFilter());
    new ResizeObserver(() => this.renderReport()).observe(this.heatmap);
  }

  // MARK: The sweep

  setPresets(presets, current) {
    const value = this.presetSelect.value || current;
    this.presetSelect.replaceChildren(...presets.map((p) => h("option", { value: p.name, text: p.name })));
    this.presetSelect.value = presets.some((p) => p.name === value) ? value : presets[0]?.name ?? "";
    this.renderAxes();
  }

  specs() {
    return P.presetSpecs(this.store.presetNamed(this.presetSelect.value));
  }

  renderAxes() {
    const specs = this.specs();
    this.axesBox.replaceChildren(...[0, 1].map((index) => this.axisRow(specs, index)));
  }

  /** Axis `index` (0: columns, 1: rows): a parameter menu and its values' fields. */
  axisRow(specs, index) {
    const key = h("select", { class: "axis-key", "aria-label": `axis ${index + 1} parameter` },
      index === 1 ? h("option", { value: "", text: "(none)" }) : null,
      ...specs.map((sp) => h("option", { value: sp.key, text: sp.key })));
    const fields = h("span", { class: "axis-fields" });
    const row = h("div", { class: "axis-row", dataset: { axis: String(index) } }, h("span", { class: "axis-name", text: index ? "rows" : "columns" }), key, fields);
    const fill = () => this.fillAxisFields(fields, specs.find((sp) => sp.key === key.value));
    key.addEventListener("change", fill);
    key.value = defaultAxisKey(specs, index);
    fill();
    return row;
  }

  fillAxisFields(fields, spec) {
    fields.replaceChildren();
    if (!spec) return;
    const d = defaultAxis(spec);
    if (spec.kind === "choice") {
      fields.append(h("input", { type: "text", class: "axis-values", value: d.values, "aria-label": "values" }));
      return;
    }
    for (const part of ["from", "to", "step"]) {
      fields.append(h("label", { class: "mini" }, part, h("input", { type: "number", class: `axis-${part}`, step: "any", value: String(d[part]) })));
    }
  }

  /** The axis rows as typed. */
  axisFields() {
    return [...this.axesBox.querySelectorAll(".axis-row")].map((row) => {
      const field = (name) => row.querySelector(`.axis-${name}`)?.value;
      return { key: row.querySelector(".axis-key").value, values: field("values") ?? null, from: field("from"), to: field("to"), step: field("step") };
    });
  }

  /**
   * The recordings list: labelled recordings grouped by folder (folders of recordings first,
   * corpora after, as the recording menu), each folder with a box that ticks or clears it, and a
   * filter. A recording new to the list (a library page that arrived, a saved gesture) is
   * ticked when every one was; ticks are kept across pages. While the library still arrives,
   * the list is redrawn at most twice a second (a library of 20,000 arrives in 100 pages).
   */
  setLibrary(library) {
    const loading = library.length < this.store.libraryTotal;
    const now = performance.now();
    if (loading && this.listDrawnAt !== undefined && now - this.listDrawnAt < 500) return this.countChecked();
    this.listDrawnAt = now;
    const items = this.items();
    const checked = new Set(this.chosen());
    const known = new Set(items.map((b) => b.value));
    const everyOne = items.length === 0 || checked.size === items.length;
    const groups = recordingGroups(library.filter(decidesTwoState));
    this.checklist.replaceChildren(...groups.flatMap(([folder, list]) => [
      h("label", { class: "check folder", dataset: { folder } },
        h("input", { type: "checkbox", class: "folder-box", dataset: { folder } }), ` ${folder === "." ? "(top folder)" : folder}/ (${list.length})`),
      ...list.map((r) => h("label", { class: "check item", dataset: { folder } },
        h("input", { type: "checkbox", class: "item-box", value: r.id,
          checked: checked.has(r.id) || (!known.has(r.id) && everyOne) || r.id.startsWith("live/") }),
        ` ${r.id} `, h("span", { class: `intent ${r.intent}`, text: r.intent }))),
    ]));
    this.applyFilter();
  }

  /** Every recording's box (not the folders'). */
  items() {
    return [...this.checklist.querySelectorAll("input.item-box")];
  }

  /** The ids of the recordings ticked. */
  chosen() {
    return this.items().filter((b) => b.checked).map((b) => b.value);
  }

  /** `all` / `none`: every recording the filter shows. */
  checkAll(on) {
    for (const box of this.items()) if (!box.closest("label").hidden) box.checked = on;
    this.countChecked();
  }

  /** A folder's box: ticks or clears the recordings of that folder the filter shows. */
  checkFolder(folder, on) {
    for (const box of this.items()) if (box.closest("label").dataset.folder === folder && !box.closest("label").hidden) box.checked = on;
    this.countChecked();
  }

  /** Shows the recordings whose path holds the filter's text (any case), and their folders. */
  applyFilter() {
    const shown = matchesFilter($("tune-filter").value);
    const visible = new Set();
    for (const box of this.items()) {
      const row = box.closest("label");
      row.hidden = !shown(box.value);
      if (!row.hidden) visible.add(row.dataset.folder);
    }
    for (const row of this.checklist.querySelectorAll("label.folder")) row.hidden = !visible.has(row.dataset.folder);
    this.countChecked();
  }

  countChecked() {
    const items = this.items();
    // Each folder's box says whether all, none or some of its recordings are ticked.
    const byFolder = new Map();
    for (const box of items) {
      const folder = box.closest("label").dataset.folder;
      const [on, all] = byFolder.get(folder) ?? [0, 0];
      byFolder.set(folder, [on + (box.checked ? 1 : 0), all + 1]);
    }
    for (const box of this.checklist.querySelectorAll("input.folder-box")) {
      const [on, all] = byFolder.get(box.dataset.folder) ?? [0, 0];
      box.checked = on > 0 && on === all;
      box.indeterminate = on > 0 && on < all;
    }
    const loading = libraryLoadingText(this.store.library.length, this.store.libraryTotal);
    $("tune-recordings-summary").textContent = recordingsSummary(this.chosen().length, items.length)
      + (loading ? ` (${loading})` : "");
  }

  run() {
    const chosen = this.chosen();
    if (chosen.length === 0) return this.store.toast("choose at least one recording");
    this.showStatus("running", "sweeping…");
    const total = this.items().length;
    this.store.send(P.tune(sweepRecordings(chosen, total), this.presetSelect.value, sweepGrid(this.axisFields())));
  }

  showStatus(state, text) {
    this.status.textContent = text;
    this.status.dataset.state = state;
  }

  onError(error) {
    this.showStatus("error", error.message);
  }

  // MARK: The report

  show(tune) {
    this.tune = tune;
    this.report = tune.report;
    this.tunePreset = tune.preset;
    this.showStatus("done", sweepStatus(tune.report));
    $("tune-title").textContent = `Heat map · ${tune.preset}`;
    $("tune-best").textContent = bestText(tune.report);
    this.showExclusions(sweepExclusions(tune, this.store.library));
    const findings = findingsLines(tune.report);
    const list = $("tune-findings");
    list.hidden = findings.length === 0;
    list.replaceChildren(...findings.map((f) => h("li", { class: f.kind, text: f.text })));
    this.renderReport();
  }

  /** The recordings the sweep left out, each with its reason (none: hidden). */
  showExclusions(exclusions) {
    const box = $("tune-excluded");
    box.hidden = exclusions.length === 0;
    box.dataset.count = String(exclusions.length);
    $("tune-excluded-summary").textContent = `${exclusions.length} recording${exclusions.length === 1 ? "" : "s"} left out of this sweep (not scored, not replayed)`;
    $("tune-excluded-list").replaceChildren(...exclusions.map((e) => h("li", {}, h("span", { class: "excluded-id", text: e.id }), h("span", { class: "muted", text: ` — ${e.reason}` }))));
  }

  renderReport() {
    if (!this.report) return;
    const pick = (result) => this.replayMisjudged(result);
    renderHeatmap(this.heatmap, this.report, pick);
    renderTable(this.table, this.report, pick);
  }

  // MARK: Replaying what a point gets wrong

  /** Applies `result.values` and plays, one after another, the recordings they misjudge. */
  replayMisjudged(result) {
    const store = this.store;
    if (!store.canControl) return store.toast("watch only: open the URL with its ?token= to replay");
    const candidates = misjudgedCandidates(result, this.tune, store.library);
    this.queue = new MisjudgedQueue({ values: result.values, preset: this.tunePreset, candidates, loop: store.playback?.loop ?? true });
    store.send(P.loop(false));
    this.next();
  }

  next() {
    if (!this.queue) return;
    const load = this.queue.advance();
    if (!load) return this.finish();
    this.store.send(load);
    this.renderQueue();
  }

  finish() {
    const q = this.queue;
    // End on a recording the point gets wrong, not on the last one it judged right.
    const back = q.finalLoad(this.store.playback?.recording);
    if (back) this.store.send(back);
    this.store.send(P.loop(q.loop));
    this.queue = null;
    this.queueBox.hidden = false;
    this.queueBox.dataset.state = "done";
    this.queueBox.replaceChildren(h("span", { text: q.doneText }),
      ...q.misjudged.map((id) => h("button", { type: "button", class: "link", text: id, onclick: () => this.store.send(P.load(id, q.preset, q.values)) })));
  }

  stop() {
    if (this.queue) this.finish();
  }

  renderQueue() {
    this.queueBox.hidden = false;
    this.queueBox.dataset.state = "running";
    this.queueBox.replaceChildren(
      h("span", { text: this.queue.progressText }),
      h("button", { type: "button", text: "next", onclick: () => this.next() }),
      h("button", { type: "button", text: "stop", onclick: () => this.stop() }));
  }

  /** A `playback` message: the queued load arrived (its summary just before), or the replay ended. */
  onPlayback(playback, summary) {
    const action = this.queue?.onPlayback(playback, summary);
    if (action === "next") this.next();
    if (action === "misjudged") this.renderQueue();
  }
}
