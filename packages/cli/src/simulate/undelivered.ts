import { formatDuration } from '../args.js';
import { unansweredFailure } from '../upload-failure.js';

/** What the end of a run knows about why records are still queued. */
export interface UndeliveredFacts {
  left: number;
  drainTimeoutMs: number;
  /** The service answered 429 this many times. */
  throttled: number;
  /** The longest Retry-After the fleet did not wait for (over --drain-timeout); null when none. */
  tooLongMs: number | null;
  /** A device's drain stopped waiting for a request that was never answered. */
  unanswered: boolean;
  /** The last failed upload of any device, as describeUploadFailure says it. */
  lastFailure: string | null;
  http: { url: string | null; timeout: number };
}

/**
 * Pure: the lines that say why records are left undelivered and what to change, or [] when none
 * are. Records still queued are safe on the devices, but the run did not do what it was asked.
 */
export function explainUndelivered(facts: UndeliveredFacts): string[] {
  if (facts.left === 0) return [];
  const lines = [
    `${facts.left} records still queued after ${formatDuration(facts.drainTimeoutMs)} of draining: not delivered`,
  ];
  if (facts.unanswered) {
    lines.push(
      `last failure: ${unansweredFailure(facts.http, `${formatDuration(facts.drainTimeoutMs)} (--drain-timeout)`)}`,
    );
  } else if (facts.lastFailure) {
    lines.push(`last failed upload: ${facts.lastFailure}`);
  }
  if (facts.tooLongMs !== null) {
    lines.push(
      `the service asked to wait ${formatDuration(facts.tooLongMs)} (Retry-After), longer than --drain-timeout: ` +
        'raise --drain-timeout to wait for it',
    );
  } else if (facts.throttled > 0) {
    lines.push(
      `the service answered 429 (rate limited) ${facts.throttled} times: upload less often (--batch, --threshold N), ` +
        "run slower (--speedup), give the drain more time (--drain-timeout), or raise the service's --rate-limit",
    );
  } else if (!facts.unanswered) {
    lines.push('give the service more time with --drain-timeout, or check the failure above');
  }
  return lines;
}
