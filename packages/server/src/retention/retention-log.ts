import type { RetentionHooks } from './retention-worker.js';

/** Log codes of retention (issue 33). */
export const RETENTION_REMOVED = 'RETENTION_REMOVED';
export const RETENTION_FAILED = 'RETENTION_FAILED';

interface Logger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** What retention tells the server's log (read when a pass ends: the log exists by then). */
export function retentionLogTo(log: () => Logger | null): Pick<RetentionHooks, 'removed' | 'error'> {
  return {
    removed: (removed) =>
      log()?.info({ code: RETENTION_REMOVED, removed }, 'retention: removed rows past their period'),
    error: (err) => log()?.error({ code: RETENTION_FAILED, err }, 'retention: a pass failed; tried again later'),
  };
}
