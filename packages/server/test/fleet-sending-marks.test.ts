import { afterEach, describe, expect, it } from 'vitest';
import type { Database, Row, SqlValue } from '../src/db/database.js';
import { migrate } from '../src/db/migrations.js';
import { DeliveryWorker } from '../src/fleet/delivery-worker.js';
import { eventRowOf, writeEvents } from '../src/fleet/event-rows.js';
import { toFleetEvent } from '../src/fleet/fleet-event.js';
import { DEFAULT_RETRY } from '../src/fleet/retry-policy.js';
import { createSink } from '../src/fleet/sinks-store.js';
import { backends } from './helpers/backends.js';
import { openStorage } from './helpers/open-storage.js';

// Each webhook event is recorded on its outbox row before it goes out (issue 30). Every such
// commit costs a WAL flush (PostgreSQL) or WAL appends (SQLite): the lanes under way at once share
// one commit (fleet/sending-marks.ts), each still deleting its device's previous event with its
// next mark.
const DEVICES = 8;
const PER_DEVICE = 3;

const ATTEMPT_WRITE = /^\s*(WITH gone|UPDATE outbox SET sending_at|DELETE FROM outbox)/;

/**
 * The database, counting the commits that record attempts (marks and deletions of the outbox): a
 * statement outside a transaction is a commit of its own; a transaction is one.
 */
function counting(db: Database): { db: Database; commits: () => number } {
  let commits = 0;
  const outside = (sql: string) => {
    if (ATTEMPT_WRITE.test(sql)) commits += 1;
  };
  const counted: Database = {
    dialect: db.dialect,
    query: <T extends Row = Row>(sql: string, params?: readonly SqlValue[]) => (outside(sql), db.query<T>(sql, params)),
    run: (sql: string, params?: readonly SqlValue[]) => (outside(sql), db.run(sql, params)),
    transaction: (fn, options) =>
      db.transaction((tx, begun) => {
        let writes = false;
        const seen = (sql: string) => (writes ||= ATTEMPT_WRITE.test(sql));
        const inside = {
          dialect: tx.dialect,
          query: <T extends Row = Row>(sql: string, params?: readonly SqlValue[]) => (
            seen(sql),
            tx.query<T>(sql, params)
          ),
          run: (sql: string, params?: readonly SqlValue[]) => (seen(sql), tx.run(sql, params)),
        };
        return fn(inside, begun).then((value) => {
          if (writes) commits += 1;
          return value;
        });
      }, options),
    close: () => db.close(),
  };
  return { db: counted, commits: () => commits };
}

describe.each(backends)('recording webhook attempts ($name)', (backend) => {
  let done: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of done.reverse()) await step();
    done = [];
  });

  it('delivers every device in order and leaves nothing, recording the lanes together', async () => {
    const storage = await backend.create();
    done.push(storage.drop);
    const raw = await openStorage(storage.options);
    done.push(() => raw.close());
    await migrate(raw);
    const now = Date.now();
    const sink = await createSink(
      raw,
      { kind: 'webhook', url: 'http://127.0.0.1:9/', secret: null, events: null },
      now,
    );
    const rows = Array.from({ length: DEVICES * PER_DEVICE }, (_, i) => {
      const device = `truck-${i % DEVICES}`;
      const at = now + i;
      return eventRowOf(
        toFleetEvent(device, { type: 'trip.start', at, late: false, key: String(i), data: {} }, now),
        at,
      );
    });
    await raw.transaction((tx) => writeEvents(tx, rows, [sink], now));
    const { db, commits } = counting(raw);
    const sent: { id: string; device: string }[] = [];
    let delivered = () => {};
    const all = new Promise<void>((resolve) => (delivered = resolve));
    const transport = {
      async send(event: { id: string; device: string }) {
        sent.push({ id: event.id, device: event.device });
        if (sent.length === rows.length) delivered();
      },
      async close() {},
    };
    const worker = new DeliveryWorker(
      db,
      { retry: DEFAULT_RETRY, pollMs: 60_000, leaseMs: 30_000, now: () => Date.now(), lanes: 16 },
      () => transport,
      () => [sink],
    );
    done.push(() => worker.close());
    worker.start();
    await all;
    await worker.idle();
    for (let d = 0; d < DEVICES; d++) {
      const device = `truck-${d}`;
      const expected = rows.filter((row) => row.event.device === device).map((row) => row.event.id);
      expect(sent.filter((s) => s.device === device).map((s) => s.id)).toEqual(expected);
    }
    expect(await raw.query(`SELECT seq FROM outbox`)).toEqual([]);
    // One commit per event and one per lane's last deletion were the lanes recorded one by one
    // (on SQLite, a deletion and a mark were two): together, each event's position in its lane
    // takes one commit, and the lanes' last deletions one more.
    expect(commits()).toBeLessThanOrEqual(PER_DEVICE + 1);
  });
});
