// The Replay tab: the transport (play, step, scrub, speed, loop and their keys), the recording
// and preset menus, the decision under the stage, and the replay's frames on the stage and
// the timeline. The sliders are params.view.mjs; the decisions are replay.mjs and stage.mjs.
import { parseHash } from "./address.mjs";
import { $, h } from "./dom.view.mjs";
import { clockText } from "./format.mjs";
import { screenOfLayers } from "./geometry.mjs";
import { ParamsPanel } from "./params.view.mjs";
import * as P from "./protocol.mjs";
import { decisionText, exportTitle, keyMessage, presetSummaryText, liveChartInput, liveDecisionText, libraryLoadingText, liveReleaseText, loadMessage, recordingGroups, recordingLabel, timelineThreshold, toggleMessage } from "./replay.mjs";
import { replayFinger, stageTitle } from "./stage.mjs";
import { comparisonChart, comparisonFits, sameCurve } from "./compare.mjs";
import { dominantAxis } from "./chart.mjs";
import { exportPNG, exportSVG } from "./export.view.mjs";
import { stillStartMessages } from "./motion.mjs";
import { Filmstrip } from "./filmstrip.view.mjs";
import { keyAction, watchOnlyText } from "./notice.mjs";
import { valueAt, valueRows } from "./readout.mjs";
import { CURSOR_KEYS, KEY_ZOOM, showLegend, Timeline } from "./timeline.view.mjs";

/** How long the note under the timeline stays (a watch-only page's click). */
const NOTE_MS = 8000;

/** The keys a focused slider keeps for itself (its own keyboard access): the rest reach the player. */
const SLIDER_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);

/** What Space presses when the keyboard moved focus there (Tab): a button, a checkbox, a heat map cell or row. */
const SPACE_PRESSES = "button, input[type=checkbox], summary, [role=button], tr[tabindex]";

/**
 * Whether a key belongs to the focused control rather than the player: anything typed into a
 * text field, a focused slider's arrow, Home/End and Page keys, and Space on a control the
 * keyboard moved to (`:focus-visible`; Space is the only key that ticks a checkbox). Menus,
 * buttons and checkboxes keep focus after a click, so a shortcut typed then still goes to the
 * player rather than changing the control.
 */
function controlOwnsKey(event) {
  const t = event.target;
  if (event.key === " " && t instanceof Element && t.matches(SPACE_PRESSES) && t.matches(":focus-visible")) return true;
  if (t instanceof HTMLTextAreaElement) return true;
  // The focused timeline moves its readout cursor with these (timeline.view.mjs).
  if (t instanceof SVGElement && t.id === "timeline" && CURSOR_KEYS.has(event.key)) return true;
  if (!(t instanceof HTMLInputElement)) return false;
  if (["text", "number", "search", "email", "url"].includes(t.type)) return true;
  return t.type === "range" && SLIDER_KEYS.has(event.key);
}

export class ReplayView {
  constructor(store, stage) {
    this.store = store;
    this.stage = stage;
    this.scrubbing = false;
    this.seekPending = false;
    this.params = new ParamsPanel(store, () => this.currentSpecs());
    this.timeline = new Timeline($("timeline"), () => this.chartInput(), {
      seek: (time) => this.seekTo(time),
      canSeek: () => this.store.canControl && Boolean(this.store.playback),
      onDraw: (model) => this.onDraw(model),
      refused: (action) => this.showTimelineNote(watchOnlyText(action)),
      readoutEl: $("timeline-readout"),
    });
    this.sameCurve = { key: null, same: null };
    this.filmstrip = new Filmstrip(store, (time) => this.seekTo(time));
    // A link's zoom belongs to its recording: kept while the page reopens it.
    this.timeline.view = store.view.zoom;
    this.zoomFor = store.view.zoom ? store.address.recording : null;
    this.shownLoad = null;
    // Less motion asked for: a load waits at its release frame until Play (motion.mjs), or at
    // the time the address the page opened names.
    this.reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
    this.seenPlayback = null;
    this.opened = { recording: store.address.recording, time: store.address.time };
    this.listen();
    store.on("library", () => this.showLibrary());
    store.on("playback", (playback) => this.onPlayback(playback));
    store.on("summary", () => this.showDecision());
    store.on("recording", () => {
      this.showDecision();
      this.timeline.schedule();
    });
    store.on("preview", (message) => this.onLiveFrame(message));
    store.on("live", () => this.showDecision());
    store.on("devicePreview", (message) => this.onLiveFrame(message));
    store.on("sources", () => this.showDecision());
    store.on("frame", (message) => this.onFrame(message));
    store.on("series", () => this.timeline.schedule());
    store.on("compare", () => this.timeline.schedule());
    store.on("view", (view) => this.followView(view));
    store.on("stage", () => this.refreshStage());
  }

  /** The preset shown: the one playing, else the menu's. */
  currentPreset() {
    return this.store.playback?.preset ?? $("preset").value ?? null;
  }

  currentSpecs() {
    return P.presetSpecs(this.store.presetNamed(this.currentPreset()));
  }

  /** Loads recording `id` under the preset shown (from the Record tab's library too). */
  loadRecording(id) {
    if (!this.store.canControl) return;
    const preset = this.currentPreset() ?? "swipe-dismiss";
    this.store.send(loadMessage(id, preset, this.store.playback));
  }

  // MARK: Input

  listen() {
    const send = (message) => this.store.send(message);
    $("play").addEventListener("click", () => this.togglePlay());
    $("step-back").addEventListener("click", () => send(P.step(-1)));
    $("step-forward").addEventListener("click", () => send(P.step(1)));
    $("speed").addEventListener("change", (e) => send(P.speed(Number(e.target.value))));
    $("loop").addEventListener("change", (e) => send(P.loop(e.target.checked)));
    $("recording").addEventListener("change", (e) => this.loadRecording(e.target.value));
    $("preset").addEventListener("change", (e) => this.choosePreset(e.target.value));
    $("reset").addEventListener("click", () => this.resetParameters());
    this.listenToScrub($("scrub"));
    $("timeline-fit").addEventListener("click", () => this.timeline.fit());
    $("timeline-measure").addEventListener("click", (e) => {
      const on = e.currentTarget.getAttribute("aria-pressed") !== "true";
      e.currentTarget.setAttribute("aria-pressed", String(on));
      this.timeline.setMeasuring(on);
    });
    $("export-svg").addEventListener("click", () => exportSVG($("timeline"), this.exportName(), this.exportCaption()));
    $("export-png").addEventListener("click", () => exportPNG($("timeline"), this.exportName(), this.exportCaption())
      .catch((e) => this.store.toast(`PNG export failed: ${e.message}`)));
    $("copy-link").addEventListener("click", () => this.copyLink());
    window.addEventListener("hashchange", () => {
      const opened = parseHash(location.hash);
      this.opened = { recording: opened.recording, time: opened.time };
    });
    // Capture phase: before a focused menu or slider takes the arrow keys for itself.
    document.addEventListener("keydown", (e) => this.onKey(e), { capture: true });
  }

  /** The scrubber seeks at most once per animation frame, and is left alone while held. */
  listenToScrub(scrub) {
    scrub.addEventListener("pointerdown", () => { this.scrubbing = true; });
    scrub.addEventListener("pointerup", () => { this.scrubbing = false; });
    scrub.addEventListener("input", () => this.seekTo(Number(scrub.value)));
  }

  /** Seeks (and pauses) at most once per animation frame, to the latest time asked. */
  seekTo(time) {
    this.seekTime = time;
    if (this.seekPending) return;
    this.seekPending = true;
    requestAnimationFrame(() => {
      this.seekPending = false;
      this.store.send(P.seek(this.seekTime));
      if (this.store.playback?.playing) this.store.send(P.pause());
    });
  }

  /** The timeline's zoom keys: + and − zoom about the playhead, 0 fits (for every page). */
  timelineKey(e) {
    const at = this.store.frame?.frame.time ?? null;
    if (e.key === "+" || e.key === "=") this.timeline.zoom(KEY_ZOOM, at);
    else if (e.key === "-" || e.key === "_") this.timeline.zoom(1 / KEY_ZOOM, at);
    else if (e.key === "0") this.timeline.fit();
    else return false;
    return true;
  }

  onKey(e) {
    if (controlOwnsKey(e)) return;
    if (!e.ctrlKey && !e.metaKey && !e.altKey && this.store.tab === "replay" && this.timelineKey(e)) {
      e.preventDefault();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (!this.store.canControl) return this.refuseKey(e);
    if (!this.store.playback) return;
    const message = keyMessage(e.key, this.store.playback);
    if (!message) return;
    this.store.send(message);
    e.preventDefault();
  }

  /**
   * A player key on a page that only watches: it does not scroll the page (Space would) and
   * says why nothing played. A focused control a watch-only page may use (the compare menu, a
   * link button) keeps its own keys.
   */
  refuseKey(e) {
    const action = keyAction(e.key);
    if (!action) return;
    const t = e.target;
    const usable = (t instanceof HTMLButtonElement || t instanceof HTMLSelectElement || t instanceof HTMLAnchorElement
      || t instanceof HTMLInputElement || t instanceof HTMLElement && t.tagName === "SUMMARY") && !t.disabled;
    if (usable) return;
    e.preventDefault();
    this.store.toast(watchOnlyText(action));
  }

  /** A note under the timeline, where the person clicked (it fades after a while). */
  showTimelineNote(text) {
    const note = $("timeline-note");
    note.textContent = text;
    note.hidden = false;
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { note.hidden = true; }, NOTE_MS);
  }

  togglePlay() {
    if (this.store.playback) this.store.send(toggleMessage(this.store.playback));
  }

  choosePreset(preset) {
    const playback = this.store.playback;
    if (!playback) return;
    this.params.forget();
    this.store.send(P.load(playback.recording, preset, {}));
  }

  resetParameters() {
    const playback = this.store.playback;
    if (playback) this.store.send(P.load(playback.recording, playback.preset, {}));
  }

  // MARK: What the server says

  showLibrary() {
    const select = $("recording");
    select.replaceChildren(...recordingGroups(this.store.library).map(([folder, list]) => h("optgroup", { label: folder },
      ...list.map((r) => h("option", { value: r.id, text: recordingLabel(r), title: r.id })))));
    if (this.store.playback) select.value = this.store.playback.recording;
    // A library still arriving, and a limit the server's listing reached, are said, never left
    // to a shorter menu.
    const notice = $("library-notice");
    const lines = [libraryLoadingText(this.store.library.length, this.store.libraryTotal), ...this.store.libraryNotices].filter(Boolean);
    notice.textContent = lines.join(" ");
    notice.hidden = lines.length === 0;
    document.body.dataset.libraryListed = String(this.store.library.length);
  }

  onPlayback(playback) {
    this.keepStill(playback);
    if (playback) this.syncControls(playback);
    // A new recording starts with the whole replay in view (a new setting keeps the zoom), but
    // for the one whose zoom an opened link names.
    const reopened = playback?.recording === this.zoomFor;
    if (playback && this.shownLoad !== null && this.shownRecording !== playback.recording && !reopened) this.timeline.fit();
    // The readout's times belong to the recording they were read on.
    if (playback && this.shownRecording && this.shownRecording !== playback.recording) this.timeline.clearReadout();
    if (reopened) this.zoomFor = null;
    this.shownLoad = playback?.load ?? null;
    this.shownRecording = playback?.recording ?? null;
    // What the player is doing, for tests and for CSS.
    const d = document.body.dataset;
    d.load = String(playback?.load ?? "");
    d.playing = String(playback?.playing ?? false);
    d.playhead = String(playback?.time ?? "");
    d.recording = playback?.recording ?? "";
    d.preset = playback?.preset ?? "";
    this.timeline.schedule();
  }

  /** Less motion asked for: a load that starts playing by itself is paused at its release frame. */
  keepStill(playback) {
    // The tune queue plays what a point misjudges because the person asked it to.
    const queue = $("tune-queue");
    const messages = stillStartMessages({
      reduce: this.reducedMotion.matches, canControl: this.store.canControl, following: this.store.following != null, playback, previous: this.seenPlayback,
      playRequested: !queue.hidden && queue.dataset.state === "running", opened: this.opened,
    });
    this.seenPlayback = playback;
    for (const message of messages) this.store.send(message);
  }

  onFrame(message) {
    if (!this.scrubbing) $("scrub").value = String(message.frame.time);
    $("clock").textContent = clockText(message.frame.time);
    if (this.store.stageShowsReplay()) this.drawReplay();
    this.timeline.schedule();
  }

  showDecision() {
    const live = this.store.liveDecision;
    const text = live?.release ? liveReleaseText(live.release)
      : live ? liveDecisionText(this.store.recording, live.live, live.mine)
      : decisionText(this.store.summary);
    const box = $("decision");
    box.dataset.outcome = text.outcome;
    box.dataset.correct = text.correct;
    $("decision-outcome").textContent = text.headline;
    $("decision-reason").textContent = text.reason;
    box.dataset.fit = text.fitState;
    $("decision-fit").textContent = text.fit;
    $("decision-fit").hidden = text.fit === "";
    $("preset-drag").textContent = text.drag;
  }

  // MARK: Controls

  syncControls(p) {
    this.showMenus(p);
    this.showTransport(p);
    this.params.follow(p);
    this.showTitle();
  }

  showMenus(p) {
    $("recording").value = p.recording;
    const presets = this.store.presets;
    const presetSelect = $("preset");
    if (presetSelect.options.length !== presets.length) {
      presetSelect.replaceChildren(...presets.map((x) => h("option", { value: x.name, text: x.name })));
    }
    presetSelect.value = p.preset;
    $("preset-summary").textContent = presetSummaryText(this.store.presetNamed(p.preset), p.parameters);
  }

  showTransport(p) {
    const play = $("play");
    play.setAttribute("aria-label", p.playing ? "pause" : "play");
    play.dataset.playing = String(p.playing);
    const scrub = $("scrub");
    scrub.min = String(p.start);
    scrub.max = String(p.end);
    scrub.step = String(1 / p.fps);
    if (!this.scrubbing) scrub.value = String(p.time);
    $("clock").textContent = clockText(p.time);
    this.showSpeed(p.speed);
    $("loop").checked = p.loop;
  }

  /** Selects `value` in the speed menu, adding it when the menu does not have it. */
  showSpeed(value) {
    const speed = $("speed");
    const option = () => [...speed.options].find((o) => Number(o.value) === value);
    if (!option()) speed.append(h("option", { value: String(value), text: `${value}×` }));
    speed.value = option().value;
  }

  // MARK: Stage and timeline

  refreshStage() {
    const replay = this.store.stageShowsReplay() && this.store.frame;
    if (replay) this.drawReplay();
    else this.stage.showReadout([]);
    this.showTitle();
  }

  drawReplay() {
    const message = this.store.frame;
    const entry = this.store.entryOf(message.recording);
    const screen = entry?.screen ?? screenOfLayers(message.frame.layers);
    this.stage.draw(message, replayFinger(this.store.series.frames, message.frame, screen, entry?.edge), screen);
    this.stage.showPhase(message.frame.phase);
    this.stage.showReadout(valueRows(this.playheadValue(message.frame)));
  }

  /** A live gesture's frame (the pad's or the watched device's): the timeline and the values
   * beside the stage follow it as they follow a replay. */
  onLiveFrame(message) {
    this.timeline.schedule();
    const frames = this.store.liveSeries.frames;
    if (this.store.stageShowsReplay() || !frames.length) return;
    this.stage.showReadout(valueRows(valueAt(frames, message.frame.time, dominantAxis(frames))));
  }

  /**
   * The values at the playhead: read off the load's series at the frame's time (what the
   * timeline draws there, the velocity its source reports at that instant), else the frame's own.
   */
  playheadValue(frame) {
    const frames = this.store.series.frames;
    const known = frames.length ? frames : [{ ...frame, gesture: frame.gesture }];
    return valueAt(known, frame.time, dominantAxis(known));
  }

  showTitle() {
    const { playback, padScreen, recordingActive } = this.store;
    this.stage.showTitle(stageTitle({ recordingActive, padScreen, playback, entry: this.store.entryOf(playback?.recording) }));
  }

  /** What the timeline draws, read when it draws. */
  chartInput() {
    const { series, playback, summary, frame, comparison, view } = this.store;
    if (this.store.recordingActive || this.store.deviceLive) {
      return { ...liveChartInput(this.store.liveSeries.frames), threshold: timelineThreshold(playback, this.currentSpecs()) };
    }
    return {
      frames: series.frames, size: series.size, release: series.release, playback, summary, markers: series.markers,
      threshold: timelineThreshold(playback, this.currentSpecs()), time: frame?.frame.time ?? null,
      comparison: comparisonFits(comparison, view.compare, playback) ? { ...comparisonChart(comparison, playback), same: this.sameAs(comparison) } : null,
    };
  }

  /** Whether the comparison draws the playing curve (compare.mjs `sameCurve`), worked out once per pair. */
  sameAs(comparison) {
    const key = `${this.store.playback?.load}:${this.store.series.size}`;
    if (this.sameCurve.key !== key || this.sameCurve.comparison !== comparison) {
      const chart = comparisonChart(comparison);
      this.sameCurve = { key, comparison, same: this.store.series.whole ? sameCurve(this.store.series.frames, chart.frames) : null };
    }
    return this.sameCurve.same;
  }

  /** After each drawing: the legend lists what is drawn; the address keeps the zoom. */
  onDraw(model) {
    showLegend($("legend"), model);
    const zoom = model.zoomed ? model.view : null;
    const was = this.store.view.zoom;
    if ((zoom === null) !== (was === null) || (zoom && (Math.abs(zoom.from - was.from) > 5e-4 || Math.abs(zoom.to - was.to) > 5e-4))) {
      this.store.setView({ zoom });
    }
  }

  /** An address (a link) named a zoom: show it. */
  followView(view) {
    const shown = this.timeline.view;
    if (view.zoom && this.store.address.recording !== this.store.playback?.recording) this.zoomFor = this.store.address.recording;
    if (view.zoom && (!shown || Math.abs(shown.from - view.zoom.from) > 5e-4 || Math.abs(shown.to - view.zoom.to) > 5e-4)) {
      this.timeline.view = view.zoom;
      this.timeline.schedule();
    } else if (!view.zoom && shown) {
      this.timeline.fit();
    }
  }

  /** A file name for an export: the recording's name and the preset. */
  exportName() {
    const p = this.store.playback;
    const name = (this.store.entryOf(p?.recording)?.name ?? "timeline").replace(/[^\w.-]+/g, "_");
    return `pantrace-${name}-${p?.preset ?? "none"}`;
  }

  /** What an export says of itself: its title (recording and setting) and the legend shown. */
  exportCaption() {
    return { title: exportTitle(this.store.playback, this.store.view?.compare ?? null), legend: $("legend") };
  }

  /** Copies the page's address, which reopens this view (recording, preset, parameters, time, comparison, zoom). */
  copyLink() {
    const link = location.href;
    const done = () => this.store.toast("link copied: it reopens this view (and carries the control token)");
    if (navigator.clipboard?.writeText) navigator.clipboard.writeText(link).then(done, () => this.store.toast(`copy this link: ${link}`));
    else this.store.toast(`copy this link: ${link}`);
    $("copy-link").dataset.link = link;
  }
}
