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
