// The viewer's DOM wiring: one connection to `pantrace serve`, the stage, the timeline and
// the three tabs. Logic lives in the pure modules (protocol, geometry, chart, state, record,
// heatmap, connection); this file routes messages to them and their results to the page.
import * as P from "./protocol.mjs";
import { chartModel, FrameSeries } from "./chart.mjs";
import { LiveConnection, liveURL } from "./connection.mjs";
import { $, h, num } from "./dom.mjs";
import { fingerAnchor, screenOfLayers } from "./geometry.mjs";
import { Recorder } from "./recorder.mjs";
import { Stage } from "./stage.mjs";
import { formatHash, overrides, parseHash, sameParameters } from "./state.mjs";
import { renderTimeline } from "./timeline.mjs";
import { Tuner } from "./tuner.mjs";

const SPEEDS = [0.1, 0.25, 0.5, 1, 1.5, 2, 4];
const RELEASED = new Set(["completing", "finished", "cancelled"]);

class App {
  constructor() {
    this.canControl = false;
    this.library = [];
    this.presets = [];
    this.playback = null;
    this.summary = null;
    this.series = new FrameSeries();
    this.lastMessage = null;
    this.preview = null;
    this.values = {};
    this.valuesPreset = null;
    this.reloadTimer = null;
    this.chartPending = false;
    this.scrubbing = false;
    this.addressState = parseHash(location.hash);
    this.tab = this.addressState.tab;
    this.stage = new Stage();
    this.recorder = new Recorder(this);
    this.tuner = new Tuner(this);
    this.connection = new LiveConnection(liveURL(location), {
      WebSocket, setTimeout: setTimeout.bind(window), clearTimeout: clearTimeout.bind(window),
      onState: (state) => this.onConnectionState(state),
      onMessage: (text) => this.onMessage(text),
    });
    this.wireControls();
    this.showTab(this.tab);
    this.setControl(false);
    new ResizeObserver(() => this.scheduleChart()).observe($("timeline"));
    this.connection.start();
  }

  send(message) {
    if (!this.connection.send(message)) this.toast("not connected");
  }

  toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, 5000);
  }

  // MARK: Connection

  onConnectionState({ state, delay, attempt }) {
    const el = $("connection");
    el.dataset.state = state;
    document.body.dataset.connection = state;
    if (state === "connecting") el.textContent = attempt ? `reconnecting… (try ${attempt + 1})` : "connecting…";
    if (state === "open") el.textContent = "live";
    if (state === "waiting") el.textContent = `offline · retry in ${num(delay, 2)} s`;
    el.title = state === "waiting" ? "the server is not reachable; click to retry now" : "connection to pantrace serve";
  }

  onMessage(text) {
    let message;
    try {
      message = P.decodeServerMessage(text);
    } catch (error) {
      console.warn(`ignored a message that does not follow the protocol: ${error.message}`);
      return;
    }
    if (!message) return;
    switch (message.type) {
      case "hello": return this.onHello(message);
      case "frame": return this.onFrame(message);
      case "playback": return this.onPlayback(message);
      case "summary": return this.onSummary(message);
      case "library": return this.onLibrary(message.recordings);
      case "recording": return this.onRecording(message);
      case "tune": return this.tuner.show(message);
      case "error": return this.onError(message);
    }
  }

  onHello(hello) {
    const state = hello.state;
    const wanted = this.addressState;
    this.presets = state.presets;
    this.setControl(hello.can_control);
    this.onLibrary(state.library);
    this.tuner.setPresets(this.presets, state.playback?.preset);
    this.summary = state.summary ?? null;
    this.playback = null;
    this.onPlayback(state.playback ?? null);
    this.renderDecision();
    this.recorder.update(state.recording ?? null);
    if (state.tune) this.tuner.show(state.tune);
    this.applyAddress(state.playback, wanted);
  }

  /** Reopens the view the address names (a shared link, or the view before a server restart). */
  applyAddress(playback, want) {
    if (!this.canControl || !want.recording || !this.library.some((r) => r.id === want.recording)) return;
    const preset = want.preset && this.presets.some((p) => p.name === want.preset) ? want.preset : playback?.preset ?? this.presets[0]?.name;
    if (!playback || playback.recording !== want.recording || playback.preset !== preset || !sameParameters(playback.parameters, want.parameters)) {
      this.send(P.load(want.recording, preset, want.parameters));
    }
    if (Number.isFinite(want.time)) {
      this.send(P.seek(want.time));
      this.send(P.pause());
    }
  }

  setControl(canControl) {
    this.canControl = canControl;
    document.body.dataset.canControl = String(canControl);
    $("access").hidden = canControl;
    for (const el of document.querySelectorAll(".panel input, .panel select, .panel button, #pad")) {
      if (el.closest("#tune-queue")) continue;
      el.disabled = !canControl;
    }
    this.refreshPad();
  }

  // MARK: Server state

  onLibrary(recordings) {
    this.library = recordings;
    const select = $("recording");
    const groups = new Map();
    for (const r of recordings) {
      const folder = r.id.includes("/") ? r.id.slice(0, r.id.lastIndexOf("/")) : ".";
      if (!groups.has(folder)) groups.set(folder, []);
      groups.get(folder).push(r);
    }
    select.replaceChildren(...[...groups].map(([folder, list]) => h("optgroup", { label: folder },
      ...list.map((r) => h("option", { value: r.id, text: `${r.name} · ${r.intent} · ${r.source}` })))));
    if (this.playback) select.value = this.playback.recording;
    this.recorder.renderLibrary(recordings);
    this.tuner.setLibrary(recordings);
  }

  onPlayback(playback) {
    const fresh = !this.playback || !playback || playback.load !== this.playback.load;
    this.playback = playback;
    if (fresh) {
      this.series = new FrameSeries();
      this.lastMessage = null;
    }
    if (playback) this.syncControls(playback);
    // What the player is doing, for tests and for CSS.
    const d = document.body.dataset;
    d.load = String(playback?.load ?? "");
    d.playing = String(playback?.playing ?? false);
    d.playhead = String(playback?.time ?? "");
    this.updateAddress();
    this.scheduleChart();
    this.tuner.onPlayback(playback, this.summary);
  }

  onSummary(summary) {
    this.summary = summary;
    this.renderDecision();
  }

  onRecording(status) {
    const wasActive = this.recorder.isActive;
    this.recorder.update(status);
    if (this.recorder.isActive && !wasActive) this.preview = null;
    this.refreshStage();
  }

  onError(error) {
    if (error.in_reply_to === "tune") this.tuner.onError(error);
    this.toast(`${error.code}: ${error.message}`);
  }

  onFrame(message) {
    if (!P.isCurrentFrame(message, this.playback?.load)) return;  // a frame of an earlier load
    if (message.load === -1) {
      this.preview = message;
      if (this.recorder.isActive || this.tab === "record") this.drawPreview();
      return;
    }
    this.series.add(message.frame);
    this.lastMessage = message;
    if (!this.scrubbing) $("scrub").value = String(message.frame.time);
    $("clock").textContent = `${message.frame.time.toFixed(3)} s`;
    if (this.showsReplay()) this.drawReplay();
    this.scheduleChart();
  }

  // MARK: Stage

  entryOf(id) {
    return this.library.find((r) => r.id === id) ?? null;
  }

  /** Whether the stage shows the replay (not a live recording's preview). */
  showsReplay() {
    if (this.recorder.isActive) return false;
    if (this.tab !== "record") return true;
    // On the Record tab the stage stays the pad's screen; a replay of that size is shown (the one just recorded).
    const screen = this.entryOf(this.playback?.recording)?.screen;
    const pad = this.recorder.screen;
    return Boolean(screen && screen.width === pad.width && screen.height === pad.height);
  }

  refreshStage() {
    this.refreshPad();
    if (this.showsReplay() && this.lastMessage) this.drawReplay();
    else if (this.tab === "record") {
      if (this.preview && this.recorder.isActive) this.drawPreview();
      else this.stage.clear(this.recorder.screen);
    }
    this.renderStageTitle();
  }

  refreshPad() {
    $("pad").hidden = this.tab !== "record" || !this.canControl;
    $("pad-hint").hidden = this.recorder.isActive || this.recorder.state?.state === "released";
  }

  drawReplay() {
    const message = this.lastMessage;
    const entry = this.entryOf(message.recording);
    const screen = entry?.screen ?? screenOfLayers(message.frame.layers);
    const frames = this.series.frames.filter((f) => f.gesture);
    const first = frames.find((f) => f.gesture.velocity.x || f.gesture.velocity.y);
    const anchor = fingerAnchor(screen, entry?.edge, first?.gesture.velocity);
    const at = (f) => ({ x: anchor.x + f.gesture.translation.x, y: anchor.y + f.gesture.translation.y });
    const now = message.frame;
    const trail = frames.filter((f) => f.time <= now.time + 1e-9 && !RELEASED.has(f.phase)).map(at);
    const down = now.gesture && !RELEASED.has(now.phase) && now.phase !== "idle";
    this.stage.draw(message, { trail, point: down ? at(now) : null }, screen);
    this.renderPhase(now.phase);
  }

  drawPreview() {
    const message = this.preview;
    if (!message) return;
    const mine = this.recorder.mine;
    const screen = mine ? this.recorder.screen : screenOfLayers(message.frame.layers);
    const points = mine ? this.recorder.points : [];
    this.stage.draw(message, { trail: points, point: mine && this.recorder.latch.active !== null ? points.at(-1) : null }, screen);
    this.renderPhase(message.frame.phase);
  }

  /** The finger on the pad before (or without) preview frames: the pad's own points. */
  drawPreviewFinger(points, isDown) {
    if (this.preview && this.recorder.isActive) {
      this.stage.draw(this.preview, { trail: points, point: isDown ? points.at(-1) : null }, this.recorder.screen);
    }
  }

  renderPhase(phase) {
    const el = $("stage-phase");
    el.dataset.phase = phase;
    el.textContent = phase;
  }

  renderStageTitle() {
    const title = $("stage-title");
    if (this.recorder.isActive) {
      title.textContent = `live recording · ${this.recorder.screen.width}×${this.recorder.screen.height}`;
      return;
    }
    const entry = this.entryOf(this.playback?.recording);
    title.textContent = this.playback ? `${entry?.name ?? this.playback.recording} · ${this.playback.preset}` : "nothing loaded";
  }

  renderDecision() {
    const s = this.summary;
    const box = $("decision");
    box.dataset.outcome = s?.decision ?? "";
    box.dataset.correct = s?.correct === undefined ? "" : String(s.correct);
    $("decision-outcome").textContent = s ? s.decision : "–";
    const margin = Number.isFinite(s?.margin) ? ` · margin ${num(s.margin, 3)} ${s.margin_unit ?? ""}` : "";
    const verdict = s?.correct === undefined ? "" : s.correct ? ` · matches intent (${s.intent})` : ` · meant ${s.intent}`;
    $("decision-reason").textContent = s ? `${s.reason ?? ""}${margin}${verdict}` : "";
  }

  // MARK: Timeline

  scheduleChart() {
    if (this.chartPending) return;
    this.chartPending = true;
    requestAnimationFrame(() => {
      this.chartPending = false;
      const svg = $("timeline");
      const width = Math.max(240, svg.clientWidth || 600);
      const height = Math.max(160, svg.clientHeight || 200);
      const spec = this.currentSpecs().find((sp) => sp.key === "threshold");
      const threshold = Number(this.playback?.parameters?.threshold ?? spec?.defaultValue);
      const model = chartModel({
        frames: this.series.frames, playback: this.playback, release: this.series.release,
        threshold: Number.isFinite(threshold) ? threshold : null, width, height, time: this.lastMessage?.frame.time ?? null,
      });
      renderTimeline(svg, model, { outcome: this.summary?.decision ?? null, summary: this.summary });
      svg.dataset.frames = String(this.series.size);
    });
  }

  // MARK: Replay controls

  currentPreset() {
    return this.playback?.preset ?? $("preset").value ?? null;
  }

  currentSpecs() {
    return P.presetSpecs(this.presets.find((p) => p.name === this.currentPreset()));
  }

  wireControls() {
    for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => this.showTab(tab.dataset.tab));
    $("connection").addEventListener("click", () => this.connection.retryNow());
    $("play").addEventListener("click", () => this.togglePlay());
    $("step-back").addEventListener("click", () => this.send(P.step(-1)));
    $("step-forward").addEventListener("click", () => this.send(P.step(1)));
    $("speed").addEventListener("change", (e) => this.send(P.speed(Number(e.target.value))));
    $("loop").addEventListener("change", (e) => this.send(P.loop(e.target.checked)));
    $("recording").addEventListener("change", (e) => this.loadRecording(e.target.value));
    $("preset").addEventListener("change", (e) => {
      if (!this.playback) return;
      this.values = {};
      this.send(P.load(this.playback.recording, e.target.value, {}));
    });
    $("reset").addEventListener("click", () => {
      if (this.playback) this.send(P.load(this.playback.recording, this.playback.preset, {}));
    });
    const scrub = $("scrub");
    scrub.addEventListener("pointerdown", () => { this.scrubbing = true; });
    scrub.addEventListener("pointerup", () => { this.scrubbing = false; });
    scrub.addEventListener("input", () => {
      if (this.seekPending) return;
      this.seekPending = true;
      requestAnimationFrame(() => {
        this.seekPending = false;
        this.send(P.seek(Number(scrub.value)));
      });
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    window.addEventListener("hashchange", () => {
      if (location.hash === this.writtenHash) return;
      const want = parseHash(location.hash);
      this.addressState = want;
      this.showTab(want.tab);
      this.applyAddress(this.playback, want);
    });
  }

  onKey(e) {
    const t = e.target;
    if (t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    if (t instanceof HTMLInputElement && (t.type === "text" || t.type === "number")) return;
    if (t instanceof HTMLInputElement && t.type === "range" && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
    if (e.ctrlKey || e.metaKey || e.altKey || !this.canControl || !this.playback) return;
    const speed = this.playback.speed;
    switch (e.key) {
      case " ": this.togglePlay(); break;
      case "ArrowLeft": this.send(P.step(-1)); break;
      case "ArrowRight": this.send(P.step(1)); break;
      case "[": this.send(P.speed(SPEEDS.slice().reverse().find((s) => s < speed - 1e-9) ?? SPEEDS[0])); break;
      case "]": this.send(P.speed(SPEEDS.find((s) => s > speed + 1e-9) ?? SPEEDS.at(-1))); break;
      default: return;
    }
    e.preventDefault();
  }

  togglePlay() {
    if (!this.playback) return;
    this.send(this.playback.playing ? P.pause() : P.play());
  }

  loadRecording(id) {
    if (!this.canControl) return;
    const preset = this.currentPreset() ?? "swipe-dismiss";
    this.send(P.load(id, preset, this.playback?.preset === preset ? this.playback.parameters : {}));
  }

  syncControls(p) {
    $("recording").value = p.recording;
    const presetSelect = $("preset");
    if (presetSelect.options.length !== this.presets.length) {
      presetSelect.replaceChildren(...this.presets.map((x) => h("option", { value: x.name, text: x.name })));
    }
    presetSelect.value = p.preset;
    const preset = this.presets.find((x) => x.name === p.preset);
    $("preset-summary").textContent = preset?.summary ?? "";
    const play = $("play");
    play.setAttribute("aria-label", p.playing ? "pause" : "play");
    play.dataset.playing = String(p.playing);
    const scrub = $("scrub");
    scrub.min = String(p.start);
    scrub.max = String(p.end);
    scrub.step = String(1 / p.fps);
    if (!this.scrubbing) scrub.value = String(p.time);
    $("clock").textContent = `${p.time.toFixed(3)} s`;
    const speed = $("speed");
    if (![...speed.options].some((o) => Number(o.value) === p.speed)) speed.append(h("option", { value: String(p.speed), text: `${p.speed}×` }));
    speed.value = [...speed.options].find((o) => Number(o.value) === p.speed).value;
    $("loop").checked = p.loop;
    // The sliders follow the player unless the person is moving one (a reload is pending).
    if (this.reloadTimer === null && (this.valuesPreset !== p.preset || !sameParameters(overrides(this.values, this.currentSpecs()), p.parameters))) {
      this.renderParams(p);
    }
    this.renderStageTitle();
  }

  renderParams(p) {
    const specs = this.currentSpecs();
    this.valuesPreset = p.preset;
    this.values = Object.fromEntries(specs.map((sp) => [sp.key, p.parameters[sp.key] ?? sp.defaultValue]));
    const rows = specs.map((sp) => {
      const id = `param-${sp.key}`;
      const value = this.values[sp.key];
      let control;
      let output = null;
      if (sp.kind === "number") {
        const step = (sp.max - sp.min) / 1000;
        control = h("input", { type: "range", id, min: String(sp.min), max: String(sp.max), step: String(step), value: String(value), dataset: { key: sp.key } });
        output = h("output", { for: id, class: "value", text: `${num(Number(value), 3)}${sp.unit && sp.unit !== "progress" ? ` ${sp.unit}` : ""}` });
        control.addEventListener("input", () => {
          this.values[sp.key] = Number(control.value);
          output.textContent = `${num(Number(control.value), 3)}${sp.unit && sp.unit !== "progress" ? ` ${sp.unit}` : ""}`;
          this.scheduleReload();
        });
      } else {
        control = h("select", { id, dataset: { key: sp.key } }, ...sp.choices.map((c) => h("option", { value: c, text: c })));
        control.value = String(value);
        control.addEventListener("change", () => {
          this.values[sp.key] = control.value;
          this.scheduleReload();
        });
      }
      control.disabled = !this.canControl;
      const changed = String(value) !== String(sp.defaultValue);
      return h("div", { class: `param ${sp.kind}${changed ? " changed" : ""}`, title: sp.meaning },
        h("label", { for: id, class: "param-name", text: sp.key }), control, output);
    });
    $("params").replaceChildren(...rows);
  }

  /** Slider changes re-decide live: one `load` with the new parameters after a pause in the movement, keeping the playhead. */
  scheduleReload() {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      const p = this.playback;
      if (!p) return;
      const time = this.lastMessage?.frame.time ?? p.time;
      this.send(P.load(p.recording, p.preset, overrides(this.values, this.currentSpecs())));
      this.send(P.seek(time));
      if (!p.playing) this.send(P.pause());
    }, 150);
  }

  // MARK: Tabs and address

  showTab(tab) {
    this.tab = tab;
    for (const el of document.querySelectorAll(".tab")) el.setAttribute("aria-pressed", String(el.dataset.tab === tab));
    for (const el of document.querySelectorAll(".panel")) el.hidden = el.dataset.panel !== tab;
    document.body.dataset.tab = tab;
    this.refreshStage();
    this.updateAddress();
  }

  updateAddress() {
    const p = this.playback;
    const state = {
      tab: this.tab,
      recording: p?.recording ?? this.addressState.recording,
      preset: p?.preset ?? this.addressState.preset,
      parameters: p?.parameters ?? this.addressState.parameters,
      time: p ? (p.playing ? null : p.time) : this.addressState.time,
    };
    this.addressState = state;
    const hash = formatHash(state);
    if (hash === (location.hash || "")) return;
    this.writtenHash = hash;
    history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
  }
}

window.pantrace = new App();
