import { WaypostError } from '../errors.js';
import { MAX_RECEIPT_CHARS, RECEIPT_HEADER, RECEIPT_KEY_HEADER, RECEIPTS_OFFERED_HEADER } from '../receipts/receipt.js';
import type { Clock } from '../ports/clock.js';
import type { HttpRequest, HttpResponse, Transport } from '../ports/transport.js';
import { LEDGER_EPOCHS_HEADER, LEDGER_HEADER } from '../ledger/dropped-header.js';
import { HEALTH_ACCEPTED_HEADER } from '../health/health-header.js';
import { readBoundedText } from './read-bounded.js';

export interface FetchTransportOptions {
  /** The platform's fetch; default globalThis.fetch (Node's undici, the browser's). */
  fetch?: typeof fetch;
  /** What a platform adds to one request (the browser: keepalive while hidden, no credentials). */
  requestInit?: (request: HttpRequest) => RequestInit;
  /**
   * Runs the http.timeout timer; default the platform's timers. Tests give the engine's manual
   * clock, so that a request nobody answers times out when the test advances time, not by waiting.
   */
  timers?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
}

const platformTimers: Pick<Clock, 'setTimeout' | 'clearTimeout'> = {
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Headers the core reads, bounded: a hostile server's thousand headers are not copied around. */
export const READ_HEADERS = [
  'retry-after',
  'accept-encoding',
  LEDGER_HEADER,
  LEDGER_EPOCHS_HEADER,
  HEALTH_ACCEPTED_HEADER,
  RECEIPTS_OFFERED_HEADER,
  RECEIPT_HEADER,
  RECEIPT_KEY_HEADER,
] as const;
/**
 * What is kept of each header read: bounded (a hostile server's header is not kept whole), and
 * long enough for Waypost's Accept-Encoding with every columnar token (79 characters since version 3;
 * an SDK that keeps 64 still sees up to x-waypost-columnar-2 in it).
 */
const MAX_HEADER_CHARS = 160;
/** A receipt (and its key) is longer than the other headers read; beyond this it is refused whole. */
const LONG_HEADERS: Readonly<Record<string, number>> = {
  [RECEIPT_HEADER]: MAX_RECEIPT_CHARS + 1,
  [RECEIPT_KEY_HEADER]: 513,
};

/**
 * The HTTP port over fetch, one for every platform. The timeout covers the whole exchange
 * (connect, headers and body) and aborts the request, reported as TIMEOUT; any other failure
 * without a response is NETWORK, with the platform's reason (ECONNREFUSED, ...). Redirects are
 * never followed: a followed 301/302/303 turns the POST into a bodiless GET whose 2xx would delete
 * records the service never received, so a redirect is reported as its own (non-2xx) status.
 */
export function createFetchTransport(options: FetchTransportOptions = {}): Transport {
  return {
    async send(request: HttpRequest): Promise<HttpResponse> {
      const doFetch = options.fetch ?? globalThis.fetch;
      const timers = options.timers ?? platformTimers;
      const controller = new AbortController();
      const timer = timers.setTimeout(() => controller.abort(), request.timeoutMs);
      try {
        const response = await doFetch(request.url, {
          method: request.method,
          headers: request.headers,
          // A view over a plain ArrayBuffer, which is what fetch accepts in every typing.
          body: request.body as string | Uint8Array<ArrayBuffer>,
          signal: controller.signal,
          redirect: 'manual',
          ...options.requestInit?.(request),
        });
        // In a browser, redirect: 'manual' gives an opaque response of status 0 for any 3xx.
        if (response.type === 'opaqueredirect') return { status: 302, text: '' };
        const headers: Record<string, string> = {};
        for (const name of READ_HEADERS) {
          const value = response.headers.get(name);
          if (value !== null) headers[name] = value.slice(0, LONG_HEADERS[name] ?? MAX_HEADER_CHARS);
        }
        return { status: response.status, text: await readBoundedText(response), headers };
      } catch (error) {
        const host = new URL(request.url).host;
        if (controller.signal.aborted) {
          throw new WaypostError(
            'TIMEOUT',
            `No complete response from ${host} within ${request.timeoutMs} ms (http.timeout)`,
          );
        }
        // Node's fetch says why in `cause` (ECONNREFUSED, bad port); a browser only says "Failed to fetch".
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new WaypostError(
          'NETWORK',
          `Request to ${host} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
        );
      } finally {
        timers.clearTimeout(timer);
      }
    },
  };
}
