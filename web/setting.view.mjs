// The Replay tab's "copy setting" and "open setting": the view's preset and parameters as the
// setting file `pantrace tune --save-setting` writes (so `replay`, `emit` and `serve` take what
// the sliders show), and a pasted setting opened on the recording that plays. setting.mjs
// decides; this draws and sends.
import { $ } from "./dom.view.mjs";
import * as P from "./protocol.mjs";
import { parseSetting, settingOf, settingText } from "./setting.mjs";

export class SettingView {
  constructor(store) {
    this.store = store;
    this.form = $("setting-form");
    this.text = $("setting-text");
    this.problem = $("setting-problem");
    $("setting-copy").addEventListener("click", () => this.copy());
    $("setting-open").addEventListener("click", () => this.toggle());
    $("setting-apply").addEventListener("click", () => this.apply());
    $("setting-cancel").addEventListener("click", () => this.close());
  }

  /** The view's setting text, or null before anything plays. */
  current() {
    const playback = this.store.playback;
    const setting = settingOf(playback, playback && this.store.presetNamed(playback.preset));
    return setting && settingText(setting);
  }

  /** Copies the view's setting; where the clipboard is refused, shows it selected to copy by hand. */
  async copy() {
    const text = this.current();
    if (!text) return this.store.toast("nothing plays yet: no setting to copy");
    try {
      await navigator.clipboard.writeText(text);
      this.form.dataset.copied = text;
      this.store.toast("setting copied: save it as a file for pantrace replay, emit or serve --setting");
    } catch {
      this.show(text, "the browser refused the clipboard: copy the setting from the box");
      this.text.select();
    }
  }

  toggle() {
    if (!this.form.hidden) return this.close();
    this.show(this.current() ?? "", "");
    this.text.focus();
    this.text.select();
  }

  show(text, note) {
    this.form.hidden = false;
    $("setting-open").setAttribute("aria-expanded", "true");
    this.text.value = text;
    this.problem.textContent = note;
  }

  close() {
    this.form.hidden = true;
    $("setting-open").setAttribute("aria-expanded", "false");
    this.problem.textContent = "";
  }

  /** Opens the pasted setting on the recording that plays, or says what is wrong with it. */
  apply() {
    const recording = this.store.playback?.recording;
    if (!recording) return (this.problem.textContent = "nothing plays yet: open a recording first");
    if (!this.store.canControl) return (this.problem.textContent = "watch only: opening a setting needs the address with its ?token=");
    const { setting, error } = parseSetting(this.text.value, (name) => this.store.presetNamed(name));
    if (error) return (this.problem.textContent = error);
    this.store.send(P.load(recording, setting.preset, setting.parameters));
    this.close();
  }
}
