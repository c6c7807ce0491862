// Records every pointer event the browser dispatches to the page, as it dispatched them:
// pointermove events are read through getCoalescedEvents() (Chromium aligns continuous events
// to animation frames and coalesces them; each coalesced event keeps its own timestamp and
// position). The test reads `window.pantraceCaptured` after performing the actions.
const captured = [];
window.pantraceCaptured = captured;
window.pantraceReady = true;

function record(event, phase) {
  captured.push({
    phase,
    pointerType: event.pointerType,
    pointerId: event.pointerId,
    t: event.timeStamp,
    x: event.clientX,
    y: event.clientY,
    buttons: event.buttons,
  });
}

let down = new Set();
window.addEventListener('pointerdown', (event) => {
  down.add(event.pointerId);
  record(event, 'down');
}, { capture: true });
window.addEventListener('pointermove', (event) => {
  // A mouse hovering before its button goes down is not part of the gesture.
  if (!down.has(event.pointerId)) return;
  const parts = typeof event.getCoalescedEvents === 'function' ? event.getCoalescedEvents() : [];
  for (const part of parts.length > 0 ? parts : [event]) record(part, 'move');
}, { capture: true });
window.addEventListener('pointerup', (event) => {
  down.delete(event.pointerId);
  record(event, 'up');
}, { capture: true });
window.addEventListener('pointercancel', (event) => {
  down.delete(event.pointerId);
  record(event, 'cancel');
}, { capture: true });
// No context menu or selection interrupts a gesture. Touch behaviour is stopped by the
// stylesheet's touch-action: none alone: a non-passive touch listener would make every touch
// move wait for the page's main thread (an animation frame) before the browser acknowledges it.
for (const type of ['contextmenu', 'selectstart']) {
  window.addEventListener(type, (event) => event.preventDefault(), { capture: true });
}
