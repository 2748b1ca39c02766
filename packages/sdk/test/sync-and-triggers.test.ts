import { describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, type HeartbeatEvent } from '@waypost/sdk';
import { ManualClock, ManualNetwork, at, createMemoryStore, uuidsOf } from '@waypost/sdk/testing';
import { engine, openedEngine } from './support/engine.js';

describe('onHttp', () => {
  it('fires once per request with success, isSuccess, status and responseText', async () => {
    const { bg, server, http } = await engine(
      { http: { autoSync: false } },
      {
        replies: [
          { status: 200, json: { ok: true } },
          { status: 201, text: 'created' },
          { status: 503, text: 'busy' },
          { status: 204 },
        ],
      },
    );
    const [a, b, c] = [
      await bg.store.insertLocation(at(0)),
      await bg.store.insertLocation(at(1)),
      await bg.store.insertLocation(at(2)),
    ];
    await bg.sync();
    await bg.sync();
    expect(server.requests).toHaveLength(4);
    expect(http).toEqual([
      { success: true, isSuccess: true, status: 200, responseText: '{"ok":true}', uuids: [a.uuid] },
      { success: true, isSuccess: true, status: 201, responseText: 'created', uuids: [b.uuid] },
      { success: false, isSuccess: false, status: 503, responseText: 'busy', uuids: [c.uuid] },
      { success: true, isSuccess: true, status: 204, responseText: '', uuids: [c.uuid] },
    ]);
  });

  it('a huge response body is cut at MAX_RESPONSE_BYTES and the upload still counts', async () => {
    const { bg, http } = await engine(
      { http: { autoSync: false } },
      { replies: [{ status: 200, text: 'x'.repeat(MAX_RESPONSE_BYTES + 4096) }] },
    );
    await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toHaveLength(1);
    expect(http[0]!.success).toBe(true);
    expect(http[0]!.responseText).toHaveLength(MAX_RESPONSE_BYTES);
  });

  it('fires once per batch request, not once per record', async () => {
    const { bg, server, http } = await engine({ http: { autoSync: false, batchSync: true, maxBatchSize: 2 } });
    for (let i = 0; i < 4; i++) await bg.store.insertLocation(at(i));
    await bg.sync();
    expect(server.requests).toHaveLength(2);
    expect(http).toHaveLength(2);
  });
});

describe('sync()', () => {
  it('resolves with the records it delivered', async () => {
    const { bg } = await engine({ http: { autoSync: false } });
    const inserted = [await bg.store.insertLocation(at(0)), await bg.store.insertLocation(at(1))];
    expect(await bg.sync()).toEqual(inserted.map((l) => expect.objectContaining({ uuid: l.uuid, coords: l.coords })));
    expect(await bg.sync()).toEqual([]);
  });

  it('during a flush waits for it and then drains the rest (never "busy")', async () => {
    const { bg, server, clock } = await engine(
      { http: { autoSync: false } },
      { replies: [{ status: 500, delayMs: 200 }] },
    );
    const a = await bg.store.insertLocation(at(0));
    const first = bg.sync();
    await server.holding(1);
    expect(server.requests).toHaveLength(1);
    // Asked while the first flush's request waits for its answer.
    const b = await bg.store.insertLocation(at(1));
    const second = bg.sync();
    await clock.advance(200);
    expect(await first).toEqual([]);
    expect((await second).map((l) => l.uuid)).toEqual([a.uuid, b.uuid]);
    // One at a time: A (500), then A and B.
    expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[a.uuid], [a.uuid], [b.uuid]]);
  });

  it('with no url rejects with code NO_URL, before and after ready()', async () => {
    const { bg } = await openedEngine();
    await bg.store.insertLocation(at(0));
    await expect(bg.sync()).rejects.toMatchObject({ code: 'NO_URL', message: expect.stringContaining('http.url') });
    await bg.ready({ http: { autoSync: false } });
    await expect(bg.sync()).rejects.toMatchObject({ code: 'NO_URL' });
    await expect(bg.store.sync()).rejects.toMatchObject({ code: 'NO_URL' });
    expect(await bg.getCount()).toBe(1);
  });

  it('ignores disableAutoSyncOnCellular', async () => {
    const network = new ManualNetwork('cellular');
    const { bg, server } = await engine({ http: { disableAutoSyncOnCellular: true } }, { network });
    await bg.store.insertLocation(at(0));
    expect(await bg.sync()).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });
});

// Spec 7.3: each retry trigger uploads a queue left behind by a failed attempt.
describe('retry triggers', () => {
  /** A started SDK whose first upload failed (500), leaving one record queued. */
  async function failedOnce(options: Parameters<typeof engine>[1] = {}) {
    const harness = await engine({ app: { heartbeatInterval: 60 } }, { ...options, replies: [{ status: 500 }] });
    await harness.bg.start();
    // The ready and start triggers' evaluations end first: the failing attempt is the only one.
    await harness.bg.idle();
    const failed = await harness.bg.recordLocation(at(0));
    await harness.bg.idle();
    expect(harness.http).toEqual([expect.objectContaining({ success: false, status: 500, uuids: [failed.uuid] })]);
    expect(await harness.bg.getCount()).toBe(1);
    return { ...harness, failed };
  }

  it('a new location', async () => {
    const { bg, server, failed } = await failedOnce();
    const next = await bg.recordLocation(at(1));
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(server.requests.slice(1).flatMap((r) => uuidsOf(r.body))).toEqual([failed.uuid, next.uuid]);
  });

  it('start()', async () => {
    const { bg, server, failed } = await failedOnce();
    await bg.stop();
    await bg.start();
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[failed.uuid], [failed.uuid]]);
  });

  it('ready() after reopening the store', async () => {
    // The queue outlives the instance (packages/node's restart tests do it on a SQLite file).
    const store = createMemoryStore();
    const first = await openedEngine({ store });
    await first.bg.ready({ http: { url: first.server.url, autoSync: false } });
    const queued = await first.bg.store.insertLocation(at(0));
    await first.close();

    const { bg: second, server } = await openedEngine({ store });
    expect(await second.getCount()).toBe(1);
    await second.ready({ http: { url: server.url } });
    await second.idle();
    expect(await second.getCount()).toBe(0);
    expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[queued.uuid]]);
    expect(first.server.requests).toEqual([]);
  });

  it('a connectivity change to connected', async () => {
    const network = new ManualNetwork('wifi');
    const { bg, server, failed } = await failedOnce({ network });
    network.set('none');
    await bg.idle();
    expect(await bg.getCount()).toBe(1);
    network.set('cellular');
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(server.requests.map((r) => uuidsOf(r.body))).toEqual([[failed.uuid], [failed.uuid]]);
  });

  it('the heartbeat (app.heartbeatInterval, driven by a ManualClock)', async () => {
    const clock = new ManualClock();
    const { bg, server } = await failedOnce({ clock });
    const beats: HeartbeatEvent[] = [];
    bg.onHeartbeat((event) => beats.push(event));
    await clock.advance(59_999);
    expect(beats).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
    await clock.advance(1);
    expect(beats).toHaveLength(1);
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(server.requests).toHaveLength(2);
    await clock.advance(60_000);
    expect(beats).toHaveLength(2);
  });

  it('no heartbeat while stopped', async () => {
    const clock = new ManualClock();
    const { bg } = await failedOnce({ clock });
    const beats: HeartbeatEvent[] = [];
    bg.onHeartbeat((event) => beats.push(event));
    await bg.stop();
    await clock.advance(10 * 60_000);
    expect(beats).toHaveLength(0);
    expect(await bg.getCount()).toBe(1);
  });

  it('sync()', async () => {
    const { bg, failed } = await failedOnce();
    expect((await bg.sync()).map((l) => l.uuid)).toEqual([failed.uuid]);
  });
});
