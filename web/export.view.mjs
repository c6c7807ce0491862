// Exporting the timeline: a standalone SVG (the page's computed styles written onto each element
// as presentation attributes, so it looks the same anywhere and no inline style is needed under
// the page's Content-Security-Policy) or a PNG drawn from it (through a data: URL, which the
// policy's img-src allows) at twice the size.

/** Properties copied from the page's computed style onto each exported element. */
const STYLED = ["fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "opacity",
  "fill-opacity", "stroke-opacity", "font-family", "font-size", "font-weight", "text-anchor", "dominant-baseline"];

/** The timeline as standalone SVG text. */
export function standaloneSVG(svg) {
  const copy = svg.cloneNode(true);
  const source = [svg, ...svg.querySelectorAll("*")];
  const target = [copy, ...copy.querySelectorAll("*")];
  source.forEach((el, i) => {
    const style = getComputedStyle(el);
    for (const p of STYLED) {
      const value = style.getPropertyValue(p);
      if (value) target[i].setAttribute(p, value);
    }
  });
  const box = svg.viewBox.baseVal;
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  copy.setAttribute("width", String(box.width));
  copy.setAttribute("height", String(box.height));
  // The card's background, so the chart reads on any viewer.
  const background = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  for (const [k, v] of Object.entries({ x: 0, y: 0, width: box.width, height: box.height })) background.setAttribute(k, String(v));
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

export function exportSVG(svg, name) {
  const text = standaloneSVG(svg);
  svg.dataset.exported = String(text.length);
  download(new Blob([text], { type: "image/svg+xml" }), `${name}.svg`);
}

/** Draws the standalone SVG onto a canvas at twice its size and downloads it as PNG. */
export async function exportPNG(svg, name) {
  const text = standaloneSVG(svg);
  const box = svg.viewBox.baseVal;
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
