import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { openSqlite } from '../src/db/sqlite.js';
import { DeliveryWorker } from '../src/fleet/delivery-worker.js';
import { eventRowOf, writeEvents } from '../src/fleet/event-rows.js';
import { toFleetEvent } from '../src/fleet/fleet-event.js';
import { DEFAULT_RETRY } from '../src/fleet/retry-policy.js';
import { createSink } from '../src/fleet/sinks-store.js';

// Delivery yields to a saturated ingest (delivery-worker.ts), but never starves: with ingest
// saturated all the time, the events still go out.
describe('fleet delivery beside a saturated ingest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-yield-'));
  let db: Database | null = null;
  let worker: DeliveryWorker | null = null;
  afterEach(async () => {
    await worker?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers every event in order even when ingest never stops being saturated', async () => {
    db = openSqlite(join(dir, 'server.db'));
    await migrate(db);
    const now = Date.now();
    const sink = await createSink(db, { kind: 'webhook', url: 'http://127.0.0.1:9/', secret: null, events: null }, now);
    const rows = [1, 2, 3].map((n) =>
      eventRowOf(
        toFleetEvent('truck', { type: 'trip.start', at: now + n, late: false, key: String(n), data: {} }, now),
        now + n,
      ),
    );
    await db.transaction((tx) => writeEvents(tx, rows, [sink], now));
    const sent: string[] = [];
    let delivered = () => {};
    const all = new Promise<void>((resolve) => (delivered = resolve));
    const transport = {
      async send(event: { id: string }) {
        sent.push(event.id);
        if (sent.length === rows.length) delivered();
      },
      async close() {},
    };
    let saturatedAsked = 0;
    worker = new DeliveryWorker(
      db,
      {
        retry: DEFAULT_RETRY,
        pollMs: 60_000,
        leaseMs: 30_000,
        now: () => Date.now(),
        lanes: 1,
        ingestBusy: () => {
          saturatedAsked += 1;
          return true;
        },
      },
      () => transport,
      () => [sink],
    );
    worker.start();
    await all;
    expect(sent).toEqual(rows.map((row) => row.event.id));
    // It asked, and waited (a round every 25 ms at most while saturated) before it gave up waiting.
    expect(saturatedAsked).toBeGreaterThan(1);
  });
});
