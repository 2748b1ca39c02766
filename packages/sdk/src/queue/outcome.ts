import type { HttpResponse } from '../ports/transport.js';

/**
 * The one place that says what an upload's result means (spec 4.1, 7.1-7.2). Only 2xx delivers;
 * everything else keeps the records. A 401 is worth an authorization refresh first.
 */
export type UploadOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'unauthorized'; status: 401 }
  | { kind: 'retry'; status: number; reason: 'status' | 'timeout' | 'network' };

export function classifyResponse(response: HttpResponse): UploadOutcome {
  if (response.status >= 200 && response.status < 300) return { kind: 'delivered', status: response.status };
  if (response.status === 401) return { kind: 'unauthorized', status: 401 };
  return { kind: 'retry', status: response.status, reason: 'status' };
}

export function classifyFailure(code: 'TIMEOUT' | 'NETWORK'): UploadOutcome {
  return { kind: 'retry', status: 0, reason: code === 'TIMEOUT' ? 'timeout' : 'network' };
}
