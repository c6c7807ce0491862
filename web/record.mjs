// The Record tab's pure part: pointer events in CSS pixels to `pointer` messages in points
// of a virtual screen, and what the tab says about the live recording.
import { pointer } from "./protocol.mjs";

/** Virtual screens the pad can stand for (points and scale). */
export const SCREENS = [
  { id: "iphone", label: "iPhone 390×844 @3", width: 390, height: 844, scale: 3 },
  { id: "iphone-se", label: "iPhone SE 375×667 @2", width: 375, height: 667, scale: 2 },
  { id: "android", label: "Android 412×915 @2.625", width: 412, height: 915, scale: 2.625 },
  { id: "ipad", label: "iPad 820×1180 @2", width: 820, height: 1180, scale: 2 },
];

/** The screen with `id`, or the first. */
export const screenById = (id) => SCREENS.find((s) => s.id === id) ?? SCREENS[0];

/**
 * Maps client coordinates to points of `screen` for a pad whose bounding box is `rect`
 * (`{left, top, width, height}` in CSS px, stretched over the whole screen).
 */
export function padMapping(rect, screen) {
  const sx = screen.width / rect.width;
  const sy = screen.height / rect.height;
  return (clientX, clientY) => ({
    x: Math.round((clientX - rect.left) * sx * 100) / 100,
    y: Math.round((clientY - rect.top) * sy * 100) / 100,
  });
}

/** The protocol phase of a DOM pointer event type, or `null` for one the pad ignores. */
export function pointerPhase(type) {
  switch (type) {
    case "pointerdown": return "down";
    case "pointermove": return "move";
    case "pointerup": return "up";
    case "pointercancel":
    case "lostpointercapture": return "cancel";
    default: return null;
  }
}

/**
 * The `pointer` messages for one DOM event. A move carries its coalesced events (the
 * samples the browser merged into one dispatch) each with its own timestamp; others carry
 * themselves. Timestamps are the events' own (`timeStamp`, ms), never a clock read now.
 */
export function pointerMessages(event, coalesced, rect, screen) {
  const phase = pointerPhase(event.type);
  if (!phase) return [];
  const toPoints = padMapping(rect, screen);
  const samples = phase === "move" && coalesced?.length ? coalesced : [event];
  return samples.map((e) => {
    const p = toPoints(e.clientX, e.clientY);
    return pointer(Math.round(e.timeStamp * 1000) / 1000, p.x, p.y, phase, event.pointerId);
  });
}

/**
 * Which pointer the pad follows: the first one down, until it lifts. Other pointers (a second
 * finger) are ignored so one gesture is one pan.
 */
export class PointerLatch {
  constructor() {
    this.active = null;
  }
  /** Whether `event` belongs to the followed pointer (taking it on a down when free). */
  accepts(type, pointerId) {
    if (type === "pointerdown") {
      if (this.active !== null) return false;
      this.active = pointerId;
      return true;
    }
    if (pointerId !== this.active) return false;
    if (pointerPhase(type) === "up" || pointerPhase(type) === "cancel") this.active = null;
    return true;
  }
}

const ACTIVE = new Set(["armed", "capturing"]);

/** Whether a live recording (anyone's) is armed or capturing, from its `recording` status. */
export const isRecordingActive = (status) => ACTIVE.has(status?.state);

/** Who a status is about, in words: "page 3" (or "another page" from an older server). */
const whose = (status) => (status?.page != null ? `page ${status.page}` : "another page");

/**
 * The status line for a `recording` status; `mine`: it is this page's recording. Another
 * page's is told in words: who holds the pad and for how long; the pad is free again after
 * its release.
 */
export function recordStatusText(status, mine, elapsed = 0) {
  const state = status?.state ?? "idle";
  const seconds = (status?.duration_s ?? 0).toFixed(2);
  // `held_s` is as of the status; the page counts on from it (`elapsed` seconds since).
  const held = Math.floor((status?.held_s ?? 0) + elapsed);
  const text = mine ? {
    idle: "ready: drag on the phone",
    ready: "ready: that was a tap, not a pan; drag further than 10 pt to record",
    armed: "armed: move more than 10 pt to start the pan",
    capturing: `capturing · ${status?.samples ?? 0} samples · ${seconds} s`,
    released: `released after ${seconds} s: what did you mean?`,
    saved: `saved as ${status?.id ?? status?.file ?? ""}`,
    discarded: "discarded: back to the view you had",
    failed: `failed: ${status?.message ?? ""}`,
  } : {
    idle: "ready: drag on the phone",
    ready: "ready: drag on the phone",
    armed: `${whose(status)} holds the pad (for ${held} s): you can record when it lets go`,
    capturing: `${whose(status)} is recording · ${status?.samples ?? 0} samples · ${seconds} s; you can record when it lets go`,
    released: "ready: drag on the phone",
    saved: "ready: drag on the phone",
    discarded: "ready: drag on the phone",
    failed: "ready: drag on the phone",
  };
  return text[state] ?? state;
}

/** Whether this page asks what its released gesture meant (another page's is not its to label). */
export const isLabelling = (status, mine) => (status?.state ?? "idle") === "released" && mine && !isTrial(status);

/** Whether a status is a target trial's (labelled by its target; the trials view saves it). */
export const isTrial = (status) => status?.sheet?.target != null;

/** Whether the labelled gesture can be saved: it is this page's to label and has an intent. */
export const canSave = (status, mine) => isLabelling(status, mine) && status.intent !== "unknown";

/** Whether a status ends this page's gesture (saved or discarded). */
export const endsGesture = (status) => status?.state === "saved" || status?.state === "discarded";

/** The library as the Record tab lists it: live recordings first, then by id. */
export function libraryOrder(library) {
  const live = (r) => Number(r.id.startsWith("live/"));
  return [...library].sort((a, b) => live(b) - live(a) || a.id.localeCompare(b.id));
}
