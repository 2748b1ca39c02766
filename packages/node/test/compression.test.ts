// Issue 20, end to end: the Node SDK against Waypost's own server, which advertises gzip. The
// engine's compression rules are tested in packages/sdk/test/compression.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startServer } from '@waypost/server';
import { at, openSdk, startHarness } from './support/harness.js';

describe('http.compress', () => {
  it("against Waypost's server: it advertises gzip, takes the gzipped bodies and stores every record", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypost-compress-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const server = await startServer({ port: 0, database: join(dir, 'server.db'), adminToken: 'adm' });
    onTestFinished(() => server.close());
    for (const compress of ['auto', 'gzip'] as const) {
      const bg = await openSdk();
      await bg.ready({ http: { url: `${server.url}/locations`, compress, params: { device_id: compress } } });
      await bg.start();
      for (let i = 0; i < 5; i++) await bg.recordLocation(at(i));
      await bg.idle();
      expect(await bg.getCount()).toBe(0);
      const device = await fetch(`${server.url}/api/devices/${compress}`, { headers: { authorization: 'Bearer adm' } });
      expect(((await device.json()) as { records: number }).records).toBe(5);
    }
  });

  it('a gzipped upload over real HTTP says Content-Encoding: gzip and Content-Type: application/json (issue 29)', async () => {
    const advertises = { status: 200, json: {}, headers: { 'accept-encoding': 'gzip' } };
    for (const compress of ['gzip', 'auto'] as const) {
      const { bg, server } = await startHarness({ http: { compress } }, { replies: [advertises] });
      server.setDefault(advertises);
      await bg.start();
      for (let i = 0; i < 3; i++) {
        await bg.recordLocation(at(i));
        await bg.idle();
      }
      const sent = server.requests.map((r) => [r.headers['content-encoding'] ?? 'identity', r.headers['content-type']]);
      // 'auto' sends its first body plain, before the server has said it takes gzip.
      const first = compress === 'gzip' ? 'gzip' : 'identity';
      expect(sent, compress).toEqual([
        [first, 'application/json'],
        ['gzip', 'application/json'],
        ['gzip', 'application/json'],
      ]);
    }
  });
});
