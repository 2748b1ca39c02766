import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBackgroundGeolocation, ManualNetwork, type HttpEvent } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, spawnServerScript } from './helpers/spawn-server.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/sqlite-server-process.mjs', import.meta.url));
const TOTAL = 300;

const spawnServer = (database: string, port: number) => spawnServerScript(SCRIPT, [database, String(port)]);

describe('the service killed with SIGKILL mid-upload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-kill-'));
  const children: ChildProcess[] = [];
  // The server runs as a child process from the built package.
  beforeAll(buildServer);
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing and stores nothing twice: the SDK keeps its records until the restarted service has them', async () => {
    const database = join(dir, 'server.db');
    const first = await spawnServer(database, 0);
    children.push(first.child);
    const port = Number(new URL(first.url).port);

    const bg = await createBackgroundGeolocation({
      database: join(dir, 'device.db'),
      network: new ManualNetwork('wifi'),
    });
    const http: HttpEvent[] = [];
    bg.onHttp((event) => http.push(event));
    await bg.ready({
      http: { url: `${first.url}/locations`, batchSync: true, maxBatchSize: 20, params: { device_id: 'survivor' } },
      logger: { logLevel: 'WARNING' },
    });
    const uuids: string[] = [];
    const record = async () => {
      const location = await bg.store.insertLocation({
        latitude: 48 + uuids.length / 10_000,
        longitude: 11,
        accuracy: 5,
      });
      uuids.push(location.uuid);
      // A device records at its own pace: give the uploads in flight their turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 2));
    };

    // Record while uploading; kill the service once some batches have been acknowledged.
    while (http.filter((e) => e.success).length < 3) {
      if (uuids.length >= TOTAL / 2) throw new Error('no upload acknowledged within the first half of the run');
      await record();
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    while (uuids.length < TOTAL) await record();
    expect(http.some((e) => !e.success && e.status === 0)).toBe(true);
    expect(await bg.getCount()).toBeGreaterThan(0);

    // The same port and database: the SDK's url is unchanged.
    const second = await spawnServer(database, port);
    children.push(second.child);
    // One sync() drains the queue: it waits for an automatic upload in flight, then sends the rest.
    await bg.sync();
    expect(await bg.getCount()).toBe(0);

    const response = await fetch(`${second.url}/api/devices/survivor/locations?limit=100000`, {
      headers: { authorization: 'Bearer admin-secret' },
    });
    const stored = ((await response.json()) as { uuid: string }[]).map((r) => r.uuid);
    expect(stored).toHaveLength(TOTAL);
    expect(new Set(stored)).toEqual(new Set(uuids));
    await bg.close();
    second.child.kill('SIGTERM');
  });
});
