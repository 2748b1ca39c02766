import { readBoundedText, WaypostError, type HttpRequest, type HttpResponse, type Transport } from '@waypost/sdk';

/**
 * The HTTP port over Node's fetch. The timeout covers the whole exchange (connect, headers and
 * body): the request is aborted when it passes, and the failure is reported as TIMEOUT.
 */
export function createFetchTransport(): Transport {
  return {
    async send(request: HttpRequest): Promise<HttpResponse> {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), request.timeoutMs);
      try {
        const response = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          // A view over a plain ArrayBuffer, which is what fetch accepts in both the Node and DOM typings.
          body: request.body as string | Uint8Array<ArrayBuffer>,
          signal: controller.signal,
          // A followed 301/302/303 turns the POST into a bodiless GET whose 2xx would delete records
          // the service never received: a redirect is reported as its own (non-2xx) status instead.
          redirect: 'manual',
        });
        const headers: Record<string, string> = {};
        // Only what the core reads: a hostile server's thousand headers are not copied around.
        const retryAfter = response.headers.get('retry-after');
        if (retryAfter !== null) headers['retry-after'] = retryAfter.slice(0, 64);
        return { status: response.status, text: await readBoundedText(response), headers };
      } catch (error) {
        if (controller.signal.aborted) {
          throw new WaypostError(
            'TIMEOUT',
            `No complete response from ${new URL(request.url).host} within ${request.timeoutMs} ms (http.timeout)`,
          );
        }
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new WaypostError(
          'NETWORK',
          `Request to ${new URL(request.url).host} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
        );
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
