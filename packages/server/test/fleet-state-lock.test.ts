import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { openPostgres } from '../src/db/postgres.js';
import type { StoredRecord } from '../src/ingest/normalize.js';
import { ingestGroup } from '../src/ingest/ingest-write.js';
import { parseServerGeofence } from '../src/store/geofences.js';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';

// Two ingest transactions for one device on PostgreSQL, the second waiting for the first's device
// lock: the second must evaluate from the state the first left (read with the lock, on the devices
// row). A state read from a joined table would be the one of before the wait, and the exit below
// would never be decided.
const depot = parseServerGeofence({ identifier: 'depot', latitude: 48, longitude: 11, radius: 200 });
const fleet = () => ({ lateAfterMs: 0, config: { version: 1, sinks: [], geofences: [depot] }, written: 0 });
const stored = (uuid: string, longitude: number, recordedAt: number): StoredRecord => ({
  uuid,
  recordedAt,
  latitude: 48,
  longitude,
  record: { uuid },
  clockSuspect: false,
  sequence: null,
});
const job = (record: StoredRecord) => ({ batches: [{ deviceId: 'truck', records: [record] }], commandsFor: null });

describe('fleet-event state under concurrent transactions on PostgreSQL', () => {
  const schema = freshSchemaName();
  let db: Database;
  beforeAll(async () => {
    db = await openPostgres(PG_URL, schema, 4);
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await dropSchema(schema);
  });

  it("evaluates a device's records after the transaction it waited for, from the state that one left", async () => {
    const now = Date.UTC(2026, 0, 1);
    // Registers the device, outside the depot.
    await db.transaction((tx) => ingestGroup(tx, 'postgres', [job(stored('a', 11.01, now - 3000))], now, fleet()));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstStored = () => {};
    const firstDone = new Promise<void>((resolve) => (firstStored = resolve));
    // The first enters the depot and keeps its lock until released.
    const first = db.transaction(async (tx) => {
      await ingestGroup(tx, 'postgres', [job(stored('b', 11, now - 2000))], now, fleet());
      firstStored();
      await held;
    });
    await firstDone;
    // The second leaves it: it waits for the first's lock on the device.
    let secondPid = 0;
    const second = db.transaction(async (tx) => {
      secondPid = Number((await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid);
      return ingestGroup(tx, 'postgres', [job(stored('c', 11.01, now - 1000))], now, fleet());
    });
    await expect
      .poll(async () => {
        if (secondPid === 0) return null;
        const rows = await db.query<{ wait: string | null }>(
          'SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = ?',
          [secondPid],
        );
        return rows[0]?.wait ?? null;
      })
      .toBe('Lock');
    release();
    await first;
    await second;
    const events = await db.query<{ type: string }>(
      `SELECT type FROM fleet_events WHERE device_id = 'truck' AND type LIKE 'geofence.%' ORDER BY at, seq`,
    );
    expect(events.map((e) => e.type)).toEqual(['geofence.enter', 'geofence.exit']);
  });
});
