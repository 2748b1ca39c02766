import http from 'node:http';
import https from 'node:https';
import { neverSent, NotDelivered, type EventHead, type Transport } from '../transport.js';
import type { SinkGuard } from './sink-guard.js';
import { signWebhook } from './webhook-signature.js';

/**
 * A receiver that takes longer than this to answer has failed the attempt (it is retried): the
 * whole request, not only a silence on its connection. Shorter when the delivery worker says so
 * (a quarter of the sink's lease).
 */
const TIMEOUT_MS = 10_000;
/** Connections kept open to one receiver (the delivery worker sends at most this many at once). */
const MAX_SOCKETS = 16;

/**
 * Posts each event to a URL, one request per event, signed per Standard Webhooks (webhook-id is
 * the event id, so a redelivery carries the same one). A 2xx answer delivers it; anything else, a
 * redirect included, and any network error is a failed attempt. node:http with keep-alive rather
 * than fetch: a request costs the server a fraction of the CPU, which ingest shares. With a guard
 * (a confined sink), every connection's host is resolved through it.
 */
export function webhookTransport(url: string, secret: string, now: () => number, guard: SinkGuard | null): Transport {
  const secure = url.startsWith('https:');
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS })
    : new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const send = secure ? https.request : http.request;
  return {
    send(event: EventHead, body: string, deadlineMs = TIMEOUT_MS): Promise<void> {
      const timestamp = Math.floor(now() / 1000);
      const timeoutMs = Math.min(TIMEOUT_MS, deadlineMs);
      return new Promise<void>((resolve, reject) => {
        const request = send(
          url,
          {
            method: 'POST',
            agent,
            ...(guard ? { lookup: guard.lookup } : {}),
            timeout: timeoutMs,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'user-agent': 'waypost-webhooks',
              'webhook-id': event.id,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': signWebhook(secret, event.id, timestamp, body),
            },
          },
          (response) => {
            // The status decides: a receiver that took the event and is slow with the rest of its
            // answer has taken it.
            const status = response.statusCode ?? 0;
            if (status >= 200 && status <= 299) resolve();
            else reject(new NotDelivered(`HTTP ${status}`));
            response.on('error', () => undefined);
            response.resume(); // the answer's body is not read, only drained
          },
        );
        const abandon = () => request.destroy(new Error(`no answer in ${timeoutMs / 1000} s`));
        request.on('timeout', abandon);
        const deadline = setTimeout(abandon, timeoutMs);
        request.on('close', () => clearTimeout(deadline));
        request.on('error', (error) => reject(neverSent(error) ? new NotDelivered(error.message) : error));
        request.end(body);
      });
    },
    async close() {
      agent.destroy();
    },
  };
}
