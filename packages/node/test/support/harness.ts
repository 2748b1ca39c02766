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

/** Opens the SDK (':memory:' SQLite, a ManualNetwork on wifi); closed when the test finishes. */
export async function openSdk(options: CreateOptions = {}): Promise<BackgroundGeolocation> {
  const bg = await createBackgroundGeolocation({
    database: ':memory:',
    network: new ManualNetwork('wifi'),
    ...options,
  });
  onTestFinished(() => bg.close());
  return bg;
}

/**
 * A scripted server plus an SDK pointed at it and readied with `config` (merged over
 * `{ http: { url } }`). Both are closed when the test finishes: the server first, so that an
 * upload still hanging on it fails at once and close() of the SDK does not wait for it.
 */
export async function startHarness(
  config: ConfigInput = {},
  options: CreateOptions & { replies?: Responder[] } = {},
): Promise<Harness> {
  const { replies = [], ...createOptions } = options;
  const server = await startScriptedServer(...replies);
  const network = (createOptions.network as ManualNetwork | undefined) ?? new ManualNetwork('wifi');
  const bg = await createBackgroundGeolocation({ database: ':memory:', ...createOptions, network });
  onTestFinished(async () => {
    await server.close();
    await bg.close();
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
