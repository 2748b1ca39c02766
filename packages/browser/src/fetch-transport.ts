import { readBoundedText, WaypostError, type HttpRequest, type HttpResponse, type Transport } from '@waypost/sdk';

/** Browsers refuse keepalive requests whose bodies together exceed 64 KiB. */
export const KEEPALIVE_MAX_BYTES = 64 * 1024;

const byteLength = (body: string | Uint8Array) =>
  typeof body === 'string' ? new TextEncoder().encode(body).byteLength : body.byteLength;

/** While the page is hidden it may be unloaded at any moment: keepalive lets a small request finish. */
function pageHidden(): boolean {
  const doc = (globalThis as { document?: { visibilityState?: string } }).document;
  return doc?.visibilityState === 'hidden';
}

/**
 * The HTTP port over the browser's fetch. The timeout covers the whole exchange and aborts the
 * request (reported as TIMEOUT); a request sent while the page is hidden uses keepalive when its
 * body fits the browser's keepalive quota, so the upload survives the page being closed.
 */
export function createFetchTransport(options: { isHidden?: () => boolean } = {}): Transport {
  const isHidden = options.isHidden ?? pageHidden;
  return {
    async send(request: HttpRequest): Promise<HttpResponse> {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), request.timeoutMs);
      const keepalive = isHidden() && byteLength(request.body) <= KEEPALIVE_MAX_BYTES;
      try {
        const response = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body as BodyInit,
          signal: controller.signal,
          keepalive,
          // Never let credentials of the page's origin ride along; authorization is in the headers.
          credentials: 'omit',
          // A followed redirect turns the POST into a GET whose 2xx would delete undelivered records.
          redirect: 'manual',
        });
        // redirect: 'manual' gives an opaque response of status 0 for any 3xx.
        if (response.type === 'opaqueredirect') return { status: 302, text: '' };
        const headers: Record<string, string> = {};
        // Only what the core reads (a 429/503's Retry-After), bounded.
        const retryAfter = response.headers.get('retry-after');
        if (retryAfter !== null) headers['retry-after'] = retryAfter.slice(0, 64);
        return { status: response.status, text: await readBoundedText(response), headers };
      } catch (error) {
        const host = new URL(request.url).host;
        if (controller.signal.aborted) {
          throw new WaypostError(
            'TIMEOUT',
            `No complete response from ${host} within ${request.timeoutMs} ms (http.timeout)`,
          );
        }
        throw new WaypostError('NETWORK', `Request to ${host} failed: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
