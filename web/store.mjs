// The viewer's shared state, and where server messages land. It holds what the server said
// (hello: presets, library, control; the playback, its summary and the frames of the current
// load; the live recording's status), the view (the tab, its address, the record pad's screen)
// and the connection to send on. Views subscribe to its events with `on`; it never touches
// the DOM. Pure: tests drive it with a fake connection.
//
// Every page is its own view (protocol version 3): what the server sends it is about this
// page's player, or about what all pages share (the library, the record pad, the pages one may
// follow). Events, in the order a `hello` emits them: `control`, `library`, `pages`, `presets`
// (the preset playing), `address`, `playback`, `summary`, `recording` ({status, started,
// mine}). Also `tune` (this page's sweep finished), `following` (the page this one follows, or
// null), also
// `frame` (a frame of the current load, already in `series`), `preview` (a live recording's
// frame), `series` (the whole replay of the current load arrived), `compare` (a comparison
// arrived, or null when cleared), `error`, `toast` (text), `connection` (the socket's state),
// `tab`, `view` (the timeline's comparison or zoom changed) and `stage` (what the stage
// shows may have changed: redraw it). Live sources (devices): `sources` (the list, or this
// page's choice of which to watch, changed), `device` (a source's gesture began, moved or
// ended), `devicePreview` (a frame of the watched device's gesture, through this page's
// setting).
import { addressFor, linkNotShown, reopenMessages, watchOnlyLinkText } from "./address.mjs";
import { errorSentence } from "./notice.mjs";
import { autoWatch } from "./devices.mjs";
import { FrameSeries } from "./chart.mjs";
import * as P from "./protocol.mjs";
import { isRecordingActive, SCREENS } from "./record.mjs";
import { stageShowsReplay } from "./stage.mjs";

export class Store {
  constructor({ address, hasToken = false, connection = null, warn = (text) => console.warn(text), later = null }) {
    this.connection = connection;
    /** `later(ms, fn)`: runs `fn` after `ms` (the page's timer); without it nothing is asked again. */
    this.later = later;
    // Whether the page's address carries a token: when the server refuses it, the page keeps
    // the address it had (the view it named), so the person can reopen that view with control.
    this.hasToken = hasToken;
    this.greeted = false;
    this.warn = warn;
    this.listeners = new Map();
    this.canControl = false;
    /** This page's number (other pages name it by it), from `hello`. */
    this.page = null;
    this.library = [];
    /** How many recordings the library holds; the rest of `library` is asked for a page at a time. */
    this.libraryTotal = 0;
    /** Limits the server's listing reached, one line each (a corpus listed in part). */
    this.libraryNotices = [];
    /** The pages with control this page may follow, and how many pages are open. */
    this.pages = { pages: [], total: 0 };
    /** The page this page follows, or null. */
    this.following = null;
    /** A link this watch-only page could not open, kept in its address until it follows a page. */
    this.heldLink = null;
    this.presets = [];
    this.playback = null;
    this.summary = null;
    this.recording = null;
    this.series = new FrameSeries();
    /** The live recording's frames (preview), drawn on the timeline while it is captured. */
    this.liveSeries = new FrameSeries();
    /** The file of the live gesture in `liveSeries` (a device's), so its next gesture starts anew. */
    this.liveFile = null;
    this.comparison = null;
    this.frame = null;
    this.address = address;
    this.tab = address.tab;
    /** The timeline's own view: what it compares with, and the span it shows (null: all). */
    this.view = { compare: address.compare ?? null, zoom: address.zoom ?? null };
    this.padScreen = SCREENS[0];
    /** Live sources (devices) and the one this page watches (its number), or null. */
    this.sources = [];
    this.watching = null;
    /** "Watch whatever goes live" (the person's choice), and the source the person stopped
     * watching (not watched again on its own). */
    this.followLive = false;
    this.declined = null;
    /** The decision this page's own setting made of each device gesture it watched released,
     * by file (the unsaved list shows it beside the gesture). */
    this.deviceDecisions = new Map();
    /** The latest live frame this page was sent (the pad's or the watched device's), read through
     * this page's own setting, and the load the page showed then: the decision box follows it. */
    this.live = null;
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

  /** Whether `status` (a `recording` status) is this page's own recording. */
  isMine(status) {
    return status?.page != null && status.page === this.page;
  }

  /** The source this page watches while it streams a gesture, or null. */
  get deviceLive() {
    const source = this.sources.find((s) => s.source === this.watching);
    return source?.connected && source.live ? source : null;
  }

  /** Whether the stage shows the replay (not a live recording's preview, nor a device's gesture). */
  stageShowsReplay() {
    if (this.deviceLive) return false;
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
      case "sheet": return this.emit("sheet", message);
      case "summary": return this.setSummary(message);
      case "library": return this.applyLibraryPage(message);
      case "recording": return this.applyRecording(message);
      case "tune": return this.emit("tune", message);
      case "error": return this.applyError(message);
      case "pages": return this.setPages(message);
      case "following": return this.setFollowing(message.page ?? null, message.reason ?? null);
      case "sources": return this.setSources(message.sources);
      case "device_gesture": return this.emit("device", message);
      case "kept": return this.emit("kept", message);
      case "dropped": return this.emit("dropped", message);
    }
  }

  /** The server's whole state, on every (re)connection; then reopens the view the address names. */
  applyHello(hello) {
    const state = hello.state;
    const wanted = this.address;
    this.presets = state.presets;
    this.greeted = true;
    this.page = hello.page;
    this.following = null;
    // A link a watch-only page cannot open stays in its address, said once (not dropped).
    this.heldLink = !hello.can_control && !this.hasToken && linkNotShown(wanted, state.playback) ? wanted : null;
    this.setControl(hello.can_control);
    this.applyLibraryPage({ recordings: state.library, offset: 0, total: state.library_total, notices: state.library_notices });
    this.setPages({ pages: state.pages, total: this.pages.total });
    this.emit("following", null);
    this.emit("presets", state.playback?.preset);
    this.summary = state.summary ?? null;
    this.playback = null;
    this.setPlayback(state.playback ?? null);
    this.emit("summary", this.summary);
    this.recording = state.recording ?? null;
    this.emit("recording", { status: this.recording, started: false, mine: this.isMine(this.recording) });
    // A new connection watches nothing; the source this page chose is watched again if it is there.
    const watched = this.watching;
    this.watching = null;
    this.setSources(state.sources ?? []);
    if (watched !== null && this.watching !== watched && this.sources.some((s) => s.source === watched)) this.watch(watched);
    this.reopen(state.playback, wanted);
    if (this.heldLink) this.toast(watchOnlyLinkText(this.heldLink));
  }

  /** The live sources; a watched source that is gone is no longer watched. */
  setSources(sources) {
    const wasLive = this.deviceLive !== null;
    this.sources = sources;
    if (this.watching !== null && !sources.some((s) => s.source === this.watching)) this.watching = null;
    this.emit("sources", sources);
    if (wasLive !== (this.deviceLive !== null)) this.refreshStage();
    this.watchOnItsOwn();
  }

  /** Watches what ``autoWatch`` says a page watches on its own, if anything. */
  watchOnItsOwn() {
    const next = autoWatch({ sources: this.sources, watching: this.watching, followLive: this.followLive, declined: this.declined });
    if (next !== undefined && next !== this.watching) this.watch(next);
  }

  /** The person's choice of source (null: stops watching, and that source is not watched again on its own). */
  chooseSource(number) {
    if (number === null) this.declined = this.watching;
    this.watch(number);
  }

  /** The person's "watch whatever goes live". */
  setFollowLive(on) {
    this.followLive = on;
    this.watchOnItsOwn();
  }

  /** Watches source `number` through this page's own setting (null: stops watching). */
  watch(number) {
    this.watching = number;
    this.send(P.watch(number));
    this.emit("sources", this.sources);
    this.refreshStage();
  }

  setControl(canControl) {
    this.canControl = canControl;
    this.emit("control", canControl);
  }

  setLibrary(recordings) {
    this.library = recordings;
    this.emit("library", recordings);
  }

  /**
   * A page of the library (`offset`, `total`): the first page replaces the list; the next is
   * asked for until the list is whole, so `hello` stays small whatever the library holds.
   */
  applyLibraryPage({ recordings, offset, total, notices }) {
    if (offset === 0) this.library = recordings;
    else if (offset === this.library.length) this.library = this.library.concat(recordings);
    else return;  // a page of an older listing: the next first page starts again
    this.libraryTotal = total;
    // Limits the server's listing reached (a corpus listed in part): every page says them.
    this.libraryNotices = notices ?? [];
    this.emit("library", this.library);
    if (this.library.length < total && recordings.length > 0) this.send(P.libraryFrom(this.library.length));
  }

  setPages(pages) {
    this.pages = pages;
    this.emit("pages", pages);
  }

  /** Starts or stops following another page (`page` null: following nobody; `reason` why it stopped). */
  setFollowing(page, reason) {
    const was = this.following;
    this.following = page;
    // Following is the person's choice of what to see: the address shows it from now on.
    if (page !== null) this.heldLink = null;
    this.emit("following", page);
    if (page === null && was !== null && reason) this.toast(`stopped following page ${was}: ${reason}`);
  }

  /** A `playback` (or none); a new load starts a new frame series. */
  setPlayback(playback) {
    const fresh = !this.playback || !playback || playback.load !== this.playback.load;
    this.playback = playback;
    if (fresh) {
      this.series = new FrameSeries();
      this.frame = null;
      // A load's summary comes just before its playback: a device gesture this page replays
      // (watched or not) lists what this page's setting decided.
      if (playback && this.summary && this.entryOf(playback.recording)?.device != null) this.noteDeviceDecision(playback.recording, this.summary.decision);
    }
    this.updateAddress();
    this.emit("playback", playback);
  }

  /** What this page's setting decided for a device gesture, for the unsaved list. */
  noteDeviceDecision(file, outcome) {
    this.deviceDecisions.set(file, outcome);
    // Bounded: the oldest go first (a page watching for hours keeps the last thousand).
    if (this.deviceDecisions.size > 1000) this.deviceDecisions.delete(this.deviceDecisions.keys().next().value);
    this.emit("deviceDecision", file);
  }

  setSummary(summary) {
    this.summary = summary;
    this.emit("summary", summary);
  }

  /** A frame of the current load joins the series; a live preview frame (load −1) is passed on. */
  applyFrame(message) {
    if (!P.isCurrentFrame(message, this.playback?.load)) return;  // a frame of an earlier load
    if (message.load === -1 && message.source != null) {
      if (message.source !== this.watching) return;
      // A device's gesture fills the live series as the pad's does (a new file: a new gesture).
      if (message.recording !== this.liveFile) this.liveSeries = new FrameSeries();
      this.liveFile = message.recording;
      this.liveSeries.add(message.frame);
      this.noteLive(message);
      if (message.frame.release) this.noteDeviceDecision(message.recording, message.frame.release.decision.outcome);
      return this.emit("devicePreview", message);
    }
    if (message.load === -1) {
      this.liveSeries.add(message.frame);
      this.noteLive(message);
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

  /** A live frame this page shows: what its own setting reads of the gesture now. */
  noteLive(message) {
    this.live = { if_released: message.if_released ?? null, release: message.frame.release ?? null, load: this.playback?.load ?? null };
    this.emit("live", this.live);
  }

  /**
   * What the decision box shows of a live gesture: `{ live }` while one is under way (the pad
   * armed or capturing, or the watched device streaming), `{ release }` after its release until
   * this page loads something else, else null (the box shows the replay's summary).
   */
  get liveDecision() {
    if (this.recordingActive || this.deviceLive) return { live: this.live, mine: this.isMine(this.recording) };
    if (this.live?.release && this.live.load === (this.playback?.load ?? null)) return { release: this.live.release };
    return null;
  }

  /** A live recording's status (anyone's); `started` when it has just become active. */
  applyRecording(status) {
    const wasActive = this.recordingActive;
    this.recording = status;
    if (this.recordingActive && !wasActive) {
      this.liveSeries = new FrameSeries();
      this.liveFile = null;
      this.live = null;
    }
    this.emit("recording", { status, started: this.recordingActive && !wasActive, mine: this.isMine(status) });
    this.refreshStage();
  }

  applyError(error) {
    this.emit("error", error);
    // A comparison asked too soon, or while the server is busy with others', is asked again by
    // the view that asked (compare, or the sheets); nothing to tell.
    if ((error.code === "rate_limited" || error.code === "busy") && error.in_reply_to === "compare") return;
    // The rest of the library asked for faster than the server lists it: asked again when it
    // says, from wherever the list is then; nothing to tell.
    if (error.code === "rate_limited" && error.in_reply_to === "library" && this.later) {
      this.later(error.retry_after_ms ?? 200, () => {
        if (this.library.length < this.libraryTotal) this.send(P.libraryFrom(this.library.length));
      });
      return;
    }
    this.toast(errorSentence(error));
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
    if (this.tokenRefused || this.heldLink) return;
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
    this.heldLink = null;
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
