// The Record tab: the pad over the stage captures pointer input (mouse, pen, touch) and
// streams it to the server, which recognises the pan and writes the recording as it happens.
import { $, h } from "./dom.mjs";
import * as P from "./protocol.mjs";
import { PointerLatch, pointerMessages, SCREENS, screenById } from "./record.mjs";

const ACTIVE = new Set(["armed", "capturing"]);

export class Recorder {
  constructor(app) {
    this.app = app;
    this.pad = $("pad");
    this.status = $("record-status");
    this.labelBox = $("record-label");
    this.screenSelect = $("record-screen");
    this.edgeSelect = $("record-edge");
    this.nameInput = $("record-name");
    this.list = $("library");
    this.latch = new PointerLatch();
    this.mine = false;
    this.points = [];
    this.state = null;
    this.screenSelect.replaceChildren(...SCREENS.map((s) => h("option", { value: s.id, text: s.label })));
    this.screenSelect.addEventListener("change", () => app.refreshStage());
    for (const type of ["pointerdown", "pointermove", "pointerup", "pointercancel", "lostpointercapture"]) {
      this.pad.addEventListener(type, (event) => this.onPointer(event));
    }
    // A long press would open a context menu on touch screens.
    this.pad.addEventListener("contextmenu", (event) => event.preventDefault());
    for (const button of [$("label-finish"), $("label-cancel")]) {
      button.addEventListener("click", () => app.send(P.label(button.dataset.intent)));
    }
    $("record-save").addEventListener("click", () => app.send(P.save(this.nameInput.value)));
    $("record-discard").addEventListener("click", () => app.send(P.discard()));
  }

  /** The virtual screen the pad stands for. */
  get screen() {
    return screenById(this.screenSelect.value);
  }

  /** Whether a live recording (anyone's) is armed or capturing. */
  get isActive() {
    return ACTIVE.has(this.state?.state);
  }

  onPointer(event) {
    if (!this.app.canControl) return;
    if (!this.latch.accepts(event.type, event.pointerId)) return;
    event.preventDefault();
    if (event.type === "pointerdown") {
      if (this.state?.state === "released" && this.mine) {
        this.app.toast("label the last gesture, then save or discard it");
        this.latch.active = null;
        return;
      }
      this.pad.setPointerCapture(event.pointerId);
      this.mine = true;
      this.points = [];
      this.app.send(P.record(this.screen, this.edgeSelect.value || null, this.app.currentPreset()));
    }
    const coalesced = event.type === "pointermove" && event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    for (const message of pointerMessages(event, coalesced, this.app.stage.rect(), this.screen)) {
      this.app.send(message);
      this.points.push({ x: message.x, y: message.y });
    }
    this.app.drawPreviewFinger(this.points, event.type === "pointerdown" || event.type === "pointermove");
  }

  /** A `recording` status from the server (anyone's). */
  update(status) {
    this.state = status;
    const s = status?.state ?? "idle";
    this.status.dataset.state = s;
    const mine = this.mine;
    const text = {
      idle: "ready: drag on the phone",
      armed: mine ? "armed: move more than 10 pt to start the pan" : "another viewer is about to record",
      capturing: `capturing · ${status?.samples ?? 0} samples · ${(status?.duration_s ?? 0).toFixed(2)} s`,
      released: mine ? `released after ${(status?.duration_s ?? 0).toFixed(2)} s: what did you mean?` : "another viewer is labelling a gesture",
      saved: `saved as ${status?.id ?? status?.file ?? ""}`,
      discarded: "discarded",
      failed: `failed: ${status?.message ?? ""}`,
    }[s] ?? s;
    this.status.textContent = text;
    const labelling = s === "released" && mine;
    this.labelBox.hidden = !labelling;
    for (const button of [$("label-finish"), $("label-cancel")]) {
      button.setAttribute("aria-pressed", String(labelling && status.intent === button.dataset.intent));
    }
    $("record-save").disabled = !labelling || status.intent === "unknown";
    if (s === "saved" || s === "discarded") {
      this.mine = false;
      this.nameInput.value = "";
    }
  }

  /** The library list of the Record tab, live recordings first. */
  renderLibrary(library) {
    const sorted = [...library].sort((a, b) => Number(b.id.startsWith("live/")) - Number(a.id.startsWith("live/")) || a.id.localeCompare(b.id));
    this.list.replaceChildren(...sorted.map((r) => h("li", { dataset: { id: r.id, intent: r.intent } },
      h("button", { type: "button", class: "link", text: r.name, onclick: () => this.app.loadRecording(r.id) }),
      h("span", { class: `intent ${r.intent}`, text: r.intent }),
      h("span", { class: "muted", text: `${r.source} · ${r.samples} samples` }))));
    this.list.dataset.count = String(library.length);
  }
}
