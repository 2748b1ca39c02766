import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@waypost/node';
import { at, openSdk, startHarness } from './support/harness.js';
import { startScriptedServer } from './support/scripted-server.js';
import { onTestFinished } from 'vitest';

describe('close()', () => {
  it('waits for the upload in flight; the record is delivered and nothing is sent afterwards', async () => {
    const { bg, server } = await startHarness({}, { replies: [{ status: 200, delayMs: 100 }] });
    await bg.start();
    await bg.recordLocation(at(0));
    await bg.idle();
    expect(server.requests).toHaveLength(1);
    await bg.close();
    expect(server.requests[0]!.answered).toBe(200);
    await bg.idle();
    expect(server.requests).toHaveLength(1);
  });

  it('right after recording: no upload starts once close() was called, and the record stays queued', async () => {
    const server = await startScriptedServer();
    onTestFinished(() => server.close());
    const bg = await openSdk();
    await bg.ready({ http: { url: server.url } });
    await bg.start();
    await bg.recordLocation(at(0));
    await bg.close();
    await bg.idle();
    // Either the upload ran to completion before close() returned, or it never started.
    expect(server.requests.every((r) => r.answered === 200)).toBe(true);
  });

  it.each(['sqlite', 'memory'])(
    'with the %s store: an automatic upload never starts after close() has resolved',
    async (kind) => {
      const server = await startScriptedServer();
      onTestFinished(() => server.close());
      const bg = await openSdk(kind === 'memory' ? { store: createMemoryStore() } : {});
      await bg.ready({ http: { url: server.url } });
      await bg.start();
      await bg.store.insertLocation(at(0));
      await bg.close();
      const seenAtClose = server.requests.length;
      await bg.idle();
      expect(server.requests).toHaveLength(seenAtClose);
    },
  );

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
