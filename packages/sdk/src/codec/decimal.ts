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

const ZEROS = Array.from({ length: MAX_SCALE + 1 }, (_, i) => '0'.repeat(i));
const POWERS = Array.from({ length: MAX_SCALE + 1 }, (_, i) => 10 ** i);

/**
 * The JSON text of `value / 10^scale` (|value| at most 10^15 - 1), as JavaScript's JSON.stringify
 * writes it when it is 1e-6 or more, or 0 (scaledFast explains why), from integers only: the
 * integer part, then the fraction's digits without trailing zeros. Printing integers is several
 * times cheaper than printing the quotient as a double, on every number of every upload.
 */
export function fromScaled(value: number, scale: number): string {
  if (scale === 0) return String(value);
  const power = POWERS[scale]!;
  const magnitude = value < 0 ? -value : value;
  let fraction = magnitude % power;
  const whole = (magnitude - fraction) / power;
  const sign = value < 0 ? '-' : '';
  if (fraction === 0) return `${sign}${whole}`;
  let digits = scale;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  const text = String(fraction);
  return `${sign}${whole}.${ZEROS[digits - text.length]!}${text}`;
}
