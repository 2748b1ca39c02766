import type { Cause } from './decide-state.js';

/** Statuses that refuse the credentials (407: a proxy's). */
const AUTH_STATUSES = new Set([401, 403, 407]);
/** Statuses whose Retry-After asks the device to wait (RFC 9110 names 503; RFC 6585 adds 429). */
const THROTTLING = new Set([429, 503]);
/**
 * 4xx statuses about the request as a whole (URL, method, time, size, the body's coding), never
 * about its records: the SDK resends such a request as it is (its failure class `client`).
 */
const WHOLE_REQUEST = new Set([404, 405, 406, 408, 410, 413, 415]);

/**
 * The cause of a device's refusal as the server answered it (pure): the status and whether the
 * answer carried a Retry-After. The same classes the SDK reports for the answers it gets (its
 * `fail=`), so what the server saw and what the device says on its return agree.
 */
export function refusalCause(status: number, retryAfter: boolean): Cause {
  if (AUTH_STATUSES.has(status)) return 'auth-refused';
  if (THROTTLING.has(status) && retryAfter) return 'retry-after';
  if (status >= 500 || status === 429) return 'server-errors';
  if (WHOLE_REQUEST.has(status)) return 'client-errors';
  return 'records-refused';
}
