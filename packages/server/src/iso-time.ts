/** Largest |epoch ms| a Date can hold; beyond it toISOString throws. */
const MAX_DATE_MS = 8.64e15;

/**
 * ISO-8601 text of stored epoch ms, or null when the value is not a date. Rows written before the
 * input rules existed (or by hand) may hold anything: reading them must never fail a request.
 */
export function isoOrNull(ms: number | null | undefined): string | null {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return null;
  return new Date(ms).toISOString();
}
