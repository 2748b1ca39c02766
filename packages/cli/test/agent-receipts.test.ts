// Issue 46 for the Linux agent (`waypost agent`, a child process): it keeps what the server
// receipted in its SQLite file, and when the server comes back from a backup taken mid-run, the
// agent's next run re-sends exactly what the server acknowledged and lost: same uuids, stored once,
// named recovered in the ledger, nothing missing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@waypost/server';
import { epochSentences, straightTrack } from '../../node/test/providers/support/nmea-writer.js';
import { spawnAgent } from './support/agent-process.js';
import { freePort } from './support/free-port.js';

const DEVICE = 'pi-receipts';
/** Several bounded runs of the agent in turn: a named bound must fail first, not vitest's timeout. */
const RUNS_MS = 60_000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypost-agent-receipts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = (port: number, database: string) =>
  startServer({ port, database, adminToken: 'agent-receipts-admin', mapStyle: null });

async function admin(server: RunningServer, path: string): Promise<unknown> {
  const answer = await fetch(`${server.url}${path}`, { headers: { authorization: 'Bearer agent-receipts-admin' } });
  expect(answer.status, path).toBe(200);
  return answer.json();
}

/**
 * `waypost agent` replaying `count` NMEA fixes (one a second, `secondsAgo` back) to the server, in
 * uploads of 5 (batchSync, http.maxBatchSize), exiting once the file is read and the queue empty.
 */
async function replay(url: string, name: string, count: number, secondsAgo: number): Promise<string> {
  const track = straightTrack(count, Math.floor(Date.now() / 1000) * 1000 - secondsAgo * 1000, 1000);
  const file = join(dir, `${name}.nmea`);
  writeFileSync(file, track.flatMap((p) => epochSentences(p, 'GP')).join('\r\n') + '\r\n');
  const config = join(dir, 'agent.json');
  writeFileSync(config, JSON.stringify({ http: { batchSync: true, autoSyncThreshold: 5, maxBatchSize: 5 } }));
  const agent = spawnAgent([
    ...['--config', config, '--source', `nmea-file:${file}`, '--replay-speed', '0', '--exit-when-done'],
    ...['--url', `${url}/locations`, '--device-id', DEVICE, '--database', join(dir, 'agent.db')],
  ]);
  expect(await agent.exited, agent.stderr()).toEqual([0, null]);
  return agent.stderr();
}

describe('waypost agent and delivery receipts', () => {
  it(
    'after a restore from a backup taken mid-run, its next run re-sends what the server acknowledged and lost',
    async () => {
      const port = await freePort();
      const database = join(dir, 'server.db');
      let server = await start(port, database);
      try {
        await replay(server.url, 'first', 10, 300); // 1-5 offer receipts, 6-10 receipted
        const backup = join(dir, 'backup.db');
        const live = new Database(database, { readonly: true });
        await live.backup(backup); // online, while the server runs
        live.close();
        await replay(server.url, 'second', 10, 200); // 11-20 receipted, then lost with the restore
        await server.close();
        server = await start(port, backup); // restored, at the address the agent uploads to
        const log = await replay(server.url, 'third', 3, 100); // 21-23; its claim shows 11-20 lost
        expect(await admin(server, `/api/devices/${DEVICE}/ledger`)).toMatchObject({
          highestSequence: 23,
          received: 23,
          recovered: 10,
          lostAfterAck: 0,
          missing: 0,
        });
        const stored = (await admin(server, `/api/devices/${DEVICE}/locations?limit=1000`)) as { uuid: string }[];
        expect(stored).toHaveLength(23);
        expect(new Set(stored.map((row) => row.uuid)).size).toBe(23);
        expect(log).toContain('remote command resendReceipted');
      } finally {
        await server.close();
      }
    },
    RUNS_MS,
  );
});
