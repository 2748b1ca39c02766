import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import type { EventHead, Transport } from '../transport.js';
import { natsServers, natsSubject } from './broker-names.js';

export const NATS_STREAM = 'WAYPOST';

/**
 * The stream events go to, created when missing (subjects waypost.>): on a clustered NATS with
 * three replicas, so that a node going down loses no acknowledged event and stops no publishing
 * (docs/deploy/); where the cluster cannot place three (a single server), one.
 */
async function ensureStream(nc: NatsConnection): Promise<void> {
  const jsm = await nc.jetstreamManager();
  try {
    await jsm.streams.info(NATS_STREAM);
  } catch {
    const config = { name: NATS_STREAM, subjects: ['waypost.>'] };
    if (nc.info?.cluster) {
      try {
        await jsm.streams.add({ ...config, num_replicas: 3 });
        return;
      } catch {
        // fewer than three JetStream nodes: one replica below
      }
    }
    await jsm.streams.add(config);
  }
}

/**
 * Publishes each event to JetStream, subject `waypost.<device>.<type>` in stream WAYPOST, with
 * Nats-Msg-Id set to the event id: JetStream's own deduplication then drops a redelivery within
 * its window. Delivered once the stream acknowledged it.
 */
export function natsTransport(url: string): Transport {
  let ready: Promise<{ nc: NatsConnection; js: JetStreamClient }> | null = null;
  const open = async () => {
    const nc = await connect({
      servers: natsServers(url),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      timeout: 5000,
    });
    try {
      await ensureStream(nc);
    } catch (error) {
      await nc.close();
      throw error;
    }
    return { nc, js: nc.jetstream() };
  };
  return {
    async send(event: EventHead, body: string): Promise<void> {
      ready ??= open();
      let js: JetStreamClient;
      try {
        ({ js } = await ready);
      } catch (error) {
        ready = null; // try connecting again on the next attempt
        throw error;
      }
      await js.publish(natsSubject(event.device, event.type), body, { msgID: event.id, timeout: 10_000 });
    },
    async close() {
      const current = ready;
      ready = null;
      if (current) await (await current.catch(() => null))?.nc.close();
    },
  };
}
