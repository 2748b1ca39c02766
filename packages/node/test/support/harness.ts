import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import {
  createBackgroundGeolocation,
  ManualNetwork,
  type BackgroundGeolocation,
  type ConfigInput,
  type CreateOptions,
  type HttpEvent,
} from '@waypost/node';
import { within } from '@waypost/sdk/testing';
import { startScriptedServer, type Responder, type ScriptedServer } from './scripted-server.js';

// The kit's record helpers, so that node's tests and the sdk's describe records the same way.
export { at, uuidsOf } from '@waypost/sdk/testing';

export interface Harness {
  bg: BackgroundGeolocation;
  server: ScriptedServer;
  network: ManualNetwork;
  /** Every onHttp event, in order. */
  http: HttpEvent[];
}

/** How long a test waits, in real time, for the SDK to idle or close before failing, named. */
const SDK_WAIT_MS = 20_000;

/**
 * The instance with a bounded idle() and sync(): an SDK that never idles, or a flush that never
 * ends (an upload that never answers; records sent again after a 2xx and never deleted), fails the
 * wait with what it was doing, before the test's own timeout and without a name.
 */
export function boundedSdk(bg: BackgroundGeolocation, server?: ScriptedServer): BackgroundGeolocation {
  const seen = () =>
    (server ? ` (${server.requests.length} requests so far, ${server.pending} held)` : '') +
    (server?.runaway ? `: ${server.runaway.message}` : '');
  const idle = bg.idle;
  bg.idle = () => within(idle(), SDK_WAIT_MS, () => `the SDK's idle()${seen()}`);
  const sync = bg.sync;
  bg.sync = () => within(sync(), SDK_WAIT_MS, () => `the SDK's sync() (a flush that never ends?)${seen()}`);
  const close = bg.close;
  bg.close = () =>
    within(close(), SDK_WAIT_MS, () => `the SDK's close() (an upload in flight that never ends?)${seen()}`);
  return bg;
}

/** close(), bounded: an SDK whose upload never ends fails the test with that, not a hook timeout. */
export const closeWithin = (bg: BackgroundGeolocation) =>
  within(bg.close(), SDK_WAIT_MS, () => "the SDK's close() (an upload in flight that never ends?)");

/**
 * sync() until the queue is empty, at most `rounds` times, each bounded: a queue that never
 * empties (records sent and never deleted) fails naming it, instead of looping until the timeout.
 */
export async function syncUntilEmpty(bg: BackgroundGeolocation, rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    if ((await bg.getCount()) === 0) return;
    await within(bg.sync(), SDK_WAIT_MS, () => `the SDK's sync() ${round + 1} of ${rounds} (a flush that never ends?)`);
  }
  const left = await bg.getCount();
  if (left > 0) throw new Error(`${left} record(s) still queued after ${rounds} sync() calls (sent, never deleted?)`);
}

/** Opens the SDK (':memory:' SQLite, a ManualNetwork on wifi); closed when the test finishes. */
export async function openSdk(options: CreateOptions = {}): Promise<BackgroundGeolocation> {
  const bg = await createBackgroundGeolocation({
    database: ':memory:',
    network: new ManualNetwork('wifi'),
    ...options,
  });
  onTestFinished(() => closeWithin(bg));
  return boundedSdk(bg);
}

/**
 * A scripted server plus an SDK pointed at it and readied with `config` (merged over
 * `{ http: { url } }`). Both are closed when the test finishes: the server first, so that an
 * upload still hanging on it fails at once and close() of the SDK does not wait for it.
 */
export async function startHarness(
  config: ConfigInput = {},
  options: CreateOptions & { replies?: Responder[]; maxRequests?: number } = {},
): Promise<Harness> {
  const { replies = [], maxRequests, ...createOptions } = options;
  const server = await startScriptedServer(...replies);
  // A test that knows it needs a few requests fails as soon as the SDK sends many more.
  if (maxRequests !== undefined) server.limit(maxRequests);
  const network = (createOptions.network as ManualNetwork | undefined) ?? new ManualNetwork('wifi');
  const bg = boundedSdk(await createBackgroundGeolocation({ database: ':memory:', ...createOptions, network }), server);
  onTestFinished(async () => {
    try {
      await server.close();
    } finally {
      await closeWithin(bg);
    }
  });
  const http: HttpEvent[] = [];
  bg.onHttp((event) => http.push(event));
  await bg.ready({ ...config, http: { url: server.url, ...config.http } });
  return { bg, server, network, http };
}

/** A temp directory removed when the test finishes. */
export function tempDir(prefix = 'waypost-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
