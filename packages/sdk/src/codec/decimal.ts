/**
 * Decimal numbers as scaled integers, exactly: `45.5017123` at scale 7 is 455017123. A number is
 * written this way only when its JSON text is the plain decimal of the integer (no exponent, at
 * most 15 significant digits, so that second differences stay below 2^53); any other number is
 * kept as its JSON text by the column.
 */

export const MAX_DIGITS = 15;
export const MAX_SCALE = 15;
const MAX_SCALED = 10 ** MAX_DIGITS - 1;

/**
 * The integer k with value = k / 10^scale (`power`), or null. Why this is exact: k / power is
 * correctly rounded, so when it equals `value` the decimal k·10^-scale rounds to value; with at
 * most 15 significant digits no other decimal as short does (doubles keep 15.95 digits), so it is
 * the shortest that round-trips: JSON.stringify's digits. Below 1e-6 JSON.stringify writes an
 * exponent, so those stay verbatim.
 */
export function scaledFast(value: number, power: number): number | null {
  const k = Math.round(value * power);
  if (k / power !== value || Math.abs(k) > MAX_SCALED) return null;
  if (value !== 0 && Math.abs(value) < 1e-6) return null;
  return k === 0 ? 0 : k;
}

/** The JSON text of `value / 10^scale`, as JavaScript's JSON.stringify writes plain decimals. */
export function fromScaled(value: number, scale: number): string {
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value));
  if (scale === 0) return sign + digits;
  const padded = digits.padStart(scale + 1, '0');
  const fraction = padded.slice(-scale).replace(/0+$/, '');
  return sign + padded.slice(0, -scale) + (fraction ? `.${fraction}` : '');
}
