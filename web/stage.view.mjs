// The phone-shaped stage: draws a frame's layers generically (the viewer knows nothing about
// presets) and the finger over them, with its title and phase. Exposes what it drew as data
// attributes for tests. What to draw is decided in stage.mjs and by the views.
import { $, css, h } from "./dom.view.mjs";
import { fitScale, layerStyle, polyline, touchRadius } from "./geometry.mjs";
import { layerPaint } from "./stage.mjs";

/** A layer's mock content: a bar and rows, so motion reads like a screen moving. */
function mockContent(role) {
  if (role === "dimming") return [];
  return [
    h("div", { class: "mock-bar" }, h("span", { class: "mock-title", text: role })),
    h("div", { class: "mock-rows" }, ...Array.from({ length: 6 }, () => h("div", { class: "mock-row" }))),
  ];
}

export class Stage {
  constructor() {
    this.box = $("stage-box");
    this.el = $("stage");
    this.layers = $("layers");
    this.finger = $("finger");
    this.trail = $("trail");
    this.touch = $("touch");
    this.title = $("stage-title");
    this.phase = $("stage-phase");
    this.screen = { width: 390, height: 844 };
    this.k = 0;
    this.last = null;
    new ResizeObserver(() => this.fit()).observe(this.box);
  }

  /** Sizes the stage to the screen's aspect inside its box. */
  fit(screen = this.screen) {
    this.screen = screen;
    const width = this.box.clientWidth;
    const height = this.box.clientHeight;
    if (!width || !height) return;
    const k = fitScale(screen, { width, height });
    if (Math.abs(k - this.k) < 1e-9 && this.el.dataset.screen === `${screen.width}x${screen.height}`) return;
    this.k = k;
    css(this.el, { width: `${screen.width * k}px`, height: `${screen.height * k}px`, borderRadius: `${Math.min(36, 44 * k)}px` });
    this.el.dataset.screen = `${screen.width}x${screen.height}`;
    this.el.dataset.k = String(k);
    this.finger.setAttribute("viewBox", `0 0 ${screen.width} ${screen.height}`);
    if (this.last) this.draw(this.last.message, this.last.finger);
  }

  /**
   * Draws `message` (a `frame` message) and the finger: `finger.trail` points and
   * `finger.point` (or null when lifted), in screen points.
   */
  draw(message, finger, screen = this.screen) {
    if (screen.width !== this.screen.width || screen.height !== this.screen.height || !this.k) {
      this.last = { message, finger };
      this.fit(screen);
      if (!this.k) return;
    }
    this.last = { message, finger };
    const layers = message.frame.layers;
    while (this.layers.children.length > layers.length) this.layers.lastChild.remove();
    layers.forEach((layer, i) => {
      let el = this.layers.children[i];
      if (!el || el.dataset.role !== layer.role) {
        const fresh = h("div", { class: "layer", dataset: { role: layer.role, index: String(i) } }, ...mockContent(layer.role));
        if (el) el.replaceWith(fresh);
        else this.layers.append(fresh);
        el = fresh;
      }
      css(el, { ...layerStyle(layer, this.k), ...layerPaint(layer.role) });
    });
    this.trail.setAttribute("d", polyline(finger?.trail ?? []));
    const point = finger?.point;
    this.touch.setAttribute("r", point ? String(touchRadius(this.k)) : "0");
    if (point) {
      this.touch.setAttribute("cx", String(point.x));
      this.touch.setAttribute("cy", String(point.y));
    }
    const d = this.el.dataset;
    d.seq = String(message.seq);
    d.load = String(message.load);
    d.time = String(message.frame.time);
    d.phase = message.frame.phase;
  }

  /** Shows an empty screen of `screen` (the record pad before a gesture). */
  clear(screen) {
    this.last = null;
    this.layers.replaceChildren();
    this.trail.setAttribute("d", "");
    this.touch.setAttribute("r", "0");
    this.fit(screen);
    // No frame is shown: nothing of the last one (its time, its phase) stays on the stage.
    const d = this.el.dataset;
    d.seq = "";
    d.load = "";
    d.time = "";
    d.phase = "";
    this.phase.hidden = true;
  }

  showTitle(text) {
    this.title.textContent = text;
  }

  /**
   * The values at the playhead beside the stage (readout.mjs `valueRows`), each number whole
   * in its `data-value`, for a replay and for a live gesture alike; none hides the readout.
   */
  showReadout(rows) {
    const box = $("readout");
    box.hidden = rows.length === 0;
    const signature = JSON.stringify(rows.map((r) => [r.text, r.value]));
    if (box.dataset.signature === signature) return;
    box.dataset.signature = signature;
    box.replaceChildren(...rows.map((r) => h("div", { class: "readout-cell", dataset: { key: r.key, value: r.value === null ? "" : String(r.value) } },
      h("dt", { text: r.label }), h("dd", { text: r.text }))));
  }

  showPhase(phase) {
    this.phase.hidden = false;
    this.phase.dataset.phase = phase;
    this.phase.textContent = phase;
  }

  /** The rectangle the pad covers (the whole screen), in client coordinates. */
  rect() {
    return this.el.getBoundingClientRect();
  }
}
