import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import type { EventHead, Transport } from '../transport.js';
import { natsSubject } from './broker-names.js';
import { NATS_PUBLISH_TIMEOUT_MS, type BrokerNames } from './broker-options.js';

type NatsNames = Pick<BrokerNames, 'natsStream' | 'natsSubjectPrefix' | 'natsDuplicateWindowMs'>;

const nanos = (ms: number): number => ms * 1_000_000;

/**
 * The stream events go to, created when missing (subjects `<prefix>.>`), its duplicate window
 * widened when an existing stream (made by an older Waypost, or by hand) has a shorter one.
 */
async function ensureStream(nc: NatsConnection, names: NatsNames): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const window = nanos(names.natsDuplicateWindowMs);
  let info;
  try {
    info = await jsm.streams.info(names.natsStream);
  } catch {
    await jsm.streams.add({
      name: names.natsStream,
      subjects: [`${names.natsSubjectPrefix}.>`],
      duplicate_window: window,
    });
    return;
  }
  if ((info.config.duplicate_window ?? 0) < window) {
    await jsm.streams.update(names.natsStream, { ...info.config, duplicate_window: window });
  }
}

/**
 * Publishes each event to JetStream, subject `<prefix>.<device>.<type>` in its stream (default
 * `waypost.<device>.<type>` in WAYPOST), with
 * Nats-Msg-Id set to the event id: JetStream's own deduplication then drops a redelivery within
 * its window. Delivered once the stream acknowledged it.
 */
export function natsTransport(url: string, names: NatsNames): Transport {
  let ready: Promise<{ nc: NatsConnection; js: JetStreamClient }> | null = null;
  const open = async () => {
    const nc = await connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 1000, timeout: 5000 });
    try {
      await ensureStream(nc, names);
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
      await js.publish(natsSubject(names.natsSubjectPrefix, event.device, event.type), body, {
        msgID: event.id,
        timeout: NATS_PUBLISH_TIMEOUT_MS,
      });
    },
    async close() {
      const current = ready;
      ready = null;
      if (current) await (await current.catch(() => null))?.nc.close();
    },
  };
}
