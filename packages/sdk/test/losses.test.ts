import { describe, expect, it } from 'vitest';
import type { DropEvent } from '@waypost/sdk';
import { RETENTION_INTERVAL_MS } from '@waypost/sdk/internal';
import { ManualClock, ManualNetwork, at, createMemoryStore } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

const DAY = 86_400_000;

describe('eager retention: an expired record is never counted, returned or uploaded', () => {
  it('autoSync off, never started: the TTL drops records on the timer and onDrop says so', async () => {
    const clock = new ManualClock();
    const { bg, server } = await engine({ http: { autoSync: false } }, { clock });
    const drops: DropEvent[] = [];
    bg.onDrop((event) => drops.push(event));
    for (let i = 0; i < 3; i++) await bg.store.insertLocation(at(i));
    await clock.advance(DAY);
    expect(drops).toEqual([]);
    // The next retention run after the TTL passed, with nobody reading the queue.
    await clock.advance(RETENTION_INTERVAL_MS);
    expect(drops).toEqual([{ reason: 'ttl', count: 3 }]);
    expect(await bg.getCount()).toBe(0);
    expect(await bg.getLocations()).toEqual([]);
    expect(await bg.sync()).toEqual([]);
    expect(server.requests).toHaveLength(0);
    expect(await bg.logger.getLog()).toContain('dropped 3 records: older than maxDaysToPersist (1 days)');
  });

  it('offline with autoSync on: getCount() and getLocations() never show an expired record, even between timer runs', async () => {
    const clock = new ManualClock();
    const { bg } = await engine({}, { clock, network: new ManualNetwork('none') });
    const drops: DropEvent[] = [];
    bg.onDrop((event) => drops.push(event));
    await bg.store.insertLocation(at(0));
    await clock.advance(DAY);
    const fresh = await bg.store.insertLocation(at(1));
    expect(await bg.getCount()).toBe(2);
    // One millisecond past the TTL, before any timer runs.
    await clock.advance(1);
    expect(await bg.getCount()).toBe(1);
    expect(await bg.getLocations()).toEqual([expect.objectContaining({ uuid: fresh.uuid })]);
    expect(drops).toEqual([{ reason: 'ttl', count: 1 }]);
  });

  it('an expired record is not uploaded by sync()', async () => {
    const clock = new ManualClock();
    const { bg, server } = await engine({ http: { autoSync: false } }, { clock });
    await bg.store.insertLocation(at(0));
    await clock.advance(DAY + 1);
    const kept = await bg.store.insertLocation(at(1));
    expect((await bg.sync()).map((l) => l.uuid)).toEqual([kept.uuid]);
    expect(server.requests).toHaveLength(1);
  });

  it('on each heartbeat while started', async () => {
    const clock = new ManualClock();
    const { bg } = await engine({ http: { autoSync: false }, app: { heartbeatInterval: 60 } }, { clock });
    const drops: DropEvent[] = [];
    bg.onDrop((event) => drops.push(event));
    await bg.store.insertLocation(at(0));
    // Stopped until 30 s before the TTL (retention timer runs at 15-minute marks, the last at DAY).
    await clock.advance(DAY - 30_000);
    await bg.start();
    await clock.advance(30_000);
    expect(drops).toEqual([]);
    // The heartbeat at DAY + 30 s finds it expired, well before the next timer run.
    await clock.advance(30_000);
    expect(drops).toEqual([{ reason: 'ttl', count: 1 }]);
  });

  it('when the instance opens on an old queue', async () => {
    const store = createMemoryStore();
    const clock = new ManualClock();
    const first = await openedEngine({ clock, store });
    await first.bg.store.insertLocation(at(0));
    await first.close();
    const { bg: second } = await openedEngine({ clock: new ManualClock(clock.now() + DAY + 1), store });
    expect(await second.getCount()).toBe(0);
    expect(await second.logger.getLog()).toContain('dropped 1 record: older than maxDaysToPersist');
  });
});

describe('every loss is reported', () => {
  it('the cap (maxRecordsToPersist): the oldest go, counted', async () => {
    const { bg } = await engine({ http: { autoSync: false }, persistence: { maxRecordsToPersist: 2 } });
    const drops: DropEvent[] = [];
    bg.onDrop((event) => drops.push(event));
    const records = [];
    for (let i = 0; i < 4; i++) records.push(await bg.store.insertLocation(at(i)));
    expect(drops).toEqual([
      { reason: 'cap', count: 1 },
      { reason: 'cap', count: 1 },
    ]);
    expect((await bg.getLocations()).map((r) => (r as { uuid: string }).uuid)).toEqual(
      records.slice(2).map((r) => r.uuid),
    );
  });

  it('lowering the cap drops on the next retention run', async () => {
    const { bg } = await engine({ http: { autoSync: false } });
    const drops: DropEvent[] = [];
    bg.onDrop((event) => drops.push(event));
    for (let i = 0; i < 5; i++) await bg.store.insertLocation(at(i));
    await bg.setConfig({ persistence: { maxRecordsToPersist: 1 } });
    expect(await bg.getCount()).toBe(1);
    expect(drops).toEqual([{ reason: 'cap', count: 4 }]);
  });

  it('maxRecordsToPersist 0 persists nothing, and each record not kept is a loss', async () => {
    const { bg } = await engine({ http: { autoSync: false }, persistence: { maxRecordsToPersist: 0 } });
    const drops: DropEvent[] = [];
    bg.onDrop((event) => drops.push(event));
    await bg.store.insertLocation(at(0));
    expect(drops).toEqual([{ reason: 'cap', count: 1 }]);
    expect(await bg.getCount()).toBe(0);
  });

  it('destroyLocations() and destroyLocation()', async () => {
    const { bg } = await engine({ http: { autoSync: false } });
    const drops: DropEvent[] = [];
    bg.onDrop((event) => drops.push(event));
    const a = await bg.store.insertLocation(at(0));
    for (let i = 1; i < 4; i++) await bg.store.insertLocation(at(i));
    expect(await bg.destroyLocation(a.uuid)).toBe(true);
    expect(await bg.destroyLocation(a.uuid)).toBe(false);
    expect(await bg.store.destroyLocations()).toBe(3);
    expect(await bg.store.destroyLocations()).toBe(0);
    expect(drops).toEqual([
      { reason: 'destroyed', count: 1 },
      { reason: 'destroyed', count: 3 },
    ]);
  });

  it('onHttp carries the uuids of the records each request carried', async () => {
    const { bg, http } = await engine({ http: { autoSync: false, batchSync: true, maxBatchSize: 2 } });
    const uuids: string[] = [];
    for (let i = 0; i < 3; i++) uuids.push((await bg.store.insertLocation(at(i))).uuid);
    await bg.sync();
    expect(http.map((e) => e.uuids)).toEqual([uuids.slice(0, 2), uuids.slice(2)]);
  });
});
