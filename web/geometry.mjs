// Layer geometry (Sources/TransitionEngine/Geometry/Layer.swift) to CSS and SVG.
//
// A layer's on-screen frame is its `frame` scaled by `scale` about the frame's centre, then
// moved by `translation`; it is clipped by `mask` (a circle, or an oval with `radius_y`, in
// *screen* coordinates) and by `corner_radius`, with `alpha`. Screen points become CSS pixels
// by one factor `k`.

/** Rounds for CSS text: 1/1000 px is far below what a screen shows. */
export const fmt = (n) => String(Math.round(n * 1000) / 1000);

/** The frame after scale (about its centre) and translation, ignoring the mask (`Layer.presentedFrame`). */
export function presentedFrame(layer) {
  const { x, y, width, height } = layer.frame;
  const w = width * layer.scale;
  const h = height * layer.scale;
  const cx = x + width / 2 + layer.translation.x;
  const cy = y + height / 2 + layer.translation.y;
  return { x: cx - w / 2, y: cy - h / 2, width: w, height: h };
}

/** The factor that fits a screen of `screen` points inside a box of `box` CSS pixels. */
export function fitScale(screen, box) {
  if (!(screen?.width > 0 && screen?.height > 0)) return 1;
  return Math.max(0, Math.min(box.width / screen.width, box.height / screen.height));
}

/** The screen size implied by a frame's layers when it is not otherwise known (live preview). */
export function screenOfLayers(layers) {
  let width = 0;
  let height = 0;
  for (const l of layers) {
    width = Math.max(width, l.frame.x + l.frame.width);
    height = Math.max(height, l.frame.y + l.frame.height);
  }
  return { width, height };
}

/** The mask's semi-axes in screen points: `radius` across, `radius_y` (or `radius`) down. */
export function maskRadii(mask) {
  const rx = Math.max(0, mask.radius);
  const ry = Math.max(0, mask.radius_y ?? mask.radius);
  return { rx, ry };
}

/**
 * The mask as a circle or oval in the layer's own (untransformed) coordinates, origin at the
 * frame's top-left, in points — what CSS `clip-path` and an SVG clip inside the layer need,
 * since both are applied before the layer's transform: `{cx, cy, rx, ry}`, plus `r` for a
 * circle. `null` without a mask.
 */
export function maskInLayer(layer) {
  if (!layer.mask) return null;
  const p = presentedFrame(layer);
  if (layer.scale === 0) return { cx: 0, cy: 0, r: 0, rx: 0, ry: 0 };
  const { rx, ry } = maskRadii(layer.mask);
  const inLayer = {
    cx: (layer.mask.center.x - p.x) / layer.scale,
    cy: (layer.mask.center.y - p.y) / layer.scale,
    rx: rx / layer.scale,
    ry: ry / layer.scale,
  };
  return rx === ry ? { ...inLayer, r: inLayer.rx } : inLayer;
}

/** CSS `clip-path` for a mask in layer coordinates at `k` CSS px per point: `circle(…)` or `ellipse(…)`. */
export function clipPath(mask, k) {
  if (!mask) return "none";
  const at = `at ${fmt(mask.cx * k)}px ${fmt(mask.cy * k)}px`;
  if (mask.r !== undefined) return `circle(${fmt(mask.r * k)}px ${at})`;
  return `ellipse(${fmt(mask.rx * k)}px ${fmt(mask.ry * k)}px ${at})`;
}

/**
 * CSS for an absolutely positioned element drawing `layer` at `k` CSS px per point: the
 * untransformed frame as the box, the scale and translation as a transform about the centre
 * (so content inside scales with it), the corner radius and the mask in the box's own units.
 */
export function layerStyle(layer, k) {
  const f = layer.frame;
  const mask = maskInLayer(layer);
  const hidden = layer.scale === 0 || (mask && (mask.rx === 0 || mask.ry === 0));
  return {
    left: `${fmt(f.x * k)}px`,
    top: `${fmt(f.y * k)}px`,
    width: `${fmt(f.width * k)}px`,
    height: `${fmt(f.height * k)}px`,
    transformOrigin: "50% 50%",
    transform: `translate(${fmt(layer.translation.x * k)}px, ${fmt(layer.translation.y * k)}px) scale(${fmt(layer.scale)})`,
    opacity: fmt(Math.min(1, Math.max(0, layer.alpha))),
    borderRadius: `${fmt(Math.max(0, layer.corner_radius) * k)}px`,
    clipPath: clipPath(mask, k),
    visibility: hidden ? "hidden" : "visible",
  };
}

/** Where `layer` lands on the stage in CSS px (its presented frame times `k`): what a browser's bounding box reports. */
export function layerBox(layer, k) {
  const p = presentedFrame(layer);
  return { x: p.x * k, y: p.y * k, width: p.width * k, height: p.height * k };
}

/**
 * The layer as SVG in screen points (a `viewBox` of the screen): a `<rect>`'s attributes and,
 * with a mask, the attributes of its clip path in screen coordinates (the SVG is not
 * transformed, so the screen-space mask applies as it is): a `<circle>` (`cx`, `cy`, `r`),
 * or an `<ellipse>` (`cx`, `cy`, `rx`, `ry`) when the mask is an oval; `clipShape` names it.
 */
export function layerSvg(layer) {
  const p = presentedFrame(layer);
  return {
    rect: {
      x: fmt(p.x), y: fmt(p.y), width: fmt(p.width), height: fmt(p.height),
      rx: fmt(Math.max(0, layer.corner_radius) * layer.scale), opacity: fmt(Math.min(1, Math.max(0, layer.alpha))),
    },
    clip: layer.mask ? svgClip(layer.mask) : null,
    clipShape: layer.mask ? (maskRadii(layer.mask).rx === maskRadii(layer.mask).ry ? "circle" : "ellipse") : null,
  };
}

function svgClip(mask) {
  const { rx, ry } = maskRadii(mask);
  const centre = { cx: fmt(mask.center.x), cy: fmt(mask.center.y) };
  return rx === ry ? { ...centre, r: fmt(rx) } : { ...centre, rx: fmt(rx), ry: fmt(ry) };
}

/** An SVG path through points (`M x y L x y …`), empty for none. */
export function polyline(points) {
  return points.map((p, i) => `${i ? "L" : "M"}${fmt(p.x)} ${fmt(p.y)}`).join(" ");
}

/**
 * Where to draw the finger for a replay. Frames carry the pan's translation, not where the
 * finger touched, so the trail starts at the recording's edge for an edge pan, otherwise back
 * from the centre against the first movement, so the gesture crosses the screen.
 */
export function fingerAnchor(screen, edge, firstVelocity) {
  const { width: w, height: h } = screen;
  switch (edge) {
    case "left": return { x: 8, y: h / 2 };
    case "right": return { x: w - 8, y: h / 2 };
    case "top": return { x: w / 2, y: 8 };
    case "bottom": return { x: w / 2, y: h - 8 };
    default: {
      const vx = firstVelocity?.x ?? 0;
      const vy = firstVelocity?.y ?? 0;
      const n = Math.hypot(vx, vy);
      if (n === 0) return { x: w / 2, y: h / 2 };
      return { x: w / 2 - (vx / n) * w * 0.3, y: h / 2 - (vy / n) * h * 0.3 };
    }
  }
}

/** The finger's radius in screen points for a stage of `k` CSS px per point: about 11 CSS px, at least 10 points. */
export const touchRadius = (k) => Math.max(10, 22 / Math.max(k, 0.01) / 2);
