import type { UploadOutcome } from './outcome.js';

/**
 * Refused answers one flush may spend isolating refused records: finding one record in a batch of
 * n takes about log2(n) of them (7 for 100, 10 for 1000).
 */
export const MAX_REFUSALS_PER_FLUSH = 24;

/** Automatic uploads are never deferred longer than this, whatever a server asks. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/**
 * What the uploader does once a request's outcome is known, in order. The uploader only executes
 * these; every decision is here, in one pure function tested with a table.
 */
export type AfterOutcomeAction =
  /** The server has the records: delete exactly them. */
  | { type: 'delete' }
  /** The records stay queued for a later attempt. */
  | { type: 'unlock' }
  /** Refresh the authorization and send the same batch again (attempt + 1); on a failed refresh, ask again. */
  | { type: 'refreshAndResend' }
  /** Later batches of this flush carry at most `size` records. */
  | { type: 'limitBatch'; size: number }
  /** No automatic upload before `until` (epoch ms); sync() ignores it. */
  | { type: 'deferAutomatic'; until: number }
  /** Send the batch again as two halves, in order, each locked still (a refused batch, issue 19). */
  | { type: 'bisect' }
  /** Keep the one refused record locked, out of this flush, until it ends; retried alone later. */
  | { type: 'hold' }
  /** Go on with the next batch. */
  | { type: 'continue' }
  /** Stop this flush: a failing server is not hammered with the rest of the queue. */
  | { type: 'endFlush' };

/**
 * Reads a Retry-After value, seconds or an HTTP date (RFC 9110 10.2.3), as an epoch-ms instant
 * capped at MAX_RETRY_AFTER_MS from now; null when it is unreadable or already past.
 */
export function retryAfterUntil(value: string, now: number): number | null {
  const text = value.trim();
  let until: number;
  if (/^\d+$/.test(text)) until = now + Number(text) * 1000;
  else {
    // An HTTP date names its day (Sun, 06 Nov 1994 08:49:37 GMT); Date.parse reads all three formats.
    if (!/^[A-Za-z]{3}/.test(text)) return null;
    until = Date.parse(text);
  }
  if (!Number.isFinite(until) || until <= now) return null;
  return Math.min(until, now + MAX_RETRY_AFTER_MS);
}

/**
 * The decision after one request: `batchSize` is how many records it carried, `attempt` how many
 * times this batch was sent before (0 for the first send), `now` the clock's time, `refusalsLeft`
 * how many more refusals this flush may spend isolating records.
 */
export function decideAfterOutcome(
  outcome: UploadOutcome,
  batchSize: number,
  attempt: number,
  now: number,
  refusalsLeft = MAX_REFUSALS_PER_FLUSH,
): AfterOutcomeAction[] {
  switch (outcome.kind) {
    case 'delivered':
      return [{ type: 'delete' }, { type: 'continue' }];
    case 'unauthorized':
      // One refresh per batch: a server that keeps saying 401 is a failure like any other.
      return attempt === 0 ? [{ type: 'refreshAndResend' }] : [{ type: 'unlock' }, { type: 'endFlush' }];
    case 'tooLarge':
      // Halve down to one record; a single record refused as too large stays queued (spec 7.1).
      return batchSize > 1
        ? [{ type: 'unlock' }, { type: 'limitBatch', size: Math.floor(batchSize / 2) }, { type: 'continue' }]
        : [{ type: 'unlock' }, { type: 'endFlush' }];
    case 'refused':
      // A server that refuses everything is not asked 2n-1 times: past the flush's budget a
      // refusal ends the flush like any failure.
      if (refusalsLeft <= 0) return [{ type: 'unlock' }, { type: 'endFlush' }];
      return batchSize > 1 ? [{ type: 'bisect' }] : [{ type: 'hold' }, { type: 'continue' }];
    case 'retry': {
      const until = outcome.retryAfter === undefined ? null : retryAfterUntil(outcome.retryAfter, now);
      return until === null
        ? [{ type: 'unlock' }, { type: 'endFlush' }]
        : [{ type: 'unlock' }, { type: 'deferAutomatic', until }, { type: 'endFlush' }];
    }
  }
}
