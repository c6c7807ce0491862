// The Record tab: the pad over the stage captures pointer input (mouse, pen, touch) and
// streams it to the server, which recognises the pan and writes the recording as it happens;
// the stage shows the live preview frames. The decisions are record.mjs and stage.mjs.
import { $, h } from "./dom.view.mjs";
import * as P from "./protocol.mjs";
import {
  canSave, endsGesture, isLabelling, isRecordingActive, libraryOrder, PointerLatch, pointerMessages, recordStatusText, SCREENS, screenById,
} from "./record.mjs";
import { padStage, previewFinger } from "./stage.mjs";
import { watchOnlyText } from "./notice.mjs";

const POINTER_EVENTS = ["pointerdown", "pointermove", "pointerup", "pointercancel", "lostpointercapture"];

export class RecordView {
  /**
   * `currentPreset()` and `currentParameters()`: the setting the recording is decided with (the
   * page's own sliders); `loadRecording(id)`: replays one from the library.
   */
  constructor(store, stage, { currentPreset, currentParameters, loadRecording, trials }) {
    Object.assign(this, { store, stage, currentPreset, currentParameters, loadRecording, trials });
    this.pad = $("pad");
    this.status = $("record-status");
    this.labelBox = $("record-label");
    this.labelButtons = [$("label-finish"), $("label-cancel")];
    this.saveButton = $("record-save");
    this.screenSelect = $("record-screen");
    this.edgeSelect = $("record-edge");
    this.nameInput = $("record-name");
    this.list = $("library");
    this.latch = new PointerLatch();
    this.mine = false;
    this.points = [];
    this.preview = null;
    this.screenSelect.replaceChildren(...SCREENS.map((s) => h("option", { value: s.id, text: s.label })));
    store.padScreen = this.screen;
    this.listen();
    store.on("control", () => {
      this.refreshPad();
      this.showStatus(this.store.recording);
    });
    store.on("library", () => this.renderLibrary(store.library));
    store.on("recording", ({ status, started, mine }) => this.onRecording(status, started, mine));
    store.on("preview", (message) => this.onPreview(message));
    store.on("stage", () => this.refreshStage());
  }

  /** The virtual screen the pad stands for. */
  get screen() {
    return screenById(this.screenSelect.value);
  }

  listen() {
    this.screenSelect.addEventListener("change", () => this.store.setPadScreen(this.screen));
    for (const type of POINTER_EVENTS) this.pad.addEventListener(type, (event) => this.onPointer(event));
    // A long press would open a context menu on touch screens.
    this.pad.addEventListener("contextmenu", (event) => event.preventDefault());
    for (const button of this.labelButtons) {
      button.addEventListener("click", () => this.store.send(P.label(button.dataset.intent)));
    }
    this.saveButton.addEventListener("click", () => this.store.send(P.save(this.nameInput.value)));
    $("record-discard").addEventListener("click", () => this.store.send(P.discard()));
  }

  // MARK: The pad

  onPointer(event) {
    if (!this.store.canControl) return;
    if (!this.latch.accepts(event.type, event.pointerId)) return;
    event.preventDefault();
    if (event.type === "pointerdown" && !this.startGesture(event)) return;
    const coalesced = event.type === "pointermove" && event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    for (const message of pointerMessages(event, coalesced, this.stage.rect(), this.screen)) {
      this.store.send(message);
      this.points.push({ x: message.x, y: message.y });
    }
    if (this.mine) this.trials?.follow(this.screen, this.points);
    this.drawFinger(event.type === "pointerdown" || event.type === "pointermove");
  }

  /** Starts recording on a pointer down; false while this page's last gesture waits for its label. */
  startGesture(event) {
    if (this.ownStatus?.state === "released") {
      this.store.toast("label the last gesture, then save or discard it");
      this.latch.active = null;
      return false;
    }
    this.pad.setPointerCapture(event.pointerId);
    this.mine = true;
    this.points = [];
    const trial = this.trials?.active ? this.trials.request(this.screen) : undefined;
    this.store.send(P.record(this.screen, this.edgeSelect.value || null, this.currentPreset(), this.currentParameters(), trial));
    return true;
  }

  refreshPad() {
    this.pad.hidden = this.store.tab !== "record" || !this.store.canControl;
    // A page that only watches has no pad: the phone says so, where a person would drag.
    $("pad-watch").hidden = this.store.tab !== "record" || this.store.canControl || this.store.recordingActive;
    $("pad-hint").hidden = this.store.recordingActive || this.store.recording?.state === "released" || this.store.deviceLive !== null;
  }

  // MARK: The stage

  /** The stage on the Record tab when it does not show the replay: the preview, or the empty pad's screen. */
  refreshStage() {
    this.refreshPad();
    if (this.store.stageShowsReplay() && this.store.frame) return;  // the Replay view draws it
    if (this.store.deviceLive) return;  // the watched device's gesture: the devices view draws it
    const shown = padStage({ recordingActive: this.store.recordingActive, tab: this.store.tab, hasPreview: this.preview !== null });
    if (shown === "preview") this.drawPreview();
    else if (shown === "empty") this.stage.clear(this.screen);
  }

  onPreview(message) {
    this.preview = message;
    if (this.store.recordingActive || this.store.tab === "record") this.drawPreview();
  }

  drawPreview() {
    const message = this.preview;
    if (!message) return;
    const { screen, finger } = previewFinger({
      mine: this.mine, points: this.points, pointerDown: this.latch.active !== null, padScreen: this.screen, layers: message.frame.layers,
    });
    this.stage.draw(message, finger, screen);
    this.stage.showPhase(message.frame.phase);
  }

  /** The finger on the pad before (or without) preview frames: the pad's own points. */
  drawFinger(isDown) {
    if (this.preview && this.store.recordingActive) {
      this.stage.draw(this.preview, { trail: this.points, point: isDown ? this.points.at(-1) : null }, this.screen);
    }
  }

  // MARK: What the server says

  /** A `recording` status (anyone's); `started`: a recording has just become active; `mine`: this page's. */
  onRecording(status, started, mine) {
    // Another page's status says nothing of this page's own recording, but for who holds the pad.
    if (!mine && status?.page != null) this.mine = false;
    else if (mine) this.mine = true;
    if (!mine && this.ownStatus && !isRecordingActive(status)) {
      // Another page let go of the pad: this page's own gesture, if any, is still its to finish.
      this.showStatus(this.ownStatus);
      return;
    }
    if (mine) this.ownStatus = endsGesture(status) || status?.state === "ready" ? null : status;
    this.showStatus(status);
    if (started) this.preview = null;
  }

  showStatus(status) {
    this.status.dataset.state = status?.state ?? "idle";
    // Where a page with control reads "ready: drag on the phone", one that only watches reads
    // that it can't record and how to get control; another page's recording it still sees.
    const watching = !this.store.canControl && !isRecordingActive(status);
    this.status.dataset.watchOnly = String(watching);
    this.status.textContent = watching ? watchOnlyText("record") : recordStatusText(status, this.mine);
    // Another page holding the pad armed sends no status until it moves: the count goes on here.
    clearInterval(this.heldTimer);
    if (!watching && !this.mine && status?.state === "armed") {
      const since = performance.now();
      this.heldTimer = setInterval(() => {
        this.status.textContent = recordStatusText(status, false, (performance.now() - since) / 1000);
      }, 1000);
    }
    const labelling = isLabelling(status, this.mine);
    this.labelBox.hidden = !labelling;
    for (const button of this.labelButtons) {
      button.setAttribute("aria-pressed", String(labelling && status.intent === button.dataset.intent));
    }
    this.saveButton.disabled = !canSave(status, this.mine);
    if (endsGesture(status)) {
      this.mine = false;
      this.nameInput.value = "";
    }
  }

  /** The library list of the Record tab, live recordings first. */
  renderLibrary(library) {
    this.list.replaceChildren(...libraryOrder(library).map((r) => h("li", { dataset: { id: r.id, intent: r.intent } },
      h("button", { type: "button", class: "link", text: r.name, onclick: () => this.loadRecording(r.id) }),
      h("span", { class: `intent ${r.intent}`, text: r.intent }),
      h("span", { class: "muted", text: `${r.source} · ${r.samples} samples` }))));
    this.list.dataset.count = String(library.length);
  }
}
