import { connect, type JetStreamClient, type NatsConnection } from 'nats';
import type { EventHead, Transport } from '../transport.js';
import { natsServers, natsSubject } from './broker-names.js';
import { NATS_PUBLISH_TIMEOUT_MS, type BrokerNames } from './broker-options.js';

type NatsNames = Pick<BrokerNames, 'natsStream' | 'natsSubjectPrefix' | 'natsDuplicateWindowMs'>;

const nanos = (ms: number): number => ms * 1_000_000;

/**
 * The stream events go to, created when missing (subjects `<prefix>.>`), its duplicate window
 * widened when an existing stream (made by an older Waypost, or by hand) has a shorter one. On a
 * clustered NATS it has three replicas, so that a node going down loses no acknowledged event and
 * stops no publishing (docs/deploy/); where the cluster cannot place three (a single server), one.
 */
async function ensureStream(nc: NatsConnection, names: NatsNames): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const window = nanos(names.natsDuplicateWindowMs);
  let info;
  try {
    info = await jsm.streams.info(names.natsStream);
  } catch {
    const config = { name: names.natsStream, subjects: [`${names.natsSubjectPrefix}.>`], duplicate_window: window };
    if (nc.info?.cluster) {
      try {
        await jsm.streams.add({ ...config, num_replicas: 3 });
        return;
      } catch {
        // fewer than three JetStream nodes: one replica below
      }
    }
    await jsm.streams.add(config);
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
    const nc = await connect({
      servers: natsServers(url),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      timeout: 5000,
    });
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
