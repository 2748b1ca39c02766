// close() and the states an instance goes through. (With the SQLite store, the same "no upload after
// close()" is in packages/node/test/lifecycle.test.ts.)
import { describe, expect, it } from 'vitest';
import type { BackgroundGeolocation } from '@waypost/sdk';
import { at } from '@waypost/sdk/testing';
import { checkNoUploadAfterClose } from './contract/close-cases.js';
import { engine, openedEngine } from './support/engine.js';

/** An engine opened on the doubles, not readied. */
const openSdk = async (): Promise<BackgroundGeolocation> => (await openedEngine()).bg;

describe('close()', () => {
  it('waits for the upload in flight; the record is delivered and nothing is sent afterwards', async () => {
    const { bg, server, clock } = await engine({}, { replies: [{ status: 200, delayMs: 100 }] });
    await bg.start();
    const location = await bg.recordLocation(at(0));
    await server.holding(1);
    expect(server.requests).toHaveLength(1);
    let closed = false;
    const closing = bg.close().then(() => (closed = true));
    await clock.advance(99);
    expect(closed).toBe(false); // close() waits for the answer
    await clock.advance(1);
    await closing;
    expect(server.requests[0]!.answered).toBe(200);
    expect(server.requests[0]!.body).toMatchObject({ location: { uuid: location.uuid } });
    await bg.idle();
    expect(server.requests).toHaveLength(1);
  });

  it('right after recording: no upload starts once close() was called, and the record stays queued', async () => {
    const { bg, server } = await engine();
    await bg.start();
    await bg.recordLocation(at(0));
    await bg.close();
    await bg.idle();
    // Either the upload ran to completion before close() returned, or it never started.
    expect(server.requests.every((r) => r.answered === 200)).toBe(true);
  });

  it('with the memory store: an automatic upload never starts after close() has resolved', async () => {
    await checkNoUploadAfterClose(await engine());
  });

  it('operations after close() reject with code CLOSED', async () => {
    const bg = await openSdk();
    await bg.ready({});
    await bg.close();
    await expect(bg.sync()).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(bg.store.insertLocation(at(0))).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(bg.setConfig({})).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('recordLocation needs ready() and start(): NOT_READY, then NOT_STARTED', async () => {
    const bg = await openSdk();
    await expect(bg.recordLocation(at(0))).rejects.toMatchObject({ code: 'NOT_READY' });
    await bg.ready({});
    await expect(bg.recordLocation(at(0))).rejects.toMatchObject({ code: 'NOT_STARTED' });
    expect(await bg.getCount()).toBe(0);
  });
});
