// Issue 46, a PostgreSQL failover: `waypost server` (the CLI, a child process) on a primary with an
// asynchronous streaming standby that falls behind while devices (the Node SDK) upload and get
// receipts; the primary dies (SIGKILL), the standby is promoted, the server restarts on it at the
// same address. Within one upload interval every acknowledged record the devices still hold is
// back, each stored once, and the ledger names every number received, recovered or lost after
// acknowledgement, none missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, type BackgroundGeolocation } from '@waypost/node';
import { killProcess } from '../../server/test/helpers/spawn-server.js';
import { openSdk } from '../../node/test/support/harness.js';
import { within } from './support/bounded.js';
import { freePort } from './support/free-port.js';
import { spawnCli, type AgentProcess } from './support/agent-process.js';
import { startReplicatedPostgres, type ReplicatedPostgres } from './support/pg-replication.js';

const ADMIN = 'failover-admin-token';
/** Initdb, a base backup, two starts and two server starts on a busy machine: bounded, named. */
const FAILOVER_MS = 60_000;

/** `waypost server` on `port` with DATABASE_URL; resolves once it printed its URL. */
async function waypostServer(port: number, databaseUrl: string): Promise<{ process: AgentProcess; url: string }> {
  const server = spawnCli(['server', '--port', String(port), '--admin-token', ADMIN, '--map-style', 'none'], {
    ...process.env,
    DATABASE_URL: databaseUrl,
  });
  const url = await within(
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const match = /^url: (http:\/\/\S+)$/m.exec(server.stdout());
        if (match) resolve(match[1]!);
      };
      server.child.stdout!.on('data', look);
      server.child.once('exit', (code) => reject(new Error(`waypost server exited with ${code}: ${server.stderr()}`)));
    }),
    30_000,
    () => `waypost server to print its URL; stderr:\n${server.stderr()}`,
  );
  return { process: server, url };
}

async function admin(url: string, path: string): Promise<unknown> {
  const answer = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  expect(answer.status, path).toBe(200);
  return answer.json();
}

/** Records `n` fixes and uploads them in one sync (batchSync, autoSync off): one upload interval. */
async function record(bg: BackgroundGeolocation, n: number) {
  for (let i = 0; i < n; i++) await bg.store.insertLocation({ latitude: 52.5 + i / 1000, longitude: 13.4 });
  await bg.sync();
}

const KEEPING = ['van-1', 'van-2'];
/** A device whose archive holds nothing from the second round on (maxArchiveBytes 0). */
const FORGETTING = 'van-forgets';

describe('a failover to a PostgreSQL standby that was behind', () => {
  let cluster: ReplicatedPostgres;
  beforeAll(async () => {
    cluster = await startReplicatedPostgres();
  }, FAILOVER_MS);
  afterAll(() => cluster?.close());

  it(
    'every acknowledged record the devices still hold is back at their first upload after the restart, once',
    async () => {
      const port = await freePort();
      let server = await waypostServer(port, cluster.primary.url);
      try {
        const clock = new ManualClock(Date.now());
        const devices = new Map<string, BackgroundGeolocation>();
        for (const id of [...KEEPING, FORGETTING]) {
          const bg = await openSdk({ clock });
          await bg.ready({
            http: { url: `${server.url}/locations`, params: { device_id: id }, batchSync: true, autoSync: false },
          });
          await record(bg, 1); // the first answer offers receipts
          await record(bg, 4); // 2-5 receipted
          devices.set(id, bg);
        }
        await cluster.caughtUp(); // 1-5 of every device (and the server's receipt key) are on the standby
        cluster.holdReplication();
        await devices.get(FORGETTING)!.setConfig({ persistence: { maxArchiveBytes: 0 } });
        for (const bg of devices.values()) {
          await record(bg, 5); // 6-10
          await record(bg, 5); // 11-15: receipted by the primary, never on the standby
        }
        const count = async (db: typeof cluster.primary) =>
          Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM locations'))[0]!.n);
        expect(await count(cluster.primary)).toBe(3 * 15);
        expect(await count(cluster.standby)).toBe(3 * 5);

        await cluster.failOver();
        await killProcess(server.process.child);
        server = await waypostServer(port, cluster.standby.url);
        for (const bg of devices.values()) await record(bg, 1); // 16: one upload interval
        for (const id of KEEPING) {
          expect(await admin(server.url, `/api/devices/${id}/ledger`), id).toMatchObject({
            highestSequence: 16,
            received: 16,
            recovered: 10,
            lostAfterAck: 0,
            missing: 0,
          });
          expect(await devices.get(id)!.logger.getLog()).toContain('RESEND 10 receipted records');
        }
        // What the forgetting device no longer holds: told lost with its next upload, with the receipt.
        await record(devices.get(FORGETTING)!, 1); // 17
        expect(await admin(server.url, `/api/devices/${FORGETTING}/ledger`)).toMatchObject({
          highestSequence: 17,
          received: 7,
          recovered: 0,
          lostAfterAck: 10,
          lostAfterAckRanges: [[6, 15]],
          missing: 0,
        });
        // Nothing stored twice: one row per device and number, and per uuid.
        const rows = await cluster.standby.query<{ device_id: string; n: string; numbers: string; uuids: string }>(
          `SELECT device_id, count(*) AS n, count(DISTINCT sequence) AS numbers, count(DISTINCT uuid) AS uuids
             FROM locations GROUP BY device_id ORDER BY device_id`,
        );
        const expected = (n: number) => ({ n: String(n), numbers: String(n), uuids: String(n) });
        expect(Object.fromEntries(rows.map(({ device_id, ...counts }) => [device_id, counts]))).toEqual({
          'van-1': expected(16),
          'van-2': expected(16),
          'van-forgets': expected(7),
        });
      } finally {
        await killProcess(server.process.child);
      }
    },
    FAILOVER_MS,
  );
});
