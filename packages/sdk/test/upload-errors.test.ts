// Issue 17 item 2: whatever breaks inside an upload attempt (a store, an adapter, a bug) ends it
// as a failed request would: an onHttp failure with status 0, a log line with the stable code
// UPLOAD_ERROR, and the next trigger tries again. A silent stall is the worst outcome there is.
import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation, HttpEvent, Store, Transport } from '@waypost/sdk';
import { at, createMemoryStore, uuidsOf } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

/** The next onHttp event, awaited (the automatic upload's own report). */
const nextHttp = (bg: BackgroundGeolocation) =>
  new Promise<HttpEvent>((resolve) => {
    const subscription = bg.onHttp((event) => {
      subscription.remove();
      resolve(event);
    });
  });

/** A store whose lockNext throws `times` times, as a broken store would (SQLite's own error). */
function storeFailingToLock(times: number): Store {
  const store = createMemoryStore();
  let left = times;
  const lockNext = store.locations.lockNext.bind(store.locations);
  store.locations.lockNext = async (limit, order) => {
    if (left-- > 0) throw new RangeError('Value is outside the unsigned long value range.');
    return lockNext(limit, order);
  };
  return store;
}

/** The fetch transport, throwing a plain bug (not a network failure) on its first request. */
function throwingOnce(real: Transport): Transport {
  let thrown = false;
  return {
    send: async (request) => {
      if (!thrown) {
        thrown = true;
        throw new TypeError('Cannot read properties of undefined (reading "headers")');
      }
      return real.send(request);
    },
  };
}

describe('an upload attempt that breaks is reported, logged and retried', () => {
  it('a store that fails: onHttp status 0 with the reason, UPLOAD_ERROR in the log, the next trigger delivers', async () => {
    const { bg, server } = await engine({}, { store: storeFailingToLock(1) });
    const failed = nextHttp(bg);
    await bg.start(); // start() is a trigger: its attempt meets the broken store
    expect(await failed).toMatchObject({
      success: false,
      status: 0,
      uuids: [],
      error: expect.stringMatching(/^UPLOAD_ERROR: Value is outside the unsigned long value range/),
    });
    expect(await bg.logger.getLog()).toMatch(/UPLOAD_ERROR: upload attempt failed before an answer: Value is outside/);
    const delivered = nextHttp(bg);
    const location = await bg.recordLocation(at(0));
    expect(await delivered).toMatchObject({ success: true, status: 200, uuids: [location.uuid] });
    expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual([location.uuid]);
    expect(await bg.getCount()).toBe(0);
  });

  it('a transport that throws a bug: the records are unlocked, reported with their uuids, and sent by the next trigger', async () => {
    const { bg, server } = await engine({ http: { batchSync: true } }, { wrapTransport: throwingOnce });
    await bg.start();
    const failed = nextHttp(bg);
    const first = await bg.recordLocation(at(0));
    expect(await failed).toMatchObject({
      success: false,
      status: 0,
      uuids: [first.uuid],
      error: expect.stringContaining('UPLOAD_ERROR: Cannot read properties of undefined'),
    });
    const delivered = nextHttp(bg);
    const second = await bg.recordLocation(at(1));
    expect(await delivered).toMatchObject({ success: true, uuids: [first.uuid, second.uuid] });
    expect(server.requests.flatMap((r) => uuidsOf(r.body))).toEqual([first.uuid, second.uuid]);
    expect(await bg.getCount()).toBe(0);
  });

  it('sync() rejects with the error, and reports it on onHttp as well', async () => {
    const { bg, http } = await engine({ http: { autoSync: false } }, { store: storeFailingToLock(1) });
    await bg.store.insertLocation(at(0));
    await expect(bg.sync()).rejects.toThrow(/unsigned long/);
    expect(http).toEqual([expect.objectContaining({ success: false, status: 0 })]);
    expect((await bg.sync()).length).toBe(1);
  });
});
