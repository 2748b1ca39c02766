/**
 * Decimal numbers as scaled integers, exactly: `45.5017123` at scale 7 is 455017123. A number is
 * encoded this way only when the text rebuilt from the integer is its JSON text character for
 * character (no exponent, at most 15 significant digits so that second differences stay below
 * 2^53); anything else is kept verbatim by the column.
 */

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;
export const MAX_DIGITS = 15;
export const MAX_SCALE = 15;

/** Digits after the point in a plain decimal JSON number text, or -1 when it is not plain. */
export function fractionDigits(text: string): number {
  const match = PLAIN.exec(text);
  return match ? (match[3]?.length ?? 0) : -1;
}

/** The integer whose text at `scale` is `text`, or null when there is none. */
export function toScaled(text: string, scale: number): number | null {
  const match = PLAIN.exec(text);
  if (!match) return null;
  const fraction = match[3] ?? '';
  if (fraction.length > scale) return null;
  const digits = (match[2]! + fraction.padEnd(scale, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_DIGITS) return null;
  const value = match[1] === '-' ? -Number(digits) : Number(digits);
  return fromScaled(value, scale) === text ? value : null;
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
