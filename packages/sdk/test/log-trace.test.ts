import { describe, expect, it } from 'vitest';
import { at } from '@waypost/sdk/testing';
import { engine } from './support/engine.js';

/** Asserts that each pattern matches a log line, each after the previous one's line. */
function expectInOrder(log: string, patterns: RegExp[]): void {
  const lines = log.split('\n');
  let from = 0;
  for (const pattern of patterns) {
    const index = lines.findIndex((line, i) => i >= from && pattern.test(line));
    expect(index, `${pattern} after line ${from} in:\n${log}`).toBeGreaterThanOrEqual(from);
    from = index + 1;
  }
}

describe('the SDK log (spec 4.3)', () => {
  it('traces one delivered upload in order: Location, INSERT, Locked, HTTP POST, Response 200, DESTROY', async () => {
    const { bg } = await engine();
    await bg.start();
    const location = await bg.recordLocation(at(0));
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expectInOrder(await bg.logger.getLog(), [
      /Location 45\.000000,-73\.000000/,
      new RegExp(`INSERT ${location.uuid}`),
      new RegExp(`Locked .*${location.uuid}`),
      /HTTP POST http:\/\/waypost\.test\/locations/,
      /Response 200/,
      new RegExp(`DESTROY .*${location.uuid}`),
    ]);
  });

  it('traces a failed upload with its status and UNLOCK, and names the method used', async () => {
    const { bg } = await engine({ http: { autoSync: false, method: 'PUT' } }, { replies: [{ status: 503 }] });
    const location = await bg.store.insertLocation(at(0));
    await bg.sync();
    const log = await bg.logger.getLog();
    expectInOrder(log, [
      new RegExp(`INSERT ${location.uuid}`),
      new RegExp(`Locked .*${location.uuid}`),
      /HTTP PUT /,
      /Response 503/,
      new RegExp(`UNLOCK .*${location.uuid}`),
    ]);
    expect(log).not.toMatch(new RegExp(`DESTROY .*${location.uuid}`));
  });

  it('a timeout is traced as Response 0 and UNLOCK', async () => {
    const { bg, server, clock } = await engine(
      { http: { autoSync: false, timeout: 100 } },
      { replies: [{ hang: true }] },
    );
    const location = await bg.store.insertLocation(at(0));
    const syncing = bg.sync();
    await server.holding(1);
    await clock.advance(100);
    await syncing;
    expectInOrder(await bg.logger.getLog(), [/HTTP POST /, /Response 0/, new RegExp(`UNLOCK .*${location.uuid}`)]);
  });

  it('logLevel OFF writes nothing', async () => {
    const { bg } = await engine({ logger: { logLevel: 'OFF' } }, { replies: [{ status: 500 }] });
    await bg.start();
    await bg.recordLocation(at(0));
    await bg.sync();
    await bg.setConfig({ http: { batchSync: true } });
    expect(await bg.logger.getLog()).toBe('');
  });

  it('logLevel takes a number too (0 is OFF)', async () => {
    const { bg } = await engine({ logger: { logLevel: 0 as unknown as 'OFF' } });
    expect((await bg.getState()).logger.logLevel).toBe(0);
    expect(bg.config.current.logger.logLevel).toBe('OFF');
    await bg.store.insertLocation(at(0));
    expect(await bg.logger.getLog()).toBe('');
  });

  it('destroyLog empties it', async () => {
    const { bg } = await engine();
    await bg.store.insertLocation(at(0));
    await bg.idle(); // the insert's automatic upload logs too: it is over before the log is emptied
    expect(await bg.logger.getLog()).toContain('INSERT');
    await bg.logger.destroyLog();
    expect(await bg.logger.getLog()).toBe('');
  });

  it('an http.headers Authorization value (and a url query) never appears in the log', async () => {
    const secret = 'Bearer s3cr3t-T0KEN-value';
    const { bg, server } = await engine(
      { http: { autoSync: false, headers: { Authorization: secret } }, logger: { logLevel: 'VERBOSE' } },
      { replies: [{ status: 500 }] },
    );
    await bg.setConfig({
      http: { url: `${server.url}?api_key=k3y-in-query`, headers: { Authorization: secret, 'X-A': '1' } },
    });
    await bg.store.insertLocation(at(0));
    await bg.sync();
    await bg.sync();
    expect(server.requests.map((r) => r.headers['authorization'])).toEqual([secret, secret]);
    const log = await bg.logger.getLog();
    expect(log).toContain('Response 500');
    expect(log).not.toContain('s3cr3t');
    expect(log).not.toContain('k3y-in-query');
  });
});
