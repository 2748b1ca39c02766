import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import {
  createBackgroundGeolocation,
  ManualNetwork,
  type BackgroundGeolocation,
  type ConfigInput,
  type CreateOptions,
  type HttpConfigInput,
} from '@waypost/node';
import { seededRandom, startFaultProxy, type Fault, type FaultProxy } from './fault-proxy.js';
import { boundedSdk, closeWithin } from './harness.js';

export interface FaultyFleetOptions {
  /** SQLite files of the SDKs go here (sdk-<i>.db); the caller removes it. */
  dir: string;
  /** The service's upload URL the proxy forwards to. */
  target: string;
  /** The faults the proxy picks from for each request, with a random seeded by `seed`. */
  faults: readonly Fault[];
  seed: number;
  /** One SDK per entry: its http configuration, over the proxy's url, a 250 ms timeout and its device_id. */
  variants: readonly HttpConfigInput[];
  /** Device i's id (the device_id param). */
  deviceId: (i: number) => string;
  /** More configuration for every SDK. */
  config?: ConfigInput;
  /** More create options for the device with this id. */
  createOptions?: (id: string) => CreateOptions;
}

export interface FleetDevice {
  bg: BackgroundGeolocation;
  id: string;
}

/**
 * Several SDKs on SQLite files, readied (logging warnings only) and started, uploading through a
 * proxy that misbehaves at random until its `choose` is set to heal it. The proxy and the SDKs are
 * closed when the test finishes, before what the caller registered earlier (the service, the dir).
 */
export async function startFaultyFleet(
  options: FaultyFleetOptions,
): Promise<{ proxy: FaultProxy; devices: FleetDevice[] }> {
  const { dir, faults, variants, deviceId, config = {}, createOptions = () => ({}) } = options;
  const random = seededRandom(options.seed);
  const proxy = await startFaultProxy(options.target, () => faults[Math.floor(random() * faults.length)]!);
  onTestFinished(() => proxy.close());
  const devices: FleetDevice[] = [];
  for (const [i, http] of variants.entries()) {
    const id = deviceId(i);
    const bg = boundedSdk(
      await createBackgroundGeolocation({
        database: join(dir, `sdk-${i}.db`),
        network: new ManualNetwork('wifi'),
        ...createOptions(id),
      }),
    );
    onTestFinished(() => closeWithin(bg));
    await bg.ready({
      ...config,
      http: { url: proxy.url, timeout: 250, params: { device_id: id }, ...http },
      logger: { logLevel: 'WARNING' },
    });
    await bg.start();
    devices.push({ bg, id });
  }
  return { proxy, devices };
}
