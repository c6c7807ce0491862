// Exporting the timeline: a standalone SVG (the page's computed styles written onto each element
// as presentation attributes, so it looks the same anywhere and no inline style is needed under
// the page's Content-Security-Policy) or a PNG drawn from it (through a data: URL, which the
// policy's img-src allows) at twice the size.

/**
 * Properties copied from the page's computed style onto each exported element. `paint-order`
 * among them: the chart's labels (θ for A and B, the measure, "same curve") draw a halo in the
 * card's colour under their text, and without it the halo paints over the text.
 */
const STYLED = ["fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "opacity",
  "fill-opacity", "stroke-opacity", "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline",
  "paint-order"];

const SVG_NS = "http://www.w3.org/2000/svg";

/** Writes `el`'s computed style onto `target` as presentation attributes. */
function copyStyle(el, target) {
  const style = getComputedStyle(el);
  for (const p of STYLED) {
    const value = style.getPropertyValue(p);
    if (value) target.setAttribute(p, value);
  }
}

function svgElement(name, attributes, text) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The height of the band above the chart that carries the title and the legend. */
const BAND = 40;

/**
 * The timeline as standalone SVG text. With `title` (what is replayed, under which setting) and
 * `legend` (the page's legend element: its shown keys, each sample drawn with the chart's own
 * classes), a band above the chart carries both, so the file says what it shows on its own.
 */
export function standaloneSVG(svg, { title = "", legend = null } = {}) {
  const copy = svg.cloneNode(true);
  const source = [svg, ...svg.querySelectorAll("*")];
  const target = [copy, ...copy.querySelectorAll("*")];
  source.forEach((el, i) => copyStyle(el, target[i]));
  const box = svg.viewBox.baseVal;
  const keys = legend ? [...legend.querySelectorAll(".key")].filter((k) => !k.hidden) : [];
  const band = title || keys.length ? BAND : 0;
  // The chart moves down under the band.
  const chart = svgElement("g", { transform: `translate(0 ${band})` });
  while (copy.firstChild) chart.append(copy.firstChild);
  copy.append(chart);
  const width = box.width, height = box.height + band;
  copy.setAttribute("xmlns", SVG_NS);
  copy.setAttribute("viewBox", `${box.x} ${box.y} ${width} ${height}`);
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  const ink = getComputedStyle(svg).color;
  const font = getComputedStyle(svg).fontFamily;
  if (title) {
    copy.append(svgElement("text", { x: box.x + 8, y: box.y + 15, fill: ink, "font-family": font, "font-size": 12, "font-weight": 600 }, title));
  }
  let x = box.x + 8;
  for (const key of keys) {
    const swatch = key.querySelector("svg.swatch");
    const group = svgElement("g", { transform: `translate(${x} ${box.y + 24})` });
    let swatchWidth = 0;
    if (swatch) {
      swatchWidth = Number(swatch.getAttribute("width")) || 22;
      for (const shape of swatch.children) {
        const drawn = shape.cloneNode(true);
        copyStyle(shape, drawn);
        group.append(drawn);
      }
    }
    const label = key.textContent.trim();
    group.append(svgElement("text", { x: swatchWidth + 4, y: 9, fill: ink, "font-family": font, "font-size": 11 }, label));
    copy.append(group);
    x += swatchWidth + 4 + label.length * 6.2 + 14;
  }
  // The card's background, so the chart reads on any viewer.
  const background = svgElement("rect", { x: box.x, y: box.y, width, height });
  background.setAttribute("fill", getComputedStyle(svg.closest(".card") ?? document.body).backgroundColor);
  copy.insertBefore(background, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function exportSVG(svg, name, caption = {}) {
  const text = standaloneSVG(svg, caption);
  svg.dataset.exported = String(text.length);
  download(new Blob([text], { type: "image/svg+xml" }), `${name}.svg`);
}

/** Draws the standalone SVG onto a canvas at twice its size and downloads it as PNG. */
export async function exportPNG(svg, name, caption = {}) {
  const text = standaloneSVG(svg, caption);
  const box = new DOMParser().parseFromString(text, "image/svg+xml").documentElement.viewBox.baseVal;
  const image = new Image();
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const url = `data:image/svg+xml;base64,${btoa(binary)}`;
  {
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error("the SVG could not be drawn"));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(box.width * 2);
    canvas.height = Math.round(box.height * 2);
    const context = canvas.getContext("2d");
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) throw new Error("the canvas gave no PNG");
    svg.dataset.exportedPng = String(blob.size);
    download(blob, `${name}.png`);
  }
}
