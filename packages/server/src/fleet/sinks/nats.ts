import { connect, type ConnectionOptions, type JetStreamClient, type NatsConnection, type TlsOptions } from 'nats';
import type { EventHead, Transport } from '../transport.js';
import { natsServers, natsSubject } from './broker-names.js';
import { NATS_PUBLISH_TIMEOUT_MS, type BrokerNames } from './broker-options.js';
import type { SinkGuard } from './sink-guard.js';

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
 * A confined sink's servers (issue 45): each host resolved through the guard and given to the
 * client as its checked addresses, without the cluster's own list of nodes (a server could name
 * any address there). A tls:// node keeps its name for the certificate check when the cluster has
 * one name; otherwise the name is checked here and resolved again by the client at connect.
 */
async function guardedServers(url: string, guard: SinkGuard): Promise<ConnectionOptions> {
  const urls = natsServers(url).map((one) => new URL(one));
  const names = new Set(urls.map((one) => one.hostname));
  const servername = urls[0]!.protocol === 'tls:' && names.size === 1 ? [...names][0]! : null;
  const servers: string[] = [];
  for (const one of urls) {
    const addresses = await guard.resolve(one.hostname);
    if (one.protocol === 'tls:' && servername === null) servers.push(one.toString());
    else
      for (const address of addresses)
        servers.push(`${one.protocol}//${address.includes(':') ? `[${address}]` : address}:${one.port || 4222}`);
  }
  return {
    servers,
    ignoreClusterUpdates: true,
    // nats.js hands its tls options to node:tls, which takes servername (its types leave it out).
    ...(servername ? { tls: { servername } as TlsOptions } : {}),
  };
}

/**
 * Publishes each event to JetStream, subject `<prefix>.<device>.<type>` in its stream (default
 * `waypost.<device>.<type>` in WAYPOST), with
 * Nats-Msg-Id set to the event id: JetStream's own deduplication then drops a redelivery within
 * its window. Delivered once the stream acknowledged it.
 */
export function natsTransport(url: string, names: NatsNames, guard: SinkGuard | null): Transport {
  let ready: Promise<{ nc: NatsConnection; js: JetStreamClient }> | null = null;
  const open = async () => {
    const nc = await connect({
      ...(guard ? await guardedServers(url, guard) : { servers: natsServers(url) }),
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
