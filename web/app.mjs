// The viewer's entry point (index.html loads it): wiring only. One store (store.mjs) holds
// the shared state and the connection to `pantrace serve`; one view per tab (replay, record,
// tune) and the shell around them subscribe to it and draw the page.
//
// File names say what touches the DOM: `*.view.mjs` modules do (and this entry point); every
// other module is pure (no DOM, tested with `node --test web/tests`). See web/README.md.
import { parseHash } from "./address.mjs";
import * as P from "./protocol.mjs";
import { CompareView } from "./compare.view.mjs";
import { DevicesView } from "./devices.view.mjs";
import { FollowView } from "./follow.view.mjs";
import { LiveConnection, liveURL } from "./connection.mjs";
import { RecordView } from "./record.view.mjs";
import { ReplayView } from "./replay.view.mjs";
import { SettingView } from "./setting.view.mjs";
import { SheetView } from "./sheet.view.mjs";
import { Shell } from "./shell.view.mjs";
import { Stage } from "./stage.view.mjs";
import { Store } from "./store.mjs";
import { TrialsView } from "./trials.view.mjs";
import { TuneView } from "./tune.view.mjs";

const store = new Store({
  address: parseHash(location.hash), hasToken: new URLSearchParams(location.search).has("token"),
  later: (ms, fn) => setTimeout(fn, ms),
});
store.connection = new LiveConnection(liveURL(location), {
  WebSocket, setTimeout: setTimeout.bind(window), clearTimeout: clearTimeout.bind(window),
  onState: (state) => store.emit("connection", state),
  onMessage: (text) => store.receive(text),
});

// Views subscribe in this order, so each event reaches the shell first, then replay, record, tune.
const stage = new Stage();
const shell = new Shell(store);
const replay = new ReplayView(store, stage);
const trials = new TrialsView(store);
const record = new RecordView(store, stage, {
  trials,
  currentPreset: () => replay.currentPreset(),
  // The sliders as the page's own view has them (a moved slider reloads the view at once).
  currentParameters: () => store.playback?.parameters ?? {},
  loadRecording: (id) => replay.loadRecording(id),
});
const tune = new TuneView(store);
const compare = new CompareView(store);
const sheets = new SheetView(store);
const setting = new SettingView(store);
const follow = new FollowView(store);
const devices = new DevicesView(store, stage);

// A background tab costs the server nothing: its view waits until the page is shown again.
document.addEventListener("visibilitychange", () => store.connection.send(P.visible(document.visibilityState === "visible")));
store.on("control", () => {
  if (document.visibilityState !== "visible") store.connection.send(P.visible(false));
});

store.showTab(store.tab);
store.setControl(false);
store.connection.start();

window.pantrace = { store, stage, shell, replay, record, trials, tune, compare, sheets, setting, follow, devices };
