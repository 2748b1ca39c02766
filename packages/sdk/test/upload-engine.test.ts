import { describe, expect, it } from 'vitest';
import type { Location } from '@waypost/sdk';
import { MAX_RETRY_AFTER_MS } from '@waypost/sdk/internal';
import { ManualClock, ManualNetwork, at, uuidsOf, type RecordedRequest } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

/** A server that takes at most `max` records per request and answers 413 to more. */
const takesAtMost = (max: number) => (request: RecordedRequest) =>
  uuidsOf(request.body).length > max ? { status: 413, text: 'too large' } : { status: 200, json: {} };

describe('413: the batch is halved within the flush', () => {
  it('12 records, a server that takes at most 5, maxBatchSize -1: sync() delivers all of them', async () => {
    const { bg, server, http } = await engine({ http: { autoSync: false, batchSync: true } });
    server.setDefault(takesAtMost(5));
    const uuids: string[] = [];
    for (let i = 0; i < 12; i++) uuids.push((await bg.store.insertLocation(at(i))).uuid);
    const delivered = await bg.sync();
    expect(delivered.map((l) => l.uuid)).toEqual(uuids);
    // 12 refused, 6 refused, then batches of 3: the size that worked is kept for the rest.
    expect(server.requests.map((r) => uuidsOf(r.body).length)).toEqual([12, 6, 3, 3, 3, 3]);
    expect(http.map((e) => e.status)).toEqual([413, 413, 200, 200, 200, 200]);
    expect(server.requests.slice(2).flatMap((r) => uuidsOf(r.body))).toEqual(uuids);
    expect(await bg.getCount()).toBe(0);
  });

  it('the halving starts again with the next flush', async () => {
    const { bg, server } = await engine({ http: { autoSync: false, batchSync: true } });
    server.setDefault(takesAtMost(5));
    for (let i = 0; i < 4; i++) await bg.store.insertLocation(at(i));
    await bg.sync();
    for (let i = 4; i < 8; i++) await bg.store.insertLocation(at(i));
    await bg.sync();
    expect(server.requests.map((r) => uuidsOf(r.body).length)).toEqual([4, 4]);
  });

  it('a single record that still gets 413 stays queued and the flush ends', async () => {
    const { bg, server, http } = await engine({ http: { autoSync: false, batchSync: true } });
    server.setDefault({ status: 413 });
    const a = await bg.store.insertLocation(at(0));
    await bg.store.insertLocation(at(1));
    expect(await bg.sync()).toEqual([]);
    expect(server.requests.map((r) => uuidsOf(r.body).length)).toEqual([2, 1]);
    expect(http.at(-1)).toMatchObject({ success: false, status: 413, uuids: [a.uuid] });
    expect(await bg.getCount()).toBe(2);
    // Unlocked: a healed server takes them.
    server.setDefault({ status: 200, json: {} });
    expect(await bg.sync()).toHaveLength(2);
  });

  it('one request per record (batchSync false): a 413 is a failure like any other', async () => {
    const { bg, server } = await engine({ http: { autoSync: false } }, { replies: [{ status: 413 }] });
    await bg.store.insertLocation(at(0));
    await bg.store.insertLocation(at(1));
    expect(await bg.sync()).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(await bg.getCount()).toBe(2);
  });
});

describe('triggers are never lost', () => {
  it('a location recorded during an upload is uploaded when that upload ends', async () => {
    const { bg, server, clock } = await engine({}, { replies: [{ status: 200, json: {}, delayMs: 150 }] });
    await bg.start();
    const first = await bg.recordLocation(at(0));
    await server.holding(1);
    // The first upload is in flight (answered after 150 ms); this trigger used to be dropped.
    const second = await bg.recordLocation(at(1));
    await clock.advance(150);
    await bg.idle();
    expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual([first.uuid, second.uuid]);
    expect(await bg.getCount()).toBe(0);
  });

  it('autoSync turned off during an automatic upload: that upload ends with its request, sync() delivers the rest', async () => {
    const { bg, server, clock } = await engine({}, { replies: [{ status: 200, json: {}, delayMs: 150 }] });
    await bg.start();
    const first = await bg.recordLocation(at(0));
    await server.holding(1);
    await bg.setConfig({ http: { autoSync: false } });
    const later = [await bg.recordLocation(at(1)), await bg.recordLocation(at(2))];
    await clock.advance(150);
    await bg.idle();
    expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual([first.uuid]);
    expect((await bg.sync()).map((l) => l.uuid)).toEqual(later.map((l) => l.uuid));
  });

  it('a motion change during an upload that fails still flushes, ignoring the threshold', async () => {
    const { bg, server, clock } = await engine(
      { http: { autoSyncThreshold: 3 } },
      { replies: [{ status: 500, delayMs: 150 }] },
    );
    await bg.start();
    for (let i = 0; i < 3; i++) await bg.recordLocation(at(i));
    await server.holding(1); // the threshold upload in flight
    // During the failing upload: entering the moving state must upload everything (spec 3 rule 3).
    await bg.changePace(true);
    await clock.advance(150);
    await bg.idle();
    // The failed request, then the motion flush: three locations and the motionchange record.
    expect(server.requests).toHaveLength(5);
    expect(server.requests[0]!.answered).toBe(500);
    expect(await bg.getCount()).toBe(0);
  });

  it('a motion-change flush that cannot run offline runs on reconnection, still ignoring the threshold', async () => {
    const network = new ManualNetwork('none');
    const { bg, server } = await engine({ http: { autoSyncThreshold: 10 } }, { network });
    await bg.start();
    await bg.recordLocation(at(0));
    await bg.changePace(true);
    await bg.idle();
    expect(server.requests).toHaveLength(0);
    network.set('wifi');
    await bg.idle();
    // The location and the motionchange record, one request each.
    expect(server.requests).toHaveLength(2);
    expect(await bg.getCount()).toBe(0);
    // Owed flush done: the threshold holds again.
    await bg.recordLocation(at(1));
    await bg.idle();
    expect(server.requests).toHaveLength(2);
    expect(await bg.getCount()).toBe(1);
  });

  it('idle() resolves at once when nothing runs', async () => {
    const { bg, server } = await engine({ http: { autoSync: false } });
    await bg.store.insertLocation(at(0));
    await bg.idle();
    expect(server.requests).toHaveLength(0);
  });
});

describe('Retry-After on 429 and 503', () => {
  it('an hour of 503 with Retry-After: 600 and a location a second: at most 7 automatic requests; sync() goes through', async () => {
    const { bg, server, clock } = await engine({ logger: { logLevel: 'WARNING' } });
    server.setDefault({ status: 503, text: 'busy', headers: { 'retry-after': '600' } });
    await bg.start();
    const deferred: (string | null)[] = [];
    for (let second = 0; second < 3600; second++) {
      await bg.recordLocation(at(second));
      await bg.idle();
      await clock.advance(1000);
      if (second % 600 === 1) deferred.push((await bg.getState()).retryAfter);
    }
    await bg.idle();
    // One request, then one each time the Retry-After ends: at 0, 10, 20, ... 60 minutes.
    const start = server.requests[0]!.receivedAt;
    expect(server.requests.map((r) => (r.receivedAt - start) / 60_000)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(deferred.every((value) => value !== null)).toBe(true);
    expect(await bg.logger.getLog()).toContain('Retry-After');
    server.setDefault({ status: 200, json: {} });
    const before = server.requests.length;
    expect(await bg.sync()).toHaveLength(3600);
    expect(server.requests.length).toBe(before + 3600);
  }, 60_000);

  it('an HTTP date on 429 defers until then, shown in getState(); the deferral ends by itself', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const until = new Date(Date.UTC(2026, 0, 1, 12, 5, 0));
    const { bg, server } = await engine(
      {},
      { clock, replies: [{ status: 429, headers: { 'retry-after': until.toUTCString() } }] },
    );
    await bg.store.insertLocation(at(0));
    await bg.idle();
    expect((await bg.getState()).retryAfter).toBe(until.toISOString());
    await bg.store.insertLocation(at(1));
    await bg.idle();
    expect(server.requests).toHaveLength(1);
    await clock.advance(5 * 60_000 - 1);
    expect(server.requests).toHaveLength(1);
    await clock.advance(1);
    await bg.idle();
    expect((await bg.getState()).retryAfter).toBeNull();
    expect(server.requests).toHaveLength(3);
    expect(await bg.getCount()).toBe(0);
  });

  it('a Retry-After of a day is capped at an hour', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const { bg } = await engine({}, { clock, replies: [{ status: 503, headers: { 'retry-after': '86400' } }] });
    await bg.store.insertLocation(at(0));
    await bg.idle();
    expect((await bg.getState()).retryAfter).toBe(new Date(clock.now() + MAX_RETRY_AFTER_MS).toISOString());
  });

  it('Retry-After on a 500 is not honoured', async () => {
    const { bg } = await engine({}, { replies: [{ status: 500, headers: { 'retry-after': '600' } }] });
    await bg.store.insertLocation(at(0));
    await bg.idle();
    expect((await bg.getState()).retryAfter).toBeNull();
  });
});

describe('the periodic retry (http.retryInterval, spec 7.3 background fetch)', () => {
  it('retries a non-empty queue every 15 minutes by default, while stopped', async () => {
    const clock = new ManualClock();
    const { bg, server } = await engine({}, { clock, replies: [{ status: 500 }] });
    expect((await bg.getState()).http.retryInterval).toBe(900);
    const location: Location = await bg.store.insertLocation(at(0));
    await bg.idle();
    expect((await bg.getState()).enabled).toBe(false);
    await clock.advance(900_000 - 1);
    expect(server.requests).toHaveLength(1);
    await clock.advance(1);
    await bg.idle();
    expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[location.uuid], [location.uuid]]);
    expect(await bg.getCount()).toBe(0);
  });

  it('is configurable and validated like any field', async () => {
    const clock = new ManualClock();
    const { bg, server } = await engine({ http: { retryInterval: 60 } }, { clock, replies: [{ status: 500 }] });
    await bg.store.insertLocation(at(0));
    await bg.idle();
    await clock.advance(60_000);
    await bg.idle();
    expect(server.requests).toHaveLength(2);
    await expect(bg.setConfig({ http: { retryInterval: 0 } })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      key: 'http.retryInterval',
    });
    await expect(bg.setConfig({ http: { retryInterval: 'often' as unknown as number } })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
  });

  it('an empty queue sends nothing', async () => {
    const clock = new ManualClock();
    const { bg, server } = await engine({}, { clock });
    await clock.advance(3 * 900_000);
    await bg.idle();
    expect(server.requests).toHaveLength(0);
  });
});
