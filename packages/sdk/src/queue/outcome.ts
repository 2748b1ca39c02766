import type { HttpResponse } from '../ports/transport.js';

/**
 * The one place that says what an upload's result means (spec 4.1, 7.1-7.2). Only 2xx delivers;
 * everything else keeps the records. A 401 is worth an authorization refresh first, a 413 a
 * smaller batch; a 429 or 503 may say when to come back (Retry-After). A 4xx that is about the
 * records rather than the request as a whole (a 400 or 422 for a record the server will not take)
 * is `refused`: the batch is split to find the record (issue 19), still without deleting anything.
 */
export type UploadOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'unauthorized'; status: 401 }
  | { kind: 'tooLarge'; status: 413 }
  | { kind: 'refused'; status: number }
  | { kind: 'retry'; status: number; reason: 'status' | 'timeout' | 'network'; retryAfter?: string };

/** The statuses whose Retry-After is honoured (RFC 9110 10.2.3 names 503; RFC 6585 adds 429). */
const THROTTLING = new Set([429, 503]);

/**
 * 4xx statuses about the request as a whole, never about one record: credentials (401, 403, 407;
 * 406, the anchor demo server's answer to a dummy token), the URL or method (404, 405, 410), time
 * (408), size (413), the body's coding (415), throttling (429).
 */
const WHOLE_REQUEST = new Set([401, 403, 404, 405, 406, 407, 408, 410, 413, 415, 429]);

/** Whether a status may be a server refusing some of a batch's records (so splitting it can help). */
export const refusesRecords = (status: number): boolean => status >= 400 && status < 500 && !WHOLE_REQUEST.has(status);

export function classifyResponse(response: HttpResponse): UploadOutcome {
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 401) return { kind: 'unauthorized', status: 401 };
  if (status === 413) return { kind: 'tooLarge', status: 413 };
  if (refusesRecords(status)) return { kind: 'refused', status };
  const retryAfter = THROTTLING.has(status) ? response.headers?.['retry-after'] : undefined;
  return retryAfter === undefined
    ? { kind: 'retry', status, reason: 'status' }
    : { kind: 'retry', status, reason: 'status', retryAfter };
}

export function classifyFailure(code: 'TIMEOUT' | 'NETWORK'): UploadOutcome {
  return { kind: 'retry', status: 0, reason: code === 'TIMEOUT' ? 'timeout' : 'network' };
}
