// What the replay does for a person who asked for less motion (`prefers-reduced-motion:
// reduce`). Pure: the view passes the media query's answer in.
import * as P from "./protocol.mjs";

/**
 * The messages that keep a replay still until the person presses Play: a load that arrives
 * playing by itself (the page opened, a recording or preset chosen, a gesture just recorded)
 * is paused at its release frame, where the decision is made, or at the time the opened
 * address names; with loop off, so Play plays the gesture once and stops at the settle.
 * Nothing when the person did not ask for less motion, the page cannot control or follows
 * another page (it shows that page's replay as it plays), the load is paused or was already
 * seen, the player was playing before (Play pressed, then a parameter moved), or the page
 * asked for it to play (`playRequested`: the tune queue's replays).
 *
 * `previous`: the last `playback` the page saw (null at first); `opened`: `{recording, time}`
 * of the address the page opened, or null.
 */
export function stillStartMessages({ reduce, canControl, following = false, playback, previous = null, playRequested = false, opened = null }) {
  if (!reduce || !canControl || following || !playback?.playing || playRequested) return [];
  if (previous && (previous.load === playback.load || previous.playing)) return [];
  const time = opened?.recording === playback.recording && Number.isFinite(opened.time) ? opened.time : playback.release;
  return [P.pause(), P.seek(Math.min(Math.max(time, playback.start), playback.end)), ...(playback.loop ? [P.loop(false)] : [])];
}
