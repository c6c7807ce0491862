// WCAG 2.2 contrast between two colours (success criteria 1.4.3 and 1.4.11; the relative
// luminance and contrast ratio formulas of the WCAG 2.2 definitions). Pure.

/** A CSS colour as `[r, g, b, a]` (0–255, alpha 0–1): `#rgb`, `#rrggbb`, `rgb()` or `rgba()`; null for anything else. */
export function parseColour(text) {
  const t = String(text).trim().toLowerCase();
  const hex = t.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/);
  if (hex) {
    const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d) : hex[1].match(/../g);
    return [...digits.map((d) => parseInt(d, 16)), 1];
  }
  const fn = t.match(/^rgba?\(([^)]*)\)$/);
  if (!fn) return null;
  const parts = fn[1].split(/[\s,/]+/).filter(Boolean).map(Number);
  if (parts.length < 3 || parts.some((x) => !Number.isFinite(x))) return null;
  return [parts[0], parts[1], parts[2], parts[3] ?? 1];
}

/** `top` (with its alpha) over the opaque `bottom`, as an opaque colour. */
export function over(top, bottom) {
  const a = top[3] ?? 1;
  return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
}

/** Relative luminance of an sRGB colour (0 black … 1 white). */
export function luminance([r, g, b]) {
  const linear = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio (1…21) of text `fg` on `bg`, CSS colours or `[r, g, b, a]`; a translucent `fg` is laid over `bg`. */
export function contrastRatio(fg, bg) {
  const back = typeof bg === "string" ? parseColour(bg) : bg;
  const front = over(typeof fg === "string" ? parseColour(fg) : fg, back);
  const [high, low] = [luminance(front), luminance(back)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

/** WCAG 2.2 AA minimums: text (1.4.3; large text is 18.66 px bold or 24 px), and user-interface parts and focus rings (1.4.11). */
export const AA = { text: 4.5, largeText: 3, graphics: 3 };
