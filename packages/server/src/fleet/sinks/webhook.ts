import { Pool } from 'undici';
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
/** The answer's body is not read: at most this much of it is drained before its connection is let go. */
const DRAIN_LIMIT_BYTES = 16 * 1024;

/**
 * Posts each event to a URL, one request per event, signed per Standard Webhooks (webhook-id is
 * the event id, so a redelivery carries the same one). A 2xx answer delivers it; anything else, a
 * redirect included, and any network error is a failed attempt. undici's Pool with keep-alive,
 * not node:http nor fetch: a request costs the server about half the CPU of node:http's (40 us
 * against 75 us warm; docs/benchmarks-history.md, session 27), which ingest shares. With a
 * guard (a confined sink), every connection's host is resolved through it. A user and password in
 * the URL are sent as Basic authorization, as node:http did with them.
 */
export function webhookTransport(url: string, secret: string, now: () => number, guard: SinkGuard | null): Transport {
  const target = new URL(url);
  const path = `${target.pathname}${target.search}`;
  const authorization =
    target.username || target.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`
      : null;
  const pool = new Pool(target.origin, {
    connections: MAX_SOCKETS,
    ...(guard ? { connect: { lookup: guard.lookup } } : {}),
  });
  return {
    async send(event: EventHead, body: string, deadlineMs = TIMEOUT_MS): Promise<void> {
      const timestamp = Math.floor(now() / 1000);
      const timeoutMs = Math.min(TIMEOUT_MS, deadlineMs);
      const abandon = new AbortController();
      const deadline = setTimeout(() => abandon.abort(new Error(`no answer in ${timeoutMs / 1000} s`)), timeoutMs);
      try {
        const response = await pool.request({
          path,
          method: 'POST',
          signal: abandon.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'waypost-webhooks',
            'webhook-id': event.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook(secret, event.id, timestamp, body),
            ...(authorization ? { authorization } : {}),
          },
          body,
        });
        // The status decides: a receiver that took the event and is slow with the rest of its
        // answer has taken it.
        response.body.dump({ limit: DRAIN_LIMIT_BYTES }).catch(() => undefined);
        if (response.statusCode < 200 || response.statusCode > 299)
          throw new NotDelivered(`HTTP ${response.statusCode}`);
      } catch (error) {
        if (error instanceof NotDelivered) throw error;
        throw neverSent(error) ? new NotDelivered((error as Error).message) : error;
      } finally {
        clearTimeout(deadline);
      }
    },
    async close() {
      await pool.destroy();
    },
  };
}
