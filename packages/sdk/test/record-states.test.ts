import { describe, expect, it } from 'vitest';
import { ManualClock, advanceUntil, at, uuidsOf } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

const DAY_MS = 86_400_000;
const manual = { http: { autoSync: false } };

// Spec section 3, the state table: one test (or group) per row.
describe('spec 3 record states', () => {
  it('(none) -> stored: a recorded location is rendered and stored before any upload', async () => {
    const { bg, server } = await engine(manual);
    const location = await bg.store.insertLocation(at(0));
    expect(await bg.getLocations()).toEqual([expect.objectContaining({ uuid: location.uuid })]);
    expect(server.requests).toHaveLength(0);
  });

  it('stored -> locked: a record is locked during its upload; a second sync() waits instead of re-sending it', async () => {
    const { bg, server, clock } = await engine(manual, { replies: [{ status: 200, delayMs: 300 }] });
    const location = await bg.store.insertLocation(at(0));
    const first = bg.sync();
    await server.received(1);
    // Locked, still in the queue while its upload runs.
    expect(await bg.getLocations()).toEqual([expect.objectContaining({ uuid: location.uuid })]);
    const second = bg.sync();
    await clock.advance(300);
    const [delivered, again] = await Promise.all([first, second]);
    expect(delivered.map((l) => l.uuid)).toEqual([location.uuid]);
    expect(again).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(await bg.getCount()).toBe(0);
  });

  it('no record is ever sent twice concurrently (autoSync triggers racing manual syncs on a slow server)', async () => {
    const { bg, server, clock } = await engine({}, { replies: [] });
    server.setDefault({ status: 200, delayMs: 40 });
    await bg.start();
    const recorded: string[] = [];
    const syncs: Promise<unknown>[] = [];
    for (let i = 0; i < 6; i++) {
      recorded.push((await bg.recordLocation(at(i))).uuid);
      syncs.push(bg.sync());
    }
    await advanceUntil(clock, Promise.all([...syncs, bg.idle()]), 40);
    expect(await bg.getCount()).toBe(0);
    const sent = server.requests.flatMap((r) => uuidsOf(r.body));
    // Each record once: one request each (batchSync off), in the order recorded.
    expect(sent).toEqual(recorded);
  });

  it.each([200, 201, 204])(
    'locked -> delivered on %i: the record is deleted and onHttp reports success',
    async (status) => {
      const { bg, server, http } = await engine(manual, { replies: [{ status }] });
      await bg.store.insertLocation(at(0));
      expect(await bg.sync()).toHaveLength(1);
      expect(server.requests).toHaveLength(1);
      expect(await bg.getCount()).toBe(0);
      expect(http).toEqual([expect.objectContaining({ success: true, isSuccess: true, status })]);
    },
  );

  it.each([400, 404, 500, 503])('locked -> stored on %i: unlocked, kept, retried by the next sync', async (status) => {
    const { bg, server, http } = await engine(manual, { replies: [{ status, json: { error: 'no' } }] });
    const location = await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toEqual([]);
    expect(http).toEqual([
      { success: false, isSuccess: false, status, responseText: '{"error":"no"}', uuids: [location.uuid] },
    ]);
    expect(await bg.getLocations()).toEqual([expect.objectContaining({ uuid: location.uuid })]);
    // Unlocked: the next sync takes it again and the 200 delivers it.
    expect((await bg.sync()).map((l) => l.uuid)).toEqual([location.uuid]);
    expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[location.uuid], [location.uuid]]);
    expect(await bg.getCount()).toBe(0);
  });

  it.each([301, 302, 303, 307, 308])(
    'a %i redirect is not a delivery: the record stays queued (a followed POST may turn into a bodiless GET)',
    async (status) => {
      const { bg, server, http } = await engine(manual, {
        replies: [{ status, headers: { location: '/elsewhere' } }],
      });
      await bg.store.insertLocation(at(0));
      expect(await bg.sync()).toEqual([]);
      expect(http).toEqual([expect.objectContaining({ success: false, status })]);
      expect(server.requests.map((r) => [r.method, r.url])).toEqual([['POST', '/locations']]);
      expect(await bg.getCount()).toBe(1);
    },
  );

  it('locked -> stored on a reset connection (status 0), delivered by the next sync', async () => {
    const { bg, server, http } = await engine(manual, { replies: [{ reset: true }] });
    await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toEqual([]);
    expect(http).toEqual([expect.objectContaining({ success: false, isSuccess: false, status: 0 })]);
    expect(await bg.getCount()).toBe(1);
    expect(await bg.sync()).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(await bg.getCount()).toBe(0);
  });

  it('locked -> stored on timeout: onHttp fails with status 0, the record is unlocked and the next sync delivers it', async () => {
    const { bg, server, http, clock } = await engine(
      { http: { autoSync: false, timeout: 200 } },
      { replies: [{ hang: true }, { status: 200, delayMs: 5_000 }] },
    );
    const location = await bg.store.insertLocation(at(0));
    const unanswered = bg.sync();
    await server.holding(1);
    await clock.advance(199);
    expect(http).toEqual([]);
    await clock.advance(1);
    expect(await unanswered).toEqual([]);
    expect(http).toEqual([
      {
        success: false,
        isSuccess: false,
        status: 0,
        responseText: '',
        uuids: [location.uuid],
        error: expect.stringMatching(/within \d+ ms \(http\.timeout\)/),
      },
    ]);
    expect(await bg.getCount()).toBe(1);
    // A reply that comes after the timeout is a timeout too.
    const late = bg.sync();
    await server.holding(1);
    await clock.advance(200);
    expect(await late).toEqual([]);
    expect(http[1]).toEqual(expect.objectContaining({ success: false, status: 0 }));
    expect((await bg.sync()).map((l) => l.uuid)).toEqual([location.uuid]);
    expect(server.requests).toHaveLength(3);
    expect(http[2]).toEqual(expect.objectContaining({ success: true, status: 200 }));
  });

  it('a 200 whose body never finishes within the timeout is a timeout, not a delivery', async () => {
    const { bg, http, server, clock } = await engine(
      { http: { autoSync: false, timeout: 200 } },
      { replies: [{ stall: 200 }] },
    );
    await bg.store.insertLocation(at(0));
    const stalled = bg.sync();
    await server.holding(1);
    await clock.advance(200);
    expect(await stalled).toEqual([]);
    expect(http).toEqual([expect.objectContaining({ success: false, status: 0 })]);
    expect(await bg.getCount()).toBe(1);
  });

  it('a failure ends the flush: 5 records, one per request, a server answering 500: exactly one request', async () => {
    const { bg, server, http } = await engine(manual);
    server.setDefault({ status: 500 });
    for (let i = 0; i < 5; i++) await bg.store.insertLocation(at(i));
    expect(await bg.sync()).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(http).toHaveLength(1);
    expect(await bg.getCount()).toBe(5);
  });

  it('a failure mid-queue keeps what was delivered and stops: 200, 500 leaves 3 of 5', async () => {
    const { bg, server } = await engine(manual, { replies: [{ status: 200 }, { status: 500 }] });
    const inserted = [];
    for (let i = 0; i < 5; i++) inserted.push(await bg.store.insertLocation(at(i)));
    expect((await bg.sync()).map((l) => l.uuid)).toEqual([inserted[0]!.uuid]);
    expect(server.requests).toHaveLength(2);
    expect((await bg.getLocations()).map((r) => (r as { uuid: string }).uuid)).toEqual(
      inserted.slice(1).map((l) => l.uuid),
    );
  });

  it('destroyLocations removes stored and locked records', async () => {
    const { bg, server, clock } = await engine(manual, { replies: [{ status: 200, delayMs: 200 }] });
    for (let i = 0; i < 3; i++) await bg.store.insertLocation(at(i));
    await bg.setConfig({ http: { batchSync: true, maxBatchSize: 1 } });
    const syncing = bg.sync();
    await server.received(1); // an upload in flight
    expect(await bg.store.destroyLocations()).toBe(3);
    expect(await bg.getCount()).toBe(0);
    await clock.advance(200);
    await syncing;
    expect(await bg.getCount()).toBe(0);
    // Nothing destroyed is uploaded afterwards.
    expect(server.requests).toHaveLength(1);
  });

  describe('maxDaysToPersist (TTL)', () => {
    it('records older than the TTL are dropped before upload and never sent; younger ones are sent', async () => {
      const clock = new ManualClock();
      const { bg, server } = await engine(
        { http: { autoSync: false }, persistence: { maxDaysToPersist: 2 } },
        { clock },
      );
      const old = await bg.store.insertLocation(at(0));
      await clock.advance(DAY_MS);
      const young = await bg.store.insertLocation(at(1));
      // old is now 2 days + 1 ms old (over the TTL), young 1 day + 1 ms (under it).
      await clock.advance(DAY_MS + 1);
      const delivered = await bg.sync();
      expect(delivered.map((l) => l.uuid)).toEqual([young.uuid]);
      expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual([young.uuid]);
      expect(server.requests.flatMap((r) => uuidsOf(r.body))).not.toContain(old.uuid);
    });

    it.each([
      [DAY_MS, true],
      [DAY_MS + 1, false],
    ])('boundary: a record %i ms old with a 1-day TTL is sent: %s', async (age, sent) => {
      const clock = new ManualClock();
      const { bg, server } = await engine(
        { http: { autoSync: false }, persistence: { maxDaysToPersist: 1 } },
        { clock },
      );
      const location = await bg.store.insertLocation(at(0));
      await clock.advance(age);
      const delivered = await bg.sync();
      expect(delivered.map((l) => l.uuid)).toEqual(sent ? [location.uuid] : []);
      expect(server.requests).toHaveLength(sent ? 1 : 0);
      expect(await bg.getCount()).toBe(0);
    });
  });

  describe('maxRecordsToPersist', () => {
    it('over the cap the oldest are dropped', async () => {
      const { bg, server } = await engine({ http: { autoSync: false }, persistence: { maxRecordsToPersist: 3 } });
      const inserted = [];
      for (let i = 0; i < 5; i++) inserted.push(await bg.store.insertLocation(at(i)));
      expect(await bg.getCount()).toBe(3);
      expect((await bg.getLocations()).map((r) => (r as { uuid: string }).uuid)).toEqual(
        inserted.slice(2).map((l) => l.uuid),
      );
      await bg.sync();
      expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual(inserted.slice(2).map((l) => l.uuid));
    });

    it('lowering the cap applies before the next upload: only the newest are sent', async () => {
      const { bg, server } = await engine({ http: { autoSync: false } });
      const inserted = [];
      for (let i = 0; i < 5; i++) inserted.push((await bg.store.insertLocation(at(i))).uuid);
      await bg.setConfig({ persistence: { maxRecordsToPersist: 2 } });
      await bg.sync();
      expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual(inserted.slice(3));
    });

    it('0 persists nothing and uploads nothing', async () => {
      const { bg, server } = await engine({ persistence: { maxRecordsToPersist: 0 } });
      await bg.start();
      await bg.recordLocation(at(0));
      await bg.store.insertLocation(at(1));
      await bg.idle();
      expect(await bg.getCount()).toBe(0);
      expect(await bg.sync()).toEqual([]);
      expect(server.requests).toHaveLength(0);
    });
  });
});
