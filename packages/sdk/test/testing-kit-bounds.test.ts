// The kit's waits end (issue 29 item 12): a regression that never delivers fails the wait that
// needed it, fast and named, instead of hanging the test file. An engine that never stops uploading
// is cut off by the scripted server; idle(), received() and holding() are bounded in real time;
// the ManualClock refuses to fire timers for ever without time moving.
import { describe, expect, it } from 'vitest';
import type { Transport } from '@waypost/sdk';
import { ManualClock, at, createScriptedServer, openEngine, startEngine, within } from '@waypost/sdk/testing';

describe('bounded waits of the test kit', () => {
  it('within(): the work, or a rejection naming what was awaited', async () => {
    expect(await within(Promise.resolve(7), 50, () => 'seven')).toBe(7);
    await expect(within(new Promise(() => {}), 20, () => 'an answer that never comes')).rejects.toThrow(
      'still waiting after 20 ms for an answer that never comes',
    );
  });

  it('received() and holding() say what they waited for and what came', async () => {
    const server = createScriptedServer({ clock: new ManualClock(), waitMs: 30 });
    await server.fetch('http://waypost.test/locations', { method: 'POST', body: '{}' });
    await expect(server.received(2)).rejects.toThrow('request 2 at the scripted server (1 arrived)');
    await expect(server.holding(1)).rejects.toThrow('1 request(s) held unanswered by the scripted server (0 are)');
  });

  it('more requests than maxRequests: the engine is cut off, and the waits and close() name the runaway', async () => {
    const server = createScriptedServer({ clock: new ManualClock(), maxRequests: 3 });
    const send = () => server.fetch('http://waypost.test/locations', { method: 'POST', body: '{"n":1}' });
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
    await expect(send()).rejects.toThrow('fetch failed');
    expect(server.runaway?.message).toMatch(/more than 3 requests, so the engine was cut off/);
    await expect(server.received(10)).rejects.toThrow(/engine was cut off/);
    // Through an engine: close() rejects with it, so the test that let it run away fails with it.
    const engine = await startEngine({ http: { autoSync: false } }, { maxRequests: 1 });
    await engine.bg.insertLocation(at(1));
    await engine.bg.insertLocation(at(2));
    await engine.bg.sync(); // the first request succeeds; nothing is wrong yet
    await engine.bg.insertLocation(at(3));
    await engine.bg.sync().catch(() => undefined); // the second is cut off
    await expect(engine.close()).rejects.toThrow(/more than 1 requests/);
  });

  it("the engine's idle() is bounded: an upload that never settles fails the wait, with the counts", async () => {
    const stuck = (): Transport => ({ send: () => new Promise(() => {}) });
    const engine = await openEngine({ wrapTransport: stuck, waitMs: 50 });
    try {
      await engine.bg.ready({ http: { url: engine.server.url, autoSync: false } });
      await engine.bg.insertLocation(at(1));
      void engine.bg.sync().catch(() => undefined);
      await expect(engine.bg.idle()).rejects.toThrow(/still waiting after 50 ms for the engine's idle\(\)/);
    } finally {
      await within(engine.close(), 50, () => 'close').catch(() => undefined);
    }
  });

  it('ManualClock.advance() fails, naming it, when timers re-arm at the same instant for ever', async () => {
    const clock = new ManualClock();
    const rearm = () => void clock.setTimeout(rearm, 0);
    rearm();
    await expect(clock.advance(1000)).rejects.toThrow(/more than 100000 timers fired at .* without time moving/);
  });
});
