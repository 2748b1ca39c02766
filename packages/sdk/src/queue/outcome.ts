import type { HttpResponse } from '../ports/transport.js';

/**
 * The one place that says what an upload's result means (spec 4.1, 7.1-7.2). Only 2xx delivers;
 * everything else keeps the records. A 401 is worth an authorization refresh first, a 413 a
 * smaller batch; a 429 or 503 may say when to come back (Retry-After).
 */
export type UploadOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'unauthorized'; status: 401 }
  | { kind: 'tooLarge'; status: 413 }
  | { kind: 'retry'; status: number; reason: 'status' | 'timeout' | 'network'; retryAfter?: string };

/** The statuses whose Retry-After is honoured (RFC 9110 10.2.3 names 503; RFC 6585 adds 429). */
const THROTTLING = new Set([429, 503]);

export function classifyResponse(response: HttpResponse): UploadOutcome {
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 401) return { kind: 'unauthorized', status: 401 };
  if (status === 413) return { kind: 'tooLarge', status: 413 };
  const retryAfter = THROTTLING.has(status) ? response.headers?.['retry-after'] : undefined;
  return retryAfter === undefined
    ? { kind: 'retry', status, reason: 'status' }
    : { kind: 'retry', status, reason: 'status', retryAfter };
}

export function classifyFailure(code: 'TIMEOUT' | 'NETWORK'): UploadOutcome {
  return { kind: 'retry', status: 0, reason: code === 'TIMEOUT' ? 'timeout' : 'network' };
}
