// The Tune tab: a sweep over one or two parameters, its heat map and table, and replaying
// the recordings a chosen point misjudges, one after another.
import { $, h, num, s } from "./dom.mjs";
import * as P from "./protocol.mjs";
import { heatmapModel, libraryIds, tableRows, valueLabel } from "./heatmap.mjs";

function defaultAxis(spec) {
  if (spec.kind === "choice") return { values: spec.choices.join(",") };
  const d = spec.defaultValue;
  if (spec.min === 0 && spec.max === 1) return { from: 0.2, to: 0.8, step: 0.05 };
  const from = Math.max(spec.min, d / 2);
  const to = Math.min(spec.max, d * 1.5);
  const step = Number(((to - from) / 10).toPrecision(2));
  return { from: Number(from.toPrecision(3)), to: Number(to.toPrecision(3)), step: step || 1 };
}

export class Tuner {
  constructor(app) {
    this.app = app;
    this.presetSelect = $("tune-preset");
    this.axesBox = $("tune-axes");
    this.checklist = $("tune-recordings");
    this.status = $("tune-status");
    this.heatmap = $("heatmap");
    this.table = $("tune-table");
    this.queueBox = $("tune-queue");
    this.report = null;
    this.queue = null;
    this.presetSelect.addEventListener("change", () => this.renderAxes());
    $("tune-run").addEventListener("click", () => this.run());
    $("tune-all").addEventListener("click", () => this.checkAll(true));
    $("tune-none").addEventListener("click", () => this.checkAll(false));
    this.checklist.addEventListener("change", () => this.countChecked());
    new ResizeObserver(() => this.renderReport()).observe(this.heatmap);
  }

  setPresets(presets, current) {
    const value = this.presetSelect.value || current;
    this.presetSelect.replaceChildren(...presets.map((p) => h("option", { value: p.name, text: p.name })));
    this.presetSelect.value = presets.some((p) => p.name === value) ? value : presets[0]?.name ?? "";
    this.renderAxes();
  }

  specs() {
    return P.presetSpecs(this.app.presets.find((p) => p.name === this.presetSelect.value));
  }

  renderAxes() {
    const specs = this.specs();
    const rows = [0, 1].map((index) => {
      const key = h("select", { class: "axis-key", "aria-label": `axis ${index + 1} parameter` },
        index === 1 ? h("option", { value: "", text: "(none)" }) : null,
        ...specs.map((sp) => h("option", { value: sp.key, text: sp.key })));
      const fields = h("span", { class: "axis-fields" });
      const row = h("div", { class: "axis-row", dataset: { axis: String(index) } }, h("span", { class: "axis-name", text: index ? "rows" : "columns" }), key, fields);
      const fill = () => {
        const spec = specs.find((sp) => sp.key === key.value);
        fields.replaceChildren();
        if (!spec) return;
        const d = defaultAxis(spec);
        if (spec.kind === "choice") {
          fields.append(h("input", { type: "text", class: "axis-values", value: d.values, "aria-label": "values" }));
        } else {
          for (const part of ["from", "to", "step"]) {
            fields.append(h("label", { class: "mini" }, part, h("input", { type: "number", class: `axis-${part}`, step: "any", value: String(d[part]) })));
          }
        }
      };
      key.addEventListener("change", fill);
      key.value = index === 0 ? (specs.find((sp) => sp.kind === "number")?.key ?? specs[0]?.key) : "";
      fill();
      return row;
    });
    this.axesBox.replaceChildren(...rows);
  }

  grid() {
    const out = [];
    for (const row of this.axesBox.querySelectorAll(".axis-row")) {
      const key = row.querySelector(".axis-key").value;
      if (!key) continue;
      const values = row.querySelector(".axis-values");
      if (values) out.push(P.gridAxis(key, { values: values.value.split(",").map((v) => v.trim()).filter(Boolean) }));
      else out.push(P.gridAxis(key, { from: row.querySelector(".axis-from").value, to: row.querySelector(".axis-to").value, step: row.querySelector(".axis-step").value }));
    }
    return out;
  }

  setLibrary(library) {
    const checked = new Set([...this.checklist.querySelectorAll("input:checked")].map((i) => i.value));
    const fresh = this.checklist.children.length === 0;
    const labelled = library.filter((r) => r.intent !== "unknown");
    this.checklist.replaceChildren(...labelled.map((r) => h("label", { class: "check" },
      h("input", { type: "checkbox", value: r.id, checked: fresh || checked.has(r.id) || r.id.startsWith("live/") }),
      ` ${r.id} `, h("span", { class: `intent ${r.intent}`, text: r.intent }))));
    this.countChecked();
  }

  checkAll(on) {
    for (const box of this.checklist.querySelectorAll("input")) box.checked = on;
    this.countChecked();
  }

  countChecked() {
    const all = this.checklist.querySelectorAll("input").length;
    const n = this.checklist.querySelectorAll("input:checked").length;
    $("tune-recordings-summary").textContent = n === all ? `recordings: all ${all} labelled` : `recordings: ${n} of ${all}`;
  }

  run() {
    const boxes = [...this.checklist.querySelectorAll("input")];
    const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
    if (chosen.length === 0) return this.app.toast("choose at least one recording");
    this.status.textContent = "sweeping…";
    this.status.dataset.state = "running";
    this.app.send(P.tune(chosen.length === boxes.length ? [] : chosen, this.presetSelect.value, this.grid()));
  }

  onError(error) {
    this.status.textContent = error.message;
    this.status.dataset.state = "error";
  }

  show(tune) {
    this.report = tune.report;
    this.tunePreset = tune.preset;
    const r = tune.report;
    this.status.textContent = `${r.traces?.tuned ?? "?"} recordings × ${r.grid?.points ?? "?"} points`;
    this.status.dataset.state = "done";
    $("tune-title").textContent = `Heat map · ${tune.preset}`;
    const best = r.best;
    $("tune-best").textContent = best
      ? `best ${Object.entries(best.values).map(([k, v]) => `${k}=${valueLabel(v)}`).join(" ")}: ${best.correct}/${best.traces}` +
        (r.defaults ? ` (defaults ${r.defaults.correct}/${r.defaults.traces})` : "")
      : "";
    this.renderReport();
  }

  renderReport() {
    const report = this.report;
    if (!report) return;
    const width = Math.max(260, this.heatmap.clientWidth || 480);
    const axes = report.grid?.axes ?? [];
    const rows = axes[1]?.values.length ?? 1;
    const height = Math.min(420, 56 + rows * (axes[1] ? 26 : 44));
    const m = heatmapModel(report, { width, height });
    this.heatmap.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.heatmap.dataset.cells = String(m.cells.length);
    const parts = [];
    for (const cell of m.cells) {
      const title = `${Object.entries(cell.result.values).map(([k, v]) => `${k}=${valueLabel(v)}`).join(", ")}: ` +
        `${cell.result.correct}/${cell.result.traces} correct, ${cell.result.false_finishes ?? 0} false finishes, ${cell.result.false_cancels ?? 0} false cancels`;
      const rect = s("rect", { class: `cell${cell.isBest ? " best" : ""}`, x: cell.x + 1, y: cell.y + 1, width: Math.max(1, cell.width - 2),
        height: Math.max(1, cell.height - 2), rx: 3, fill: cell.fill, tabindex: "0", role: "button",
        dataset: { point: String(cell.result.point) } }, s("title", { text: title }));
      rect.addEventListener("click", () => this.replayMisjudged(cell.result));
      rect.addEventListener("keydown", (e) => { if (e.key === "Enter") this.replayMisjudged(cell.result); });
      parts.push(rect);
      if (cell.width >= 30 && cell.height >= 16) {
        parts.push(s("text", { class: "cell-label", x: cell.x + cell.width / 2, y: cell.y + cell.height / 2 + 4, "text-anchor": "middle", text: cell.label }));
      }
      if (cell.isDefault) {
        const cx = cell.x + cell.width - 8;
        const cy = cell.y + 8;
        parts.push(s("path", { class: "default-mark", d: `M${cx} ${cy - 5} L${cx + 5} ${cy} L${cx} ${cy + 5} L${cx - 5} ${cy} Z` }, s("title", { text: "the preset's defaults" })));
      }
    }
    const every = Math.max(1, Math.ceil(m.columns.length / Math.max(1, Math.floor((width - 80) / 44))));
    m.columns.forEach((v, i) => {
      if (i % every) return;
      parts.push(s("text", { class: "tick", x: m.pad.left + (i + 0.5) * m.cellWidth, y: height - m.pad.bottom + 16, "text-anchor": "middle", text: valueLabel(v) }));
    });
    parts.push(s("text", { class: "axis-title", x: m.pad.left + (width - m.pad.left - m.pad.right) / 2, y: height - 6, "text-anchor": "middle", text: axes[0]?.key ?? "" }));
    if (axes[1]) {
      m.rows.forEach((v, i) => {
        parts.push(s("text", { class: "tick", x: m.pad.left - 6, y: m.pad.top + (m.rows.length - 1 - i + 0.5) * m.cellHeight + 4, "text-anchor": "end", text: valueLabel(v) }));
      });
    }
    this.heatmap.replaceChildren(...parts);
    this.renderTable(report, axes);
  }

  renderTable(report, axes) {
    const head = h("tr", {}, ...axes.map((a) => h("th", { text: a.key })),
      ...["accuracy", "correct", "false finish", "false cancel", "min margin", "completion s"].map((t) => h("th", { text: t })));
    const rows = tableRows(report, 40).map((r) => {
      const tr = h("tr", { class: r.point === report.best?.point ? "best" : "", tabindex: "0", dataset: { point: String(r.point) } },
        ...axes.map((a) => h("td", { text: valueLabel(r.values[a.key]) })),
        h("td", { text: `${num((r.accuracy ?? 0) * 100, 1)}%` }), h("td", { text: `${r.correct}/${r.traces}` }),
        h("td", { text: String(r.false_finishes ?? 0) }), h("td", { text: String(r.false_cancels ?? 0) }),
        h("td", { text: num(r.min_margin, 3) }), h("td", { text: num(r.mean_completion_s, 3) }));
      tr.addEventListener("click", () => this.replayMisjudged(r));
      return tr;
    });
    this.table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows));
  }

  // MARK: Replaying what a point gets wrong

  /** Applies `result.values` and plays, one after another, the recordings they misjudge. */
  replayMisjudged(result) {
    if (!this.app.canControl) return this.app.toast("watch only: open the URL with its ?token= to replay");
    const library = this.app.library;
    const isBest = result.point === this.report.best?.point;
    // The report lists what the best point gets wrong; any other point is checked recording
    // by recording from the summary of its replay.
    const candidates = isBest
      ? libraryIds((this.report.misjudged ?? []).map((m) => m.file), library)
      : [...this.checklist.querySelectorAll("input:checked")].map((b) => b.value);
    this.queue = { values: result.values, preset: this.tunePreset, candidates, index: -1, misjudged: [], loop: this.app.playback?.loop ?? true, waiting: null };
    this.app.send(P.loop(false));
    this.next();
  }

  next() {
    const q = this.queue;
    if (!q) return;
    q.index += 1;
    if (q.index >= q.candidates.length) return this.finish();
    const id = q.candidates[q.index];
    q.waiting = { id, phase: "load" };
    this.app.send(P.load(id, q.preset, q.values));
    this.renderQueue();
  }

  finish() {
    const q = this.queue;
    this.app.send(P.loop(q.loop));
    this.queue = null;
    this.queueBox.hidden = false;
    this.queueBox.dataset.state = "done";
    this.queueBox.replaceChildren(h("span", { text: `done: ${q.misjudged.length} misjudged of ${q.candidates.length} at ${this.valuesText(q.values)}` }),
      ...q.misjudged.map((id) => h("button", { type: "button", class: "link", text: id, onclick: () => this.app.send(P.load(id, q.preset, q.values)) })));
  }

  stop() {
    if (this.queue) this.finish();
  }

  valuesText(values) {
    return Object.entries(values).map(([k, v]) => `${k}=${valueLabel(v)}`).join(" ");
  }

  renderQueue() {
    const q = this.queue;
    this.queueBox.hidden = false;
    this.queueBox.dataset.state = "running";
    const current = q.candidates[q.index];
    this.queueBox.replaceChildren(
      h("span", { text: `${this.valuesText(q.values)} · ${q.index + 1}/${q.candidates.length} · misjudged so far ${q.misjudged.length} · ${current}` }),
      h("button", { type: "button", text: "next", onclick: () => this.next() }),
      h("button", { type: "button", text: "stop", onclick: () => this.stop() }));
  }

  /** A `playback` message: the queued load arrived (its summary just before), or the replay ended. */
  onPlayback(playback, summary) {
    const q = this.queue;
    if (!q?.waiting || playback.recording !== q.waiting.id) return;
    if (q.waiting.phase === "load") {
      if (summary?.correct === false) {
        q.misjudged.push(q.waiting.id);
        q.waiting.phase = "playing";
        q.waiting.load = playback.load;
        this.renderQueue();
      } else {
        this.next();
      }
    } else if (q.waiting.phase === "playing" && playback.load === q.waiting.load && !playback.playing) {
      this.next();
    }
  }
}
