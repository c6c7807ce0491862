// The preset's parameters on the Replay tab: a slider per number, a menu per choice. Moving
// one re-decides live: after a pause in the movement, one `load` with the new values that
// keeps the playhead. The values and messages are decided in replay.mjs.
import { overrides } from "./address.mjs";
import { $, h } from "./dom.view.mjs";
import { sliderValueText } from "./format.mjs";
import { isChanged, parameterText, parameterUnit, parameterValues, paramsOutdated, reloadMessages, sliderScale } from "./replay.mjs";

const RELOAD_DELAY_MS = 150;

export class ParamsPanel {
  /** `specs()`: the specs of the preset the Replay tab shows. */
  constructor(store, specs) {
    this.store = store;
    this.specs = specs;
    this.box = $("params");
    this.values = {};
    this.preset = null;
    this.reloadTimer = null;
  }

  /** Drops the values shown (another preset is being loaded). */
  forget() {
    this.values = {};
  }

  /** Follows the player, unless the person is moving a slider (a reload is pending). */
  follow(playback) {
    if (this.reloadTimer !== null) return;
    if (paramsOutdated({ preset: this.preset, values: this.values, specs: this.specs() }, playback)) this.render(playback);
  }

  render(playback) {
    const specs = this.specs();
    this.preset = playback.preset;
    this.values = parameterValues(specs, playback.parameters);
    this.box.replaceChildren(...specs.map((spec) => this.row(spec)));
  }

  row(spec) {
    const id = `param-${spec.key}`;
    const value = this.values[spec.key];
    const { control, output } = spec.kind === "number" ? this.slider(spec, id, value) : this.menu(spec, id, value);
    control.disabled = !this.store.canControl;
    const row = h("div", { class: `param ${spec.kind}${isChanged(value, spec) ? " changed" : ""}`, title: spec.meaning, dataset: { key: spec.key } },
      h("label", { for: id, class: "param-name", text: spec.key }), control, output);
    // Marked changed (or not) as soon as it moves, not when the server answers.
    const mark = () => row.classList.toggle("changed", isChanged(this.values[spec.key], spec));
    control.addEventListener(spec.kind === "number" ? "input" : "change", mark);
    return row;
  }

  slider(spec, id, value) {
    const scale = sliderScale(spec);
    const control = h("input", {
      type: "range", id, min: String(scale.min), max: String(scale.max), step: String(scale.step),
      value: String(scale.toSlider(Number(value))), dataset: { key: spec.key, log: String(scale.log) },
      // Said in its unit: the slider's own value is an exponent on a logarithmic scale.
      "aria-valuetext": sliderValueText(Number(value), parameterUnit(spec, this.values), scale),
    });
    const output = h("output", { for: id, class: "value", text: parameterText(Number(value), parameterUnit(spec, this.values), scale.digits) });
    control.addEventListener("input", () => {
      const v = scale.toValue(Number(control.value));
      this.values[spec.key] = v;
      output.textContent = parameterText(v, parameterUnit(spec, this.values), scale.digits);
      control.setAttribute("aria-valuetext", sliderValueText(v, parameterUnit(spec, this.values), scale));
      this.scheduleReload();
    });
    return { control, output };
  }

  menu(spec, id, value) {
    const control = h("select", { id, dataset: { key: spec.key } }, ...spec.choices.map((c) => h("option", { value: c, text: c })));
    control.value = String(value);
    control.addEventListener("change", () => {
      this.values[spec.key] = control.value;
      this.scheduleReload();
    });
    return { control, output: null };
  }

  /** One reload after the movement pauses, at the playhead the stage shows. */
  scheduleReload() {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      const playback = this.store.playback;
      if (!playback) return;
      const time = this.store.frame?.frame.time ?? playback.time;
      for (const message of reloadMessages(playback, overrides(this.values, this.specs()), time)) this.store.send(message);
    }, RELOAD_DELAY_MS);
  }
}
