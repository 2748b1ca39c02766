import { daysToMs, type RetentionKind, type RetentionOptions } from './retention-options.js';

/**
 * The time before which a device's rows of one kind are removed, or null when they are kept for
 * ever. An organization's own period (days; 0 = for ever) replaces the server's for its devices,
 * for every kind: a customer's contract names one period for all it sends.
 */
export function cutoffOf(
  kind: RetentionKind,
  orgDays: number | null,
  options: Pick<RetentionOptions, 'days'>,
  now: number,
): number | null {
  const days = orgDays !== null ? orgDays || null : options.days[kind];
  return days === null ? null : now - daysToMs(days);
}
