/** What one delivery round did for one sink: said in the server's log, so a failing sink shows there. */
export interface RoundReport {
  sinkId: string;
  /** Events the sink took (they have left the outbox). */
  delivered: number;
  /** Events it did not take: retried later, or dead-lettered (`dead` of them). */
  failed: number;
  dead: number;
  /** The last failure's message (also the sink's `lastError`). */
  error: string | null;
}

/** Log codes of the delivery rounds. */
export const SINK_DELIVERED = 'SINK_DELIVERED';
export const SINK_DELIVERY_FAILED = 'SINK_DELIVERY_FAILED';
export const SINK_DEAD_LETTERED = 'SINK_DEAD_LETTERED';

interface RoundLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * One line per round and sink that did something: deliveries at info, failures and dead letters
 * as warnings with their codes (the sink's id, never its URL, which may carry a credential).
 */
export function logRound(log: RoundLog, report: RoundReport): void {
  const { sinkId: sink, delivered, failed, dead, error } = report;
  if (delivered > 0) log.info({ code: SINK_DELIVERED, sink, delivered }, `fleet events delivered to sink ${sink}`);
  if (failed > dead) {
    log.warn(
      { code: SINK_DELIVERY_FAILED, sink, failed: failed - dead, error },
      `fleet event delivery to sink ${sink} failed (${error}); retried with backoff`,
    );
  }
  if (dead > 0) {
    log.warn(
      { code: SINK_DEAD_LETTERED, sink, dead, error },
      `${dead} fleet event(s) for sink ${sink} dead-lettered (${error}); replay with POST /api/sinks/${sink}/replay`,
    );
  }
}
