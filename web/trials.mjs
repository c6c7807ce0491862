// Target trials on the record pad: "move the sheet to half". A sheet with three detents on the
// pad's screen, a seeded sequence of starts and targets, the prompt, the sheet's top edge under
// the finger, and where it settles and how that lands against the target.
// The server labels each recording with its target (docs/PROTOCOL.md, `record` with `sheet`),
// so one person makes labelled detent gestures as fast as they can drag. The sheet itself
// (its detents, names and motion) is sheet.mjs.
import { DETENTS, detentName } from "./sheet.mjs";

/** A session's seed: the address's `trial-seed` when it is a whole number (a test's), else `fallback`. */
export function sessionSeed(search, fallback) {
  const given = new URLSearchParams(search).get("trial-seed");
  return given !== null && /^\d{1,9}$/.test(given) ? Number(given) : fallback;
}

/** Trials in a session, as the pad offers them (about 15 minutes at 3 s a trial). */
export const SESSION_TRIALS = 300;

/** mulberry32: a small seeded generator, so a session's trials are the same for a seed. */
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The trials of a session: each a start and a different target among `count` detents, drawn
 * from `seed`. `trial(i)` is the same for a seed whatever was asked before.
 */
export class TrialPlan {
  constructor(seed, total = SESSION_TRIALS, count = DETENTS.length) {
    const next = generator(seed);
    this.trials = Array.from({ length: total }, () => {
      const start = Math.floor(next() * count);
      const other = Math.floor(next() * (count - 1));
      return { start, target: other >= start ? other + 1 : other };
    });
    this.index = 0;
  }

  get total() {
    return this.trials.length;
  }

  /** The current trial, or null when the session is done. */
  get current() {
    return this.index < this.trials.length ? { index: this.index, ...this.trials[this.index] } : null;
  }

  /** On to the next trial (after a saved one). */
  advance() {
    if (this.index < this.trials.length) this.index += 1;
  }
}

/** `Trial 12 of 300: move the sheet from peek to half`, or the session's end. */
export function promptText(plan, sheet) {
  const trial = plan.current;
  if (!trial) return `All ${plan.total} trials done: tune them with pantrace tune live/ --preset NAME`;
  return `Trial ${trial.index + 1} of ${plan.total}: move the sheet from ${sheet.names[trial.start]} to ${sheet.names[trial.target]}`;
}

/** The `sheet` of a `record` message for `trial` on `sheet`. */
export const trialSheet = (sheet, trial) => ({ detents: sheet.detents, start: trial.start, target: trial.target });

/** The sheet's top edge under the finger: the start detent moved by the drag so far (points). */
export function sheetTop(sheet, start, points) {
  if (points.length < 2) return sheet.detents[start];
  return sheet.detents[start] + (points.at(-1).y - points[0].y);
}

/** `gorhom settles at half: hit (meant half)`, for the status line. */
export function settleText(sheet, status) {
  const s = status.settle;
  if (!s) return "";
  const meant = status.sheet?.target;
  const against = meant == null ? "" : `: ${s.landing} (meant ${detentName(sheet, meant)})`;
  return `${s.library} settles at ${detentName(sheet, s.detent)}${against}`;
}

/** Hits, skips, stucks and wrong ones of a session so far, from the settles seen. */
export function tally(landings) {
  const counts = { hit: 0, skip: 0, stuck: 0, wrong: 0 };
  for (const landing of landings) if (landing in counts) counts[landing] += 1;
  return counts;
}
