import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import type { EventHead, Transport } from '../transport.js';
import { natsSubject } from './broker-names.js';

export const NATS_STREAM = 'WAYPOST';

/** The stream events go to, created when missing (subjects waypost.>). */
async function ensureStream(nc: NatsConnection): Promise<void> {
  const jsm = await nc.jetstreamManager();
  try {
    await jsm.streams.info(NATS_STREAM);
  } catch {
    await jsm.streams.add({ name: NATS_STREAM, subjects: ['waypost.>'] });
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
    const nc = await connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 1000, timeout: 5000 });
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
