// Records the touches the browser dispatched (touch events keep coming while the scroller
// scrolls; pointer events are cancelled once panning starts), and says when the scroller has
// come to rest. The test reads `window.pantraceTouches` and `window.pantraceScroll()`.
const scroller = document.getElementById('scroller');
if (new URLSearchParams(location.search).get('stop') === 'always') document.body.classList.add('stop');
const touches = [];
window.pantraceTouches = touches;

function record(event, phase) {
  const touch = event.changedTouches[0];
  touches.push({ phase, t: event.timeStamp, x: touch.clientX, y: touch.clientY, top: scroller.scrollTop });
}
window.addEventListener('touchstart', (event) => record(event, 'down'), { passive: true, capture: true });
window.addEventListener('touchmove', (event) => record(event, 'move'), { passive: true, capture: true });
window.addEventListener('touchend', (event) => record(event, 'up'), { passive: true, capture: true });
window.addEventListener('touchcancel', (event) => record(event, 'cancel'), { passive: true, capture: true });

// Every scroll position the page saw, with its time: where the scroll was at the lift, and the
// fling's first frames.
const scrolls = [];
window.pantraceScrolls = scrolls;
scroller.addEventListener('scroll', (event) => scrolls.push({ t: event.timeStamp, top: scroller.scrollTop }), { passive: true });

// Where the scroller is, and how many animation frames it has stayed there.
let last = -1;
let still = 0;
function watch() {
  const top = scroller.scrollTop;
  still = top === last ? still + 1 : 0;
  last = top;
  requestAnimationFrame(watch);
}
requestAnimationFrame(watch);
window.pantraceScroll = () => ({ top: scroller.scrollTop, stillFrames: still });
window.pantraceReset = (top) => {
  touches.length = 0;
  scrolls.length = 0;
  scroller.scrollTop = top;
};
window.pantraceReady = true;
