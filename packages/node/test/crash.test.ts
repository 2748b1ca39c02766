import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createBackgroundGeolocation, ManualNetwork, openSqliteStore } from '@waypost/node';
import { within } from '@waypost/sdk/testing';
import { tempDir, uuidsOf } from './support/harness.js';
import { startScriptedServer } from './support/scripted-server.js';

// Runs against the BUILT package (dist): `npm test` builds first (npx tsc -b packages/sdk packages/node).
const RECORDER = fileURLToPath(new URL('./fixtures/crash-recorder.mjs', import.meta.url));

/** How many requests the server has seen before each kill: a few different moments. */
const KILL_AFTER_REQUESTS = [1, 2, 4];

describe('crash safety: SIGKILL mid-upload', () => {
  it.each(KILL_AFTER_REQUESTS)(
    'killed after %i request(s), with one in flight: nothing lost, nothing left locked, all delivered after reopen',
    async (killAfter) => {
      const file = join(tempDir(), 'crash.db');
      const server = await startScriptedServer();
      onTestFinished(() => server.close());
      server.setDefault({ status: 200, delayMs: 150 }); // slow: an upload is always in flight

      const child = spawn(process.execPath, [RECORDER, file, server.url], { stdio: ['ignore', 'pipe', 'pipe'] });
      onTestFinished(() => void child.kill('SIGKILL'));
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = once(child, 'close');

      // The moment to kill: the server holds a request, after `killAfter` of them (or the recorder died).
      await Promise.race([server.when(() => server.requests.length >= killAfter && server.pending > 0), exited]);
      expect(child.exitCode, `the recorder died on its own: ${stderr}`).toBeNull();
      const inFlight = new Set(server.requests.filter((r) => r.answered === undefined).flatMap((r) => uuidsOf(r.body)));
      expect(inFlight.size).toBeGreaterThan(0);
      child.kill('SIGKILL');
      const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
      expect(signal).toBe('SIGKILL');

      const recorded = stdout.split('\n').filter((line) => /^[0-9a-f-]{36}$/.test(line));
      expect(recorded.length).toBeGreaterThan(0);
      const deliveredBeforeKill = new Set(
        server.requests.filter((r) => r.answered !== undefined && r.answered < 300).flatMap((r) => uuidsOf(r.body)),
      );

      // The raw file as the crash left it: the in-flight batch is still locked.
      const raw = openSqliteStore(file);
      const rows = await raw.locations.list({ order: 'ASC' });
      await raw.close();
      expect(rows.some((r) => r.locked)).toBe(true);
      const queued = new Set(rows.map((r) => r.uuid));
      for (const uuid of recorded) {
        expect(queued.has(uuid) || deliveredBeforeKill.has(uuid), `record ${uuid} was lost`).toBe(true);
      }
      // At most the record being written when the kill came is stored without having been reported.
      expect([...queued].filter((uuid) => !recorded.includes(uuid)).length).toBeLessThanOrEqual(1);

      // Reopen in this process: locks are released at open, the queue is intact and uploads.
      server.setDefault({ status: 200 });
      // The queue goes in a few batches of 50: an SDK that sends on and on fails at once.
      server.limit(server.requests.length + 50);
      const bg = await createBackgroundGeolocation({ database: file, network: new ManualNetwork('wifi') });
      onTestFinished(() => within(bg.close(), 20_000, () => 'close() of the reopened SDK'));
      expect(await bg.getCount()).toBe(rows.length);
      const check = openSqliteStore(file);
      expect((await check.locations.list({ order: 'ASC' })).some((r) => r.locked)).toBe(false);
      await check.close();

      await bg.ready({ http: { url: server.url, batchSync: true, maxBatchSize: 50 } });
      await within(bg.sync(), 20_000, () => `sync() of the reopened queue (${server.requests.length} requests so far)`);
      await within(bg.idle(), 20_000, () => "the reopened SDK's idle()");
      expect(await bg.getCount()).toBe(0);

      const received = server.requests
        .filter((r) => r.answered !== undefined && r.answered < 300)
        .flatMap((r) => uuidsOf(r.body));
      expect(new Set(received)).toEqual(new Set([...recorded, ...queued]));
      // At-least-once: only records of a batch whose reply was lost may arrive twice.
      const seen = new Set<string>();
      for (const uuid of received) {
        if (seen.has(uuid)) expect(inFlight.has(uuid), `${uuid} delivered twice but was not in flight`).toBe(true);
        seen.add(uuid);
      }
    },
  );
});
