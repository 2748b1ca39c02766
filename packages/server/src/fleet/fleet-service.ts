import type { Database, Queryable } from '../db/database.js';
import type { FleetOptions } from './fleet-options.js';
import { DeliveryWorker } from './delivery-worker.js';
import type { FleetLog } from './fleet-log.js';
import { FleetConfigCache, type FleetConfig } from './fleet-config.js';
import { changeFleetConfig } from './config-version.js';
import { checkSilence } from './silence.js';
import { connectSink } from './sinks/connect.js';
import { ensureCliSink, type Sink } from './sinks-store.js';

/** Fleet events in a process: the command line's sinks, delivery, the silence check. */
export interface FleetService {
  /** The sinks given on the command line (a webhook's secret among them, to print once). */
  cliSinks: Sink[];
  /** Events were committed: deliver now rather than at the next poll. */
  wake(): void;
  /** The sinks and geofences at `version`, which tx read first (fleet-config.ts): the ingest path's. */
  config(tx: Queryable, version: number): Promise<FleetConfig>;
  /** Sinks or geofences were changed through this process: read them again now. */
  configChanged(): Promise<void>;
  /** Resolves once the current delivery round is over. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startFleet(
  db: Database,
  options: FleetOptions,
  now: () => number,
  log: FleetLog,
  /** Whether ingest is saturated: delivery yields to it (delivery-worker.ts). */
  ingestBusy: () => boolean = () => false,
): Promise<FleetService> {
  const given: [Sink['kind'], string][] = options.webhooks.map((url) => ['webhook', url]);
  if (options.mqttUrl) given.push(['mqtt', options.mqttUrl]);
  if (options.natsUrl) given.push(['nats', options.natsUrl]);
  // Another process started with other --sink-events changes what every process decides.
  const cliSinks = await changeFleetConfig(db, async (tx) => {
    const sinks: Sink[] = [];
    for (const [kind, url] of given) sinks.push(await ensureCliSink(tx, kind, url, options.sinkEvents, now()));
    return sinks;
  });
  const cache = new FleetConfigCache(db, (config) => log.configChanged(config.sinks.length, config.geofences.length));
  await cache.refresh();
  let worker: DeliveryWorker | null = null;
  const poll = async () => {
    // The delivery worker's list of sinks: ingest reads the version itself, delivery at each poll.
    await cache.refresh();
    // With or without sinks: device.silent goes to the history (the dashboard's timeline) too.
    if ((await checkSilence(db, now(), options.silentAfterMs, (tx, version) => cache.at(tx, version))) > 0)
      worker?.wake();
  };
  worker = new DeliveryWorker(
    db,
    { retry: options.retry, pollMs: options.pollMs, leaseMs: options.leaseMs, now, lanes: 16, ingestBusy },
    (sink) => connectSink(sink, now, options.brokers, options.allowPrivateSinks),
    () => cache.get().sinks,
    poll,
    log,
  );
  worker.start();
  return {
    cliSinks,
    wake: () => worker.wake(),
    config: (tx, version) => cache.at(tx, version),
    configChanged: async () => {
      await cache.refresh();
      worker.wake();
    },
    idle: () => worker.idle(),
    close: () => worker.close(),
  };
}
