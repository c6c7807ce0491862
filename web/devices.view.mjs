// Live sources on the page: the header's "… is live" line, the Record tab's list of devices
// with a watch toggle, the watched device's gesture on the stage (through this page's own
// setting), and the unsaved gestures devices left, to label and keep or discard, one by one
// or together. The words are devices.mjs.
import { $, h } from "./dom.view.mjs";
import { droppedText, gestureText, keptText, liveLine, sourceLabel, sourceState, unsavedDeviceGestures } from "./devices.mjs";
import { watchOnlyText } from "./notice.mjs";
import * as P from "./protocol.mjs";

export class DevicesView {
  constructor(store, stage) {
    Object.assign(this, { store, stage });
    this.list = $("devices");
    this.gestures = $("device-gestures");
    this.selected = new Set();
    // The header's line takes a person to the devices list itself (on a phone it is below the
    // pad and the stage), without scrolling.
    $("device-live").addEventListener("click", () => {
      this.store.showTab("record");
      requestAnimationFrame(() => {
        $("devices-heading").scrollIntoView({ block: "start" });
        this.list.querySelector("button")?.focus({ preventScroll: true });
      });
    });
    $("device-select-all").addEventListener("change", (event) => {
      const ids = unsavedDeviceGestures(this.store.library).map((r) => r.id);
      this.selected = event.target.checked ? new Set(ids) : new Set();
      this.renderGestures();
    });
    $("device-keep").addEventListener("click", () => {
      this.store.send(P.keep([...this.selected], $("device-intent").value, $("device-name").value));
    });
    $("device-drop").addEventListener("click", () => this.store.send(P.drop([...this.selected])));
    $("device-follow-live").addEventListener("change", (event) => this.store.setFollowLive(event.target.checked));
    store.on("sources", () => this.render());
    store.on("library", () => this.renderGestures());
    store.on("deviceDecision", () => this.renderGestures());
    store.on("control", () => this.renderGestures());
    store.on("devicePreview", (message) => this.draw(message));
    store.on("kept", (kept) => {
      for (const file of kept.files) this.selected.delete(file.from);
      this.store.toast(keptText(kept));
    });
    store.on("dropped", (dropped) => {
      for (const file of dropped.files) this.selected.delete(file);
      this.store.toast(droppedText(dropped));
    });
    this.render();
  }

  render() {
    const sources = this.store.sources;
    const line = liveLine(sources);
    const live = $("device-live");
    live.hidden = line === "";
    live.textContent = line;
    live.dataset.live = String(sources.some((s) => s.connected && s.live));
    $("devices-empty").hidden = sources.length > 0;
    // The list is made anew; a person who pressed a device's button with the keyboard keeps
    // the focus on that device's new button, not on the page.
    const focused = this.list.contains(document.activeElement) ? document.activeElement.closest("li")?.dataset.source : undefined;
    this.list.replaceChildren(...sources.map((s) => {
      const watching = this.store.watching === s.source;
      return h("li", { dataset: { source: String(s.source), live: String(s.live), connected: String(s.connected) } },
        h("span", { class: "device-name", text: sourceLabel(s) }),
        h("span", { class: "muted", text: sourceState(s) }),
        h("button", {
          type: "button", class: "choice", "aria-pressed": String(watching),
          "aria-label": `${watching ? "stop watching" : "watch"} ${sourceLabel(s)}`,
          text: watching ? "watching" : "watch",
          onclick: () => this.store.chooseSource(watching ? null : s.source),
        }));
    }));
    if (focused !== undefined) this.list.querySelector(`li[data-source="${CSS.escape(focused)}"] button`)?.focus({ preventScroll: true });
    this.renderGestures();
  }

  renderGestures() {
    const unsaved = unsavedDeviceGestures(this.store.library);
    const ids = new Set(unsaved.map((r) => r.id));
    this.selected = new Set([...this.selected].filter((id) => ids.has(id)));
    $("device-gestures-box").hidden = unsaved.length === 0;
    $("device-gestures-title").textContent = `Unsaved device gestures (${unsaved.length})`;
    this.gestures.replaceChildren(...unsaved.map((r) => h("li", { dataset: { id: r.id } },
      h("label", { class: "check" },
        h("input", {
          type: "checkbox", checked: this.selected.has(r.id),
          onchange: (event) => {
            if (event.target.checked) this.selected.add(r.id);
            else this.selected.delete(r.id);
            this.renderButtons(unsaved.length);
          },
        }),
        ` ${gestureText(r, this.store.deviceDecisions.get(r.id), this.store.canControl)}`),
      h("button", { type: "button", class: "link", text: "replay", "aria-label": `replay ${r.name}`, onclick: () => this.store.send(P.load(r.id, this.store.playback?.preset ?? "swipe-back", this.store.playback?.parameters ?? {})) }))));
    this.renderButtons(unsaved.length);
  }

  renderButtons(count) {
    const control = this.store.canControl;
    const none = this.selected.size === 0;
    $("device-keep").disabled = !control || none;
    $("device-drop").disabled = !control || none;
    $("device-keep").textContent = none ? "keep selected" : `keep ${this.selected.size}`;
    $("device-drop").textContent = none ? "discard selected" : `discard ${this.selected.size}`;
    $("device-select-all").checked = count > 0 && this.selected.size === count;
    $("device-watch-only").hidden = control;
    $("device-watch-only").textContent = control ? "" : watchOnlyText("keep");
  }

  /** A frame of the watched device's gesture, on the device's screen. */
  draw(message) {
    // Frames queue behind control messages: once the gesture has ended, the replay has the stage.
    const source = this.store.deviceLive;
    if (!source || source.source !== message.source) return;
    this.stage.draw(message, { trail: [], point: null }, source.screen);
    this.stage.showPhase(message.frame.phase);
    this.stage.title.textContent = `${sourceLabel(source)} · live · ${this.store.playback?.preset ?? ""}`;
  }
}
