// Text for numbers and times, shared by the views. Pure.

/** Formats a number with `digits` decimals, trimming trailing zeros; "–" when it is not a number. */
export const num = (v, digits = 2) => (Number.isFinite(v) ? String(Number(v.toFixed(digits))) : "–");

/** A playhead time as the clock shows it: `0.4` → "0.400 s". */
export const clockText = (time) => `${time.toFixed(3)} s`;

/**
 * `text` in at most `max` characters, cut in the middle (`android-sail…FlingDownFast1-1`): the
 * ends of a recording's name are what tell it apart from its neighbours, so neither is lost.
 */
export function middleEllipsis(text, max = 34) {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) * 0.4);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/**
 * What a slider says to a screen reader (`aria-valuetext`): its value in its unit ("0.04 s",
 * "0.5 progress"), never the slider's own position, which for a logarithmic slider is an
 * exponent (-1.4 for 0.04 s). A logarithmic slider's value has three significant digits, so
 * each step reads as a different number; any other, `digits` decimals, as its label shows.
 */
export function sliderValueText(value, unit, { log = false, digits = 3 } = {}) {
  if (!Number.isFinite(value)) return "–";
  const text = log ? String(Number(value.toPrecision(3))) : num(value, digits);
  return unit ? `${text} ${unit}` : text;
}
