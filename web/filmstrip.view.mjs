// The filmstrip's DOM: one button per keyframe (filmstrip.mjs), a small SVG of the stage; a
// click seeks there.
import { $, h, s } from "./dom.view.mjs";
import { filmstripItems } from "./filmstrip.mjs";

export class Filmstrip {
  constructor(store, seek) {
    this.store = store;
    this.seek = seek;
    this.el = $("filmstrip");
    store.on("series", () => this.draw());
    store.on("playback", () => this.draw());
    store.on("control", () => this.draw());
  }

  /** Redraws when the series or the page's rights changed (not at every playback message). */
  draw() {
    const whole = this.store.series.whole;
    if (this.drawn?.whole === whole && this.drawn?.canControl === this.store.canControl) return;
    this.drawn = { whole, canControl: this.store.canControl };
    const entry = this.store.entryOf(this.store.playback?.recording);
    const items = filmstripItems(whole, entry?.screen ?? null);
    this.el.dataset.count = String(items.length);
    this.el.replaceChildren(...items.map((item, index) => this.thumbnail(item, index)));
  }

  thumbnail(item, index) {
    const { width, height } = item.screen;
    const clips = [];
    const shapes = item.layers.map((layer, i) => {
      const attrs = { class: `thumb-layer ${layer.role}`, ...layer.rect };
      if (layer.clip) {
        const id = `thumb-${index}-${i}`;
        clips.push(s("clipPath", { id }, s(layer.clipShape, layer.clip)));
        attrs["clip-path"] = `url(#${id})`;
      }
      return s("rect", attrs);
    });
    const svg = s("svg", { class: "thumb", viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" },
      s("defs", {}, ...clips), s("rect", { class: "thumb-screen", x: 0, y: 0, width, height }), ...shapes);
    const button = h("button", { type: "button", class: "frame-button", title: `seek to ${item.label}`, dataset: { moment: item.moment, time: String(item.time) } },
      svg, h("span", { class: "frame-label", text: item.name }), h("span", { class: "frame-time", text: item.timeText }));
    button.disabled = !this.store.canControl;
    button.addEventListener("click", () => this.seek(item.time));
    return button;
  }
}
