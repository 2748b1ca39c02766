import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { backends } from './helpers/backends.js';
import { openStorage } from './helpers/open-storage.js';

// Issue 43: on PostgreSQL, locations.device_id is checked once per statement (a trigger), not by a
// foreign key once per row; the rule stays the key's: no position names a missing device.
const postgres = backends.find((b) => b.name === 'postgres')!;

const insert = (db: Database, device: string, uuid: string): Promise<number> =>
  db.run(
    `INSERT INTO locations (device_id, uuid, recorded_at, latitude, longitude, received_at, record)
     VALUES (?, ?, 1, 1.5, 2.5, 1, '{}')`,
    [device, uuid],
  );
const codeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'stored',
    (error: { code?: string }) => error.code,
  );

describe('PostgreSQL: positions name existing devices', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const storage = await postgres.create();
    drop = storage.drop;
    db = await openStorage(storage.options);
    await migrate(db);
    for (const id of ['phone-a', 'phone-b', 'phone-c'])
      await db.run(`INSERT INTO devices (id, created_at, last_seen) VALUES (?, 1, 1)`, [id]);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('has no foreign key on locations: no lookup per row stored', async () => {
    const keys = await db.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM pg_constraint WHERE conrelid = 'locations'::regclass AND contype = 'f'`,
    );
    expect(Number(keys[0]!.n)).toBe(0);
  });

  it('stores positions of known devices, refuses one of an unknown device with the whole statement', async () => {
    expect(await insert(db, 'phone-a', 'u1')).toBe(1);
    expect(await codeOf(insert(db, 'nobody', 'u2'))).toBe('23503');
    const mixed = db.run(
      `INSERT INTO locations (device_id, uuid, recorded_at, received_at, record)
       VALUES ('phone-a', 'u3', 1, 1, '{}'), ('nobody', 'u4', 1, 1, '{}')`,
    );
    expect(await codeOf(mixed)).toBe('23503');
    const stored = await db.query<{ uuid: string }>(`SELECT uuid FROM locations ORDER BY uuid`);
    expect(stored.map((r) => r.uuid)).toEqual(['u1']);
  });

  it('refuses moving a position to an unknown device', async () => {
    await insert(db, 'phone-b', 'u5');
    expect(await codeOf(db.run(`UPDATE locations SET device_id = 'nobody' WHERE uuid = 'u5'`))).toBe('23503');
    expect(await db.run(`UPDATE locations SET device_id = 'phone-a' WHERE uuid = 'u5'`)).toBe(1);
  });

  it('refuses deleting or renaming a device with positions, not one without', async () => {
    await insert(db, 'phone-b', 'u6');
    expect(await codeOf(db.run(`DELETE FROM devices WHERE id = 'phone-b'`))).toBe('23503');
    expect(await codeOf(db.run(`UPDATE devices SET id = 'phone-z' WHERE id = 'phone-b'`))).toBe('23503');
    expect(await db.run(`UPDATE devices SET records = 7 WHERE id = 'phone-b'`)).toBe(1);
    expect(await db.run(`DELETE FROM devices WHERE id = 'phone-c'`)).toBe(1);
  });
});
