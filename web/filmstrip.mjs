// The filmstrip under the timeline: the stage at touch-down, release, mid-completion and settle,
// from the load's series (its keyframes). Pure; filmstrip.view.mjs draws it.
import { layerSvg, screenOfLayers } from "./geometry.mjs";
import { num } from "./format.mjs";

const MOMENTS = { touch_down: "touch-down", release: "release", mid_completion: "mid-completion", settle: "settle" };

/** The filmstrip's items: `{moment, name, timeText, label, time, screen, layers}` (layers as SVG attributes, back to front). */
export function filmstripItems(series, screen = null) {
  if (!series) return [];
  return series.keyframes.map(({ moment, frame }) => ({
    moment,
    name: MOMENTS[moment] ?? moment,
    timeText: `${num(frame.time, 2)} s`,
    label: `${MOMENTS[moment] ?? moment} · ${num(frame.time, 2)} s`,
    time: frame.time,
    screen: screen ?? screenOfLayers(frame.layers),
    layers: frame.layers.map((layer) => ({ role: layer.role, ...layerSvg(layer) })),
  }));
}
