import type { Database } from '../db/database.js';
import type { FleetOptions } from '../options.js';
import { DeliveryWorker } from './delivery-worker.js';
import type { FleetLog } from './fleet-log.js';
import { FleetConfigCache, type FleetConfig } from './fleet-config.js';
import { checkSilence } from './silence.js';
import { connectSink } from './sinks/connect.js';
import { ensureCliSink, type Sink } from './sinks-store.js';

/** Fleet events in a process: the command line's sinks, delivery, the silence check. */
export interface FleetService {
  /** The sinks given on the command line (a webhook's secret among them, to print once). */
  cliSinks: Sink[];
  /** Events were committed: deliver now rather than at the next poll. */
  wake(): void;
  /** The sinks and geofences as this process knows them (the ingest path reads them here). */
  config(): FleetConfig;
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
  const cliSinks: Sink[] = [];
  for (const url of options.webhooks) cliSinks.push(await ensureCliSink(db, 'webhook', url, options.sinkEvents, now()));
  if (options.mqttUrl) cliSinks.push(await ensureCliSink(db, 'mqtt', options.mqttUrl, options.sinkEvents, now()));
  if (options.natsUrl) cliSinks.push(await ensureCliSink(db, 'nats', options.natsUrl, options.sinkEvents, now()));
  const cache = new FleetConfigCache(db, (config) => log.configChanged(config.sinks.length, config.geofences.length));
  await cache.reload();
  let worker: DeliveryWorker | null = null;
  const poll = async () => {
    await cache.reload();
    // With or without sinks: device.silent goes to the history (the dashboard's timeline) too.
    if ((await checkSilence(db, now(), options.silentAfterMs)) > 0) worker?.wake();
  };
  worker = new DeliveryWorker(
    db,
    { retry: options.retry, pollMs: options.pollMs, leaseMs: options.leaseMs, now, lanes: 8, ingestBusy },
    (sink) => connectSink(sink, now, options.brokers),
    () => cache.get().sinks,
    poll,
    log,
  );
  worker.start();
  return {
    cliSinks,
    wake: () => worker.wake(),
    config: () => cache.get(),
    configChanged: async () => {
      await cache.reload();
      worker.wake();
    },
    idle: () => worker.idle(),
    close: () => worker.close(),
  };
}
