import { positive, rate, ServerOptionError } from '../option-checks.js';

/** What retention removes, each kind on its own clock column (see retention-sql.ts). */
export const RETENTION_KINDS = ['locations', 'quarantine', 'logs', 'events'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** startServer()'s retention options (issue 33). */
export interface RetentionServerOptions {
  /** Days locations are kept (and quarantine, logs and fleet events unless set apart); default 0: for ever. */
  retentionDays?: number;
  /** Days quarantined records are kept; default retentionDays. */
  quarantineRetentionDays?: number;
  /** Days uploaded SDK logs are kept; default retentionDays. */
  logRetentionDays?: number;
  /** Days fleet events (the timeline's history) are kept; default retentionDays. */
  eventRetentionDays?: number;
  /** Rows one retention statement deletes at most; default 1000. */
  retentionBatchSize?: number;
  /** Pause between two retention passes once nothing more is due; default 60,000 ms. */
  retentionIntervalMs?: number;
}

export interface RetentionOptions {
  /** Days per kind; null keeps that kind for ever (an organization's own period still applies). */
  days: Record<RetentionKind, number | null>;
  batchSize: number;
  intervalMs: number;
}

export const RETENTION_DEFAULTS = { retentionDays: 0, retentionBatchSize: 1000, retentionIntervalMs: 60_000 } as const;

const DAY_MS = 24 * 3600 * 1000;
export const daysToMs = (days: number): number => days * DAY_MS;

/** The longest period that can be said: beyond it, a cutoff would fall before the epoch's range. */
const MAX_DAYS = 100 * 366;

export function retentionDaysOf(name: string, value: number | undefined, fallback: number): number {
  const days = rate(name, value, fallback);
  if (days > MAX_DAYS) throw new ServerOptionError(name, `must be at most ${MAX_DAYS} days, got ${days}`);
  return days;
}

export function retentionOf(options: RetentionServerOptions): RetentionOptions {
  const all = retentionDaysOf('retentionDays', options.retentionDays, RETENTION_DEFAULTS.retentionDays);
  const kind = (name: string, value: number | undefined) => retentionDaysOf(name, value, all) || null;
  return {
    days: {
      locations: all || null,
      quarantine: kind('quarantineRetentionDays', options.quarantineRetentionDays),
      logs: kind('logRetentionDays', options.logRetentionDays),
      events: kind('eventRetentionDays', options.eventRetentionDays),
    },
    batchSize: positive('retentionBatchSize', options.retentionBatchSize, RETENTION_DEFAULTS.retentionBatchSize),
    intervalMs: positive('retentionIntervalMs', options.retentionIntervalMs, RETENTION_DEFAULTS.retentionIntervalMs),
  };
}
