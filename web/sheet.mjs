// A sheet with detents, as the viewer draws it (docs/MODEL.md §9): the three detents it puts on
// a screen, their names, the libraries that can drive them, and a replayed sheet drag's motion:
// the top edge under the finger, then the library's own settle, frame by frame as the server
// sent it. The Replay tab's sheets and the Record tab's target trials both draw from here. Pure.
import * as P from "./protocol.mjs";
import { num } from "./format.mjs";

/** The detents as shares of the screen's height, most expanded first, and their names. */
export const DETENTS = [
  { name: "full", share: 0.12 },
  { name: "half", share: 0.5 },
  { name: "peek", share: 0.82 },
];

/** The libraries that settle a three-detent sheet (PanModal has two detents). */
export const LIBRARIES = ["floatingpanel", "vaul", "mdc-bottomsheet", "compose-anchored", "m3-sheet", "flutter-sheet", "gorhom", "css-scroll-snap"];

/** The sheet on a screen `screen.height` points tall: detent positions (whole points) and names. */
export function sheetFor(screen) {
  return { detents: DETENTS.map((d) => Math.round(d.share * screen.height)), names: DETENTS.map((d) => d.name) };
}

/** A detent index or `dismissed` in words: `half`, `closed`. */
export const detentName = (sheet, detent) => (detent === "dismissed" ? "closed" : sheet.names[detent] ?? `detent ${detent}`);

/** Where a settled sheet's top edge rests: its detent, or the bottom of the screen when closed. */
export function settledTop(sheet, detent, screen) {
  return detent === "dismissed" ? screen.height : sheet.detents[detent];
}

/**
 * The top edge `t` seconds after the release along a library's settle (`{fps, tops,
 * duration_s}`, docs/PROTOCOL.md): `from` before the first frame, each frame shown for `1/fps`
 * s, the last (at rest) from then on; at rest at once under reduced motion.
 */
export function settleTop(settle, from, t, reduced = false) {
  const tops = settle?.tops ?? [];
  if (tops.length === 0) return from;
  if (reduced) return tops.at(-1);
  const shown = Math.floor(t * settle.fps) - 1;
  if (shown < 0) return from;
  return tops[Math.min(shown, tops.length - 1)];
}

/** Seconds from the release until the settle rests (the frames it was sent, at its rate). */
export const settleSeconds = (settle) => (settle?.tops?.length ?? 0) / (settle?.fps || 60);

/** Seconds from the first sample until a `sheet` answer's sheet rests. */
export const motionSeconds = (answer) => answer.release + settleSeconds(answer.settle);

/** The top edge of a `sheet` answer `t` seconds after its first sample: the finger's, then the settle's. */
export function motionTop(answer, t, reduced = false) {
  const drag = answer.drag;
  if (t < answer.release && drag.length > 0) {
    let low = 0;
    let high = drag.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (drag[middle][0] <= t) low = middle;
      else high = middle - 1;
    }
    return drag[low][1];
  }
  return settleTop(answer.settle, answer.release_position, t - answer.release, reduced);
}

/**
 * The start detent for a drag: `auto` starts an upward drag at the least expanded detent and a
 * downward one at the most expanded (where each makes sense); else the detent named.
 */
export function startFor(choice, sheet, movedDown) {
  if (choice === "auto") return movedDown ? 0 : sheet.detents.length - 1;
  const index = sheet.names.indexOf(choice);
  return index >= 0 ? index : sheet.detents.length - 1;
}

/** The `compare` that asks for `recording` replayed on `sheet` from `start` through `library`. */
export const sheetRequest = (recording, library, sheet, start) => P.compare(recording, library, {}, { detents: sheet.detents, start });

/** The key an answer is kept under: one per recording, library, sheet and start. */
export const answerKey = (recording, library, sheet, start) => `${recording}\n${library}\n${sheet.detents.join(",")}\n${start}`;

/** A `sheet` answer's own key. */
export const keyOf = (answer) => answerKey(answer.recording, answer.library, answer.sheet, answer.sheet.start);

/** `gorhom settles at half, from peek`, and the lines under it: why, and how it moves. */
export function verdictLines(answer, sheet) {
  const name = detentName(sheet, answer.detent);
  const lines = [`${answer.library} settles at ${name}, from ${detentName(sheet, answer.sheet.start)}`, `why: ${answer.reason}`];
  const velocity = answer.velocity == null ? "not finite" : `${num(answer.velocity, 0)} pt/s`;
  lines.push(`read ${velocity} (${answer.estimator}) at ${num(answer.release_position, 0)} pt`);
  lines.push(`moves: ${answer.settle.motion}, at rest after ${num(settleSeconds(answer.settle), 2)} s`);
  return lines;
}
