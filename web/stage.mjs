// What the stage shows, decided without the DOM: the replay or the record pad's live preview,
// its title, and where the finger is. stage.view.mjs draws it. Pure.
import { middleEllipsis } from "./format.mjs";
import { fingerAnchor, screenOfLayers } from "./geometry.mjs";

const RELEASED = new Set(["completing", "finished", "cancelled"]);

/**
 * Whether the stage shows the replay rather than a live recording's preview. On the Record
 * tab the stage stays the pad's screen, so only a replay of that size is shown there (the
 * gesture just recorded).
 */
export function stageShowsReplay({ recordingActive, tab, replayScreen, padScreen }) {
  if (recordingActive) return false;
  if (tab !== "record") return true;
  return Boolean(replayScreen && replayScreen.width === padScreen.width && replayScreen.height === padScreen.height);
}

/**
 * What the stage shows when it shows neither the replay nor a watched device's gesture: the
 * live recording's newest preview frame (`"preview"`), the pad's empty screen (`"empty"`), or
 * nothing to change (`"keep"`: another tab draws it). While a live recording (anyone's) is armed
 * or capturing, every tab's stage is the pad's: a page on another tab must not keep the
 * replay's last frame, and its clock, under the title "live recording" until the first preview
 * comes.
 */
export function padStage({ recordingActive, tab, hasPreview }) {
  if (recordingActive) return hasPreview ? "preview" : "empty";
  return tab === "record" ? "empty" : "keep";
}

/** The stage's title: the live recording's screen, or what is loaded (`entry`: its library entry). */
export function stageTitle({ recordingActive, padScreen, playback, entry }) {
  if (recordingActive) return `live recording · ${padScreen.width}×${padScreen.height}`;
  return playback ? `${middleEllipsis(entry?.name ?? playback.recording, 30)} · ${playback.preset}` : "nothing loaded";
}

/**
 * What a layer of `role` paints: its own `background` over the stylesheet's, or nothing to
 * change. A `dimming` layer is the drawer's mask view, whose background is clear in the
 * drawer article's demo (grvlv/LVAnimator, `LVMaskView.swift`: `backgroundColor = .clear`):
 * animating its alpha to 0.8 dims nothing on a device, so the stage draws it clear as well
 * (docs/MODEL.md §6.3). Its opacity still follows the frame's `alpha`.
 */
export function layerPaint(role) {
  return role === "dimming" ? { background: "transparent" } : {};
}

/** Whether the finger is on the screen in a frame: in a gesture that has not been released. */
const isDown = (frame) => Boolean(frame.gesture) && !RELEASED.has(frame.phase) && frame.phase !== "idle";

/**
 * The replay's finger at frame `now`: the `trail` up to it and the `point` (null once lifted),
 * in screen points. Frames carry the pan's translation, so both start at `fingerAnchor`.
 */
export function replayFinger(frames, now, screen, edge) {
  const moving = frames.filter((f) => f.gesture);
  const first = moving.find((f) => f.gesture.velocity.x || f.gesture.velocity.y);
  const anchor = fingerAnchor(screen, edge, first?.gesture.velocity);
  const at = (f) => ({ x: anchor.x + f.gesture.translation.x, y: anchor.y + f.gesture.translation.y });
  const trail = moving.filter((f) => f.time <= now.time + 1e-9 && !RELEASED.has(f.phase)).map(at);
  return { trail, point: isDown(now) ? at(now) : null };
}

/**
 * The live preview's screen and finger. This page's own gesture is drawn on the pad's screen
 * with the pad's points (`pointerDown`: the pointer is still on the pad); another viewer's on
 * the screen its layers imply, without a finger.
 */
export function previewFinger({ mine, points, pointerDown, padScreen, layers }) {
  return {
    screen: mine ? padScreen : screenOfLayers(layers),
    finger: { trail: mine ? points : [], point: mine && pointerDown ? points.at(-1) : null },
  };
}
