import { connect, type NatsConnection } from 'nats';
import type { LiveRelay } from './live-relay.js';
import type { LiveFeed } from './live-feed.js';
import { createCoalescer } from './coalescer.js';
import { natsServers } from '../fleet/sinks/broker-names.js';
import { emitPayload, FLUSH_EVERY_MS, packPayloads } from './postgres-feed.js';

/** A message carries at most this much JSON (NATS allows 1 MB by default). */
const MAX_MESSAGE_CHARS = 256 * 1024;

/** The log code of the line saying this process's NATS live-feed subscription is in place. */
export const LIVE_FEED_SUBSCRIBED = 'LIVE_FEED_SUBSCRIBED';

/** One subject per schema: servers on other schemas of the same database are other deployments. */
export const liveSubjectOf = (schema: string): string => `waypost_live.${schema}`;

/**
 * The scale-out live feed over core NATS, when the service is given a NATS server (natsUrl): every
 * process publishes the positions it stores on the deployment's subject and subscribes to it, so
 * each process's dashboards see every process's positions (its own come back through NATS, so they
 * are never shown twice), without LISTEN/NOTIFY load on PostgreSQL. Coalesced as that feed is (one
 * message per FLUSH_EVERY_MS). What NATS loses (a node stopped, this process cut off) the relay
 * tells late from the database (live-relay.ts).
 * Connecting never holds up the start: the client keeps trying in the background, and says when
 * the subscription is in place (`onSubscribed`, logged by the app), from when this process's
 * dashboards see other processes' positions.
 */
export function createNatsFeed(
  url: string,
  subject: string,
  relay: LiveRelay,
  onSubscribed: () => void = () => undefined,
): LiveFeed {
  let closed = false;
  let nc: NatsConnection | null = null;
  const connecting = connect({
    servers: natsServers(url),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    waitOnFirstConnect: true,
  })
    .then(async (connection) => {
      if (closed) {
        await connection.close();
        return;
      }
      nc = connection;
      const subscription = connection.subscribe(subject);
      // A round trip: the NATS server has the subscription once the flush is answered.
      void connection.flush().then(onSubscribed, () => undefined);
      for await (const message of subscription) emitPayload(relay.accept, message.string());
    })
    .catch(() => undefined);

  relay.start();
  const outgoing = createCoalescer((batch) => {
    if (!nc || nc.isClosed()) return;
    for (const payload of packPayloads(batch, MAX_MESSAGE_CHARS)) nc.publish(subject, payload);
  }, FLUSH_EVERY_MS);
  return {
    publish(list) {
      if (closed || list.length === 0) return;
      outgoing.push(list);
    },
    async close() {
      closed = true;
      relay.stop();
      await outgoing.drain();
      const connection = nc;
      nc = null;
      if (!connection) return; // still connecting: it closes itself once it connects
      await connection.drain().catch(() => undefined);
      await connecting; // the subscription's loop ends with the drain
    },
  };
}
