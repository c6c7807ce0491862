// Live sources (devices streaming their pan gestures, docs/PROTOCOL.md §4) as the page words
// them: a source's label, the "is live" line, and the unsaved gestures a device left in the
// library. Pure: devices.view.mjs draws them.

/** A number without a trailing ".0". */
const plain = (value) => (Number.isInteger(value) ? String(value) : String(value));

/** "iPhone 15 (390×844 @3x)". */
export function sourceLabel(source) {
  return `${source.name} (${plain(source.screen.width)}×${plain(source.screen.height)} @${plain(source.scale)}x)`;
}

/** The line every page sees while devices stream: who is live, or who is connected. */
export function liveLine(sources) {
  const live = sources.filter((s) => s.connected && s.live);
  if (live.length === 1) return `${sourceLabel(live[0])} is live`;
  if (live.length > 1) return `${live.length} devices are live: ${live.map((s) => s.name).join(", ")}`;
  const connected = sources.filter((s) => s.connected);
  if (connected.length === 1) return `${sourceLabel(connected[0])} is connected`;
  if (connected.length > 1) return `${connected.length} devices are connected`;
  return "";
}

/** One source's state in a few words, for its row. */
export function sourceState(source) {
  const parts = [source.connected ? (source.live ? "live" : "connected") : "disconnected"];
  if (source.gestures) parts.push(`${source.gestures} unsaved`);
  if (source.dropped) parts.push(`${source.dropped} samples dropped on the device`);
  return parts.join(" · ");
}

/**
 * The source a page watches on its own, or undefined to keep what it has. With `followLive`
 * (the person chose "watch whatever goes live"): a live source, the newest if several, unless
 * the page already watches a live one. Otherwise: the only source there is, when it is
 * connected, the page watches nothing, and the person has not stopped watching it (`declined`).
 */
export function autoWatch({ sources, watching, followLive = false, declined = null }) {
  const connected = sources.filter((s) => s.connected);
  if (followLive) {
    const live = connected.filter((s) => s.live);
    if (live.some((s) => s.source === watching)) return undefined;
    return live.length ? live.reduce((a, b) => (b.source > a.source ? b : a)).source : undefined;
  }
  const only = sources.length === 1 && connected.length === 1 ? connected[0] : null;
  return watching === null && only && only.source !== declined ? only.source : undefined;
}

/** The library's unsaved device gestures (the server names the device of each), newest first. */
export function unsavedDeviceGestures(library) {
  return library.filter((r) => r.device != null).sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/**
 * A gesture's row text: the device that made it, how long, whether it was cut, and what this
 * page's own setting decided (`decision`: known once this page watched it released or replayed
 * it; until then a page that may replay it (`canReplay`: it has the token) is told how to see it).
 */
export function gestureText(entry, decision = null, canReplay = true) {
  const cut = entry.complete ? "" : " · cut off (incomplete)";
  const from = entry.device ? `${entry.device.name} · ` : "";
  const hint = canReplay ? " · replay it to see this page's decision" : "";
  const decided = decision ? ` · ${decision} with this page's setting` : hint;
  return `${from}${entry.samples} samples · ${entry.duration_s.toFixed(2)} s${cut}${decided}`;
}

/** What a `kept` or `dropped` answer did, in one sentence. */
export function keptText(kept) {
  const n = kept.files.length;
  if (n === 0) return "nothing was kept";
  const last = kept.files.at(-1).to;
  return n === 1 ? `kept as ${last}` : `kept ${n} gestures (the last as ${last})`;
}

export function droppedText(dropped) {
  const n = dropped.files.length;
  return n === 1 ? "discarded 1 device gesture" : `discarded ${n} device gestures`;
}
