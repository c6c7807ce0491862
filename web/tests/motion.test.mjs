import { test } from "node:test";
import assert from "node:assert/strict";
import { stillStartMessages } from "../motion.mjs";

const playback = (o = {}) => ({ load: 2, recording: "a.pantrace", preset: "best", parameters: {}, playing: true, speed: 1, loop: true, time: 0, start: 0, end: 1.2, release: 0.47, fps: 60, ...o });
const still = (o = {}) => stillStartMessages({ reduce: true, canControl: true, playback: playback(), ...o });

test("less motion asked for: a load that plays by itself is paused at its release frame, loop off", () => {
  assert.deepEqual(still(), [{ type: "pause" }, { type: "seek", time: 0.47 }, { type: "loop", enabled: false }]);
  // A recording chosen while paused: the same for the new load.
  assert.deepEqual(still({ previous: playback({ load: 1, playing: false, loop: false }), playback: playback({ load: 2, loop: false }) }),
    [{ type: "pause" }, { type: "seek", time: 0.47 }]);
});

test("an opened address's time wins over the release, for its recording only", () => {
  assert.deepEqual(still({ opened: { recording: "a.pantrace", time: 0.3 } })[1], { type: "seek", time: 0.3 });
  assert.deepEqual(still({ opened: { recording: "b.pantrace", time: 0.3 } })[1], { type: "seek", time: 0.47 });
  assert.deepEqual(still({ opened: { recording: "a.pantrace", time: 9 } })[1], { type: "seek", time: 1.2 });
});

test("nothing when motion is fine, the page only watches or follows another, or the person (or the tune queue) asked to play", () => {
  assert.deepEqual(stillStartMessages({ reduce: false, canControl: true, playback: playback() }), []);
  assert.deepEqual(still({ canControl: false }), []);
  assert.deepEqual(still({ following: true }), []);
  assert.deepEqual(still({ playback: playback({ playing: false }) }), []);
  assert.deepEqual(still({ playback: null }), []);
  assert.deepEqual(still({ playRequested: true }), []);
  // The same load again (a seek, a speed), or a new load while Play was on (a parameter moved).
  assert.deepEqual(still({ previous: playback({ playing: false }) }), []);
  assert.deepEqual(still({ previous: playback({ load: 1, playing: true }) }), []);
});
