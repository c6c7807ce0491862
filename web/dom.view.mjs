// Tiny DOM helpers: elements from tag, attributes and children, text only through
// textContent (never innerHTML), SVG in its namespace.
const SVG = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key === "class") el.setAttribute("class", value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element. */
export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
/** An SVG element. */
export const s = (tag, attrs, ...children) => build(document.createElementNS(SVG, tag), attrs, children);
/** The element with `id` (which must exist). */
export const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id}`);
  return el;
};
/** Sets CSS properties through the CSSOM (allowed by the page's CSP, unlike style attributes). */
export const css = (el, props) => Object.assign(el.style, props);
