// The Tune tab's decisions, without the DOM: the sweep's default axes and grid, the texts the
// tab shows, and the queue that replays, one after another, what a point misjudges. Pure.
import { libraryIds, valueLabel } from "./heatmap.mjs";
import { num } from "./format.mjs";
import * as P from "./protocol.mjs";

/** A sweep axis to start from for a parameter: every choice, or a range around the default. */
export function defaultAxis(spec) {
  if (spec.kind === "choice") return { values: spec.choices.join(",") };
  const d = spec.defaultValue;
  if (spec.min === 0 && spec.max === 1) return { from: 0.2, to: 0.8, step: 0.05 };
  const from = Math.max(spec.min, d / 2);
  const to = Math.min(spec.max, d * 1.5);
  const step = Number(((to - from) / 10).toPrecision(2));
  return { from: Number(from.toPrecision(3)), to: Number(to.toPrecision(3)), step: step || 1 };
}

/**
 * The parameter an axis row starts on: for columns the decision's `threshold` (what a sweep is
 * most often for), else the first number; none for rows.
 */
export const defaultAxisKey = (specs, index) => (index === 0
  ? (specs.find((sp) => sp.key === "threshold")?.key ?? specs.find((sp) => sp.kind === "number")?.key ?? specs[0]?.key)
  : "");

/**
 * The `tune` grid from the axis rows as typed: `{key, values}` (comma-separated text, for a
 * choice) or `{key, from, to, step}`; a row without a key is left out.
 */
export function sweepGrid(rows) {
  return rows.filter((row) => row.key).map((row) => (row.values !== null && row.values !== undefined
    ? P.gridAxis(row.key, { values: row.values.split(",").map((v) => v.trim()).filter(Boolean) })
    : P.gridAxis(row.key, { from: row.from, to: row.to, step: row.step })));
}

/** The `recordings` of a `tune`: none (every labelled one) when all are chosen. */
export const sweepRecordings = (chosen, total) => (chosen.length === total ? [] : chosen);

/** The recordings summary line: all, or how many of them. */
export const recordingsSummary = (checked, all) => (checked === all ? `recordings: all ${all} labelled` : `recordings: ${checked} of ${all}`);

/** Parameter values as `key=value` pairs. */
export const valuesText = (values, separator = " ") => Object.entries(values).map(([k, v]) => `${k}=${valueLabel(v)}`).join(separator);

/**
 * The status after a sweep: how many recordings over how many points, then the recordings
 * left out because they do not drive the preset (`excluded.not_fitting`, docs/MODEL.md §2.6).
 */
export function sweepStatus(report) {
  const base = `${report.traces?.tuned ?? "?"} recordings × ${report.grid?.points ?? "?"} points`;
  const x = report.excluded ?? {};
  const parts = [];
  if (x.off_axis > 0) parts.push(`${x.off_axis} moving along the other axis`);
  if (x.no_progress > 0) parts.push(`${x.no_progress} never reaching progress 0.05`);
  if (x.wrong_way > 0) parts.push(`${x.wrong_way} dragging the wrong way`);
  return parts.length ? `${base}; left out, not driving the preset: ${parts.join(", ")}` : base;
}

/** The best point and the defaults, as the heat map's head shows them; empty without a best. */
export function bestText(report) {
  const best = report.best;
  if (!best) return "";
  const defaults = report.defaults ? ` (defaults ${report.defaults.correct}/${report.defaults.traces})` : "";
  return `best ${valuesText(best.values)}: ${best.correct}/${best.traces}${defaults}`;
}

/**
 * What the report says about how far to trust its best point (docs/TUNE.md): its notes (equal
 * points, axes without effect, a best on the grid's edge, the accuracy's interval and the
 * cross-validated accuracy), then one line per tag or source of the breakdown. Empty for a
 * report without findings (an older server).
 */
export function findingsLines(report) {
  const lines = (report.notes ?? []).map((text) => ({ kind: "note", text }));
  for (const b of report.breakdown ?? []) {
    const own = b.own_best ? `; on its own, best ${valuesText(b.own_best.values)}: ${b.own_best.correct}/${b.traces}` : "";
    lines.push({
      kind: "breakdown",
      text: `${b.kind} ${b.value}: ${b.best_correct}/${b.traces} at the best point (defaults ${b.defaults_correct}/${b.traces})${own}`,
    });
  }
  return lines;
}

/** A heat map cell's tooltip: its values and how it judged. */
export const cellTitle = (result) => `${valuesText(result.values, ", ")}: ` +
  `${result.correct}/${result.traces} correct, ${result.false_finishes ?? 0} false finishes, ${result.false_cancels ?? 0} false cancels`;

/** The heat map's height for its axes: a row per value of the second axis, within 420 px. */
export function heatmapHeight(axes) {
  const rows = axes[1]?.values.length ?? 1;
  return Math.min(420, 56 + rows * (axes[1] ? 26 : 44));
}

/** Label every how-many-th column so labels about 44 px apart fit in `width`. */
export const tickEvery = (columns, width) => Math.max(1, Math.ceil(columns / Math.max(1, Math.floor((width - 80) / 44))));

/** The result table's column heads after the axes'. */
export const TABLE_HEADS = ["accuracy", "correct", "false finish", "false cancel", "min margin", "completion s"];

/** A table row's cells: the axes' values, then the columns of `TABLE_HEADS`. */
export function tableCells(result, axes) {
  return [
    ...axes.map((a) => valueLabel(result.values[a.key])),
    `${num((result.accuracy ?? 0) * 100, 1)}%`, `${result.correct}/${result.traces}`,
    String(result.false_finishes ?? 0), String(result.false_cancels ?? 0),
    num(result.min_margin, 3), num(result.mean_completion_s, 3),
  ];
}

/**
 * The recordings a sweep left out, each with why: not labelled finish or cancel, not driving
 * the preset (the report's reason), unreadable or not replayable. `tune` is the `tune` message
 * (its `recordings`: the ids it was asked to score).
 */
export function sweepExclusions(tune, library) {
  const x = tune.report?.excluded ?? {};
  const out = [];
  const named = (list, why) => {
    for (const item of list ?? []) {
      const [id] = libraryIds([item.file], library);
      out.push({ id: id ?? item.file, reason: why(item) });
    }
  };
  named(x.not_fitting, (m) => m.reason ?? "does not drive the preset");
  named(x.unreadable, (f) => `unreadable: ${f.reason}`);
  named(x.unreplayable, (f) => `cannot be replayed: ${f.reason}`);
  for (const id of tune.recordings ?? []) {
    const found = library.find((r) => r.id === id);
    if (found && !decidesTwoState(found)) out.push({ id, reason: "not labelled finish or cancel" });
  }
  return out;
}

/** The Tune list's filter: whether a recording's path holds `text`, in any case (all when empty). */
export function matchesFilter(text) {
  const needle = text.trim().toLowerCase();
  return (id) => needle === "" || id.toLowerCase().includes(needle);
}

/** Whether a recording is labelled finish or cancel: what a two-state sweep scores (a detent
 * label is a sheet library's, and unknown is nobody's). */
export const decidesTwoState = (r) => r.intent === "finish" || r.intent === "cancel";

/** The recordings a sweep scored: those it was asked for, less its exclusions. */
export function scoredRecordings(tune, library) {
  const left = new Set(sweepExclusions(tune, library).map((e) => e.id));
  return (tune.recordings ?? []).filter((id) => !left.has(id));
}

/**
 * The recordings to check at a point: for the best point, what the report says it misjudges;
 * for any other, every recording the sweep scored (each is checked from the summary of its
 * replay), never one it left out.
 */
export function misjudgedCandidates(result, tune, library) {
  if (result.point === tune.report.best?.point) return libraryIds((tune.report.misjudged ?? []).map((m) => m.file), library);
  return scoredRecordings(tune, library);
}

/**
 * Replays, one after another, the candidates a point misjudges: each is loaded with the
 * point's values; one whose summary is wrong plays to its end, the others are skipped.
 */
export class MisjudgedQueue {
  constructor({ values, preset, candidates, loop }) {
    Object.assign(this, { values, preset, candidates, loop });
    this.index = -1;
    this.misjudged = [];
    this.waiting = null;
  }

  /** Moves to the next candidate: the `load` to send, or `null` when none is left. */
  advance() {
    this.index += 1;
    if (this.index >= this.candidates.length) return null;
    const id = this.candidates[this.index];
    this.waiting = { id, phase: "load" };
    return P.load(id, this.preset, this.values);
  }

  /**
   * What a `playback` message (with the `summary` sent just before it) means: `"next"` (the
   * candidate was judged right, or has played to its end), `"misjudged"` (it plays now), or
   * `null` (not the candidate's).
   */
  onPlayback(playback, summary) {
    const w = this.waiting;
    if (!w || playback.recording !== w.id) return null;
    if (w.phase === "load") {
      if (summary?.correct !== false) return "next";
      this.misjudged.push(w.id);
      w.phase = "playing";
      w.load = playback.load;
      return "misjudged";
    }
    return w.phase === "playing" && playback.load === w.load && !playback.playing ? "next" : null;
  }

  /**
   * The `load` that leaves the view on a recording the point misjudges when the queue ends on
   * one it judged right (skipped): the last misjudged; `null` when the view already shows one,
   * or none was misjudged.
   */
  finalLoad(shownRecording) {
    const last = this.misjudged.at(-1);
    if (!last || this.misjudged.includes(shownRecording)) return null;
    return P.load(last, this.preset, this.values);
  }

  /** The line while it runs. */
  get progressText() {
    return `${valuesText(this.values)} · ${this.index + 1}/${this.candidates.length} · misjudged so far ${this.misjudged.length} · ${this.candidates[this.index]}`;
  }

  /** The line when it is done. */
  get doneText() {
    return `done: ${this.misjudged.length} misjudged of ${this.candidates.length} at ${valuesText(this.values)}`;
  }
}
