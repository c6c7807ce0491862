// The viewer's shared state, and where server messages land. It holds what the server said
// (hello: presets, library, control; the playback, its summary and the frames of the current
// load; the live recording's status), the view (the tab, its address, the record pad's screen)
// and the connection to send on. Views subscribe to its events with `on`; it never touches
// the DOM. Pure: tests drive it with a fake connection.
//
// Events, in the order a `hello` emits them: `control`, `library`, `presets` (the preset
// playing), `address`, `playback`, `summary`, `recording` ({status, started}), `tune`. Also
// `frame` (a frame of the current load, already in `series`), `preview` (a live recording's
// frame), `series` (the whole replay of the current load arrived), `compare` (a comparison
// arrived, or null when cleared), `error`, `toast` (text), `connection` (the socket's state),
// `tab`, `view` (the timeline's comparison or zoom changed) and `stage` (what the stage
// shows may have changed: redraw it).
import { addressFor, reopenMessages } from "./address.mjs";
import { FrameSeries } from "./chart.mjs";
import * as P from "./protocol.mjs";
import { isRecordingActive, SCREENS } from "./record.mjs";
import { stageShowsReplay } from "./stage.mjs";

export class Store {
  constructor({ address, hasToken = false, connection = null, warn = (text) => console.warn(text) }) {
    this.connection = connection;
    // Whether the page's address carries a token: when the server refuses it, the page keeps
    // the address it had (the view it named), so the person can reopen that view with control.
    this.hasToken = hasToken;
    this.greeted = false;
    this.warn = warn;
    this.listeners = new Map();
    this.canControl = false;
    this.library = [];
    this.presets = [];
    this.playback = null;
    this.summary = null;
    this.recording = null;
    this.series = new FrameSeries();
    /** The live recording's frames (preview), drawn on the timeline while it is captured. */
    this.liveSeries = new FrameSeries();
    this.comparison = null;
    this.frame = null;
    this.address = address;
    this.tab = address.tab;
    /** The timeline's own view: what it compares with, and the span it shows (null: all). */
    this.view = { compare: address.compare ?? null, zoom: address.zoom ?? null };
    this.padScreen = SCREENS[0];
  }

  // MARK: Events

  /** Calls `listener(detail)` on each `event`, after the listeners before it; returns the unsubscribe. */
  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return () => this.listeners.set(event, this.listeners.get(event).filter((l) => l !== listener));
  }

  emit(event, detail) {
    for (const listener of this.listeners.get(event) ?? []) listener(detail);
  }

  // MARK: Sending

  /** Sends a client message, or says the page is not connected. */
  send(message) {
    if (!this.connection?.send(message)) this.toast("not connected");
  }

  toast(text) {
    this.emit("toast", text);
  }

  // MARK: Lookups

  /** The library entry with `id`, or null. */
  entryOf(id) {
    return this.library.find((r) => r.id === id) ?? null;
  }

  presetNamed(name) {
    return this.presets.find((p) => p.name === name);
  }

  /** Whether a live recording (anyone's) is armed or capturing. */
  get recordingActive() {
    return isRecordingActive(this.recording);
  }

  /** Whether the stage shows the replay (not a live recording's preview). */
  stageShowsReplay() {
    const replayScreen = this.entryOf(this.playback?.recording)?.screen;
    return stageShowsReplay({ recordingActive: this.recordingActive, tab: this.tab, replayScreen, padScreen: this.padScreen });
  }

  // MARK: Server messages

  /** One WebSocket text message; one that does not follow the protocol is logged and ignored. */
  receive(text) {
    let message;
    try {
      message = P.decodeServerMessage(text);
    } catch (error) {
      this.warn(`ignored a message that does not follow the protocol: ${error.message}`);
      return;
    }
    if (!message) return;
    switch (message.type) {
      case "hello": return this.applyHello(message);
      case "frame": return this.applyFrame(message);
      case "playback": return this.setPlayback(message);
      case "series": return this.applySeries(message);
      case "summary": return this.setSummary(message);
      case "library": return this.setLibrary(message.recordings);
      case "recording": return this.applyRecording(message);
      case "tune": return this.emit("tune", message);
      case "error": return this.applyError(message);
    }
  }

  /** The server's whole state, on every (re)connection; then reopens the view the address names. */
  applyHello(hello) {
    const state = hello.state;
    const wanted = this.address;
    this.presets = state.presets;
    this.greeted = true;
    this.setControl(hello.can_control);
    this.setLibrary(state.library);
    this.emit("presets", state.playback?.preset);
    this.summary = state.summary ?? null;
    this.playback = null;
    this.setPlayback(state.playback ?? null);
    this.emit("summary", this.summary);
    this.recording = state.recording ?? null;
    this.emit("recording", { status: this.recording, started: false });
    if (state.tune) this.emit("tune", state.tune);
    this.reopen(state.playback, wanted);
  }

  setControl(canControl) {
    this.canControl = canControl;
    this.emit("control", canControl);
  }

  setLibrary(recordings) {
    this.library = recordings;
    this.emit("library", recordings);
  }

  /** A `playback` (or none); a new load starts a new frame series. */
  setPlayback(playback) {
    const fresh = !this.playback || !playback || playback.load !== this.playback.load;
    this.playback = playback;
    if (fresh) {
      this.series = new FrameSeries();
      this.frame = null;
    }
    this.updateAddress();
    this.emit("playback", playback);
  }

  setSummary(summary) {
    this.summary = summary;
    this.emit("summary", summary);
  }

  /** A frame of the current load joins the series; a live preview frame (load −1) is passed on. */
  applyFrame(message) {
    if (!P.isCurrentFrame(message, this.playback?.load)) return;  // a frame of an earlier load
    if (message.load === -1) {
      this.liveSeries.add(message.frame);
      return this.emit("preview", message);
    }
    this.series.add(message.frame);
    this.frame = message;
    this.emit("frame", message);
  }

  /**
   * A whole replay: the load playing (it fills the series, so the timeline is complete at
   * once), or one this page asked to compare with it (`compare`).
   */
  applySeries(message) {
    if (message.role === "compare") {
      this.comparison = message;
      return this.emit("compare", message);
    }
    if (message.load !== this.playback?.load) return;  // of an earlier load
    this.series.addWhole(message.series);
    this.emit("series", message);
  }

  /** Forgets the comparison (the page stopped comparing, or a new load came). */
  clearComparison() {
    this.comparison = null;
    this.emit("compare", null);
  }

  /** A live recording's status (anyone's); `started` when it has just become active. */
  applyRecording(status) {
    const wasActive = this.recordingActive;
    this.recording = status;
    if (this.recordingActive && !wasActive) this.liveSeries = new FrameSeries();
    this.emit("recording", { status, started: this.recordingActive && !wasActive });
    this.refreshStage();
  }

  applyError(error) {
    this.emit("error", error);
    // A comparison asked too soon is asked again by the compare view; nothing to tell.
    if (error.code === "rate_limited" && error.in_reply_to === "compare") return;
    this.toast(`${error.code}: ${error.message}`);
  }

  // MARK: The view

  showTab(tab) {
    this.tab = tab;
    this.emit("tab", tab);
    this.refreshStage();
    this.updateAddress();
  }

  /** Asks the views to redraw the stage (the tab, the recording or the pad's screen changed). */
  refreshStage() {
    this.emit("stage");
  }

  setPadScreen(screen) {
    this.padScreen = screen;
    this.refreshStage();
  }

  /** Whether the server refused the token this page's address carries. */
  get tokenRefused() {
    return this.hasToken && this.greeted && !this.canControl;
  }

  /** Brings the address up to date with the view (not while the page's token is refused). */
  updateAddress() {
    if (this.tokenRefused) return;
    this.address = addressFor(this.tab, this.playback, this.address, this.view);
    this.emit("address", this.address);
  }

  /** Sets what the timeline compares with (`"defaults"`, a preset, or null) and its span. */
  setView(change) {
    this.view = { ...this.view, ...change };
    this.emit("view", this.view);
    this.updateAddress();
  }

  /** Opens the view an address names (the person edited it, or followed a link). */
  openAddress(want) {
    this.address = want;
    this.view = { compare: want.compare ?? null, zoom: want.zoom ?? null };
    this.emit("view", this.view);
    this.showTab(want.tab);
    this.reopen(this.playback, want);
  }

  /** Sends what reopens `want` over `playback`. */
  reopen(playback, want) {
    for (const message of reopenMessages(want, playback, this)) this.send(message);
  }
}
