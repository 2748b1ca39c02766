import type { FleetEvent } from '../fleet-event.js';
import type { Transport } from '../transport.js';
import { signWebhook } from './webhook-signature.js';

/** A receiver that takes longer than this to answer has failed the attempt (it is retried). */
const TIMEOUT_MS = 10_000;

/**
 * Posts each event to a URL, one request per event, signed per Standard Webhooks (webhook-id is
 * the event id, so a redelivery carries the same one). A 2xx answer delivers it; anything else, a
 * redirect included, and any network error is a failed attempt.
 */
export function webhookTransport(url: string, secret: string, now: () => number): Transport {
  return {
    async send(event: FleetEvent, body: string): Promise<void> {
      const timestamp = Math.floor(now() / 1000);
      const response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'waypost-webhooks',
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, event.id, timestamp, body),
        },
        body,
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status > 299) throw new Error(`HTTP ${response.status}`);
    },
    async close() {},
  };
}
