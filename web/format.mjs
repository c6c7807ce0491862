// Text for numbers and times, shared by the views. Pure.

/** Formats a number with `digits` decimals, trimming trailing zeros; "–" when it is not a number. */
export const num = (v, digits = 2) => (Number.isFinite(v) ? String(Number(v.toFixed(digits))) : "–");

/** A playhead time as the clock shows it: `0.4` → "0.400 s". */
export const clockText = (time) => `${time.toFixed(3)} s`;
