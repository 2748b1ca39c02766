// Issue 19: a device whose clock is wrong (a Raspberry Pi without a real-time clock boots in
// 1970; a phone set a week ahead) records times the server used to refuse, so its queue was stuck
// for ever. Now it delivers everything: the server stores the records, flags the times, and keeps
// its own receive time beside them. The real SDK (automatic batch uploads) against a real server.
import { ManualClock } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSdk } from '../../node/test/support/harness.js';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

describe.each(backends)('a device with a wrong clock, on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  it.each([
    ['in 1970', Date.UTC(1970, 0, 1, 0, 3)],
    ['a week ahead', Date.now() + 7 * 24 * 3600 * 1000],
  ])('%s: every record is delivered in batches, stored and flagged', async (name, now) => {
    const device = `clock-${name.replace(/\W+/g, '-')}`;
    const bg = await openSdk({ clock: new ManualClock(now) });
    await bg.ready({ http: { url: `${server.url}/locations`, batchSync: true, params: { device_id: device } } });
    await bg.start();
    for (let i = 0; i < 5; i++) await bg.recordLocation({ latitude: 45.5 + i / 1e4, longitude: -73.56, accuracy: 5 });
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    const stored = (await server.admin(`/api/devices/${device}/locations`)).body as {
      timestamp: string;
      clockSuspect?: boolean;
    }[];
    expect(stored).toHaveLength(5);
    expect(stored.every((r) => r.clockSuspect === true)).toBe(true);
    expect(Math.abs(Date.parse(stored[0]!.timestamp) - now)).toBeLessThan(60_000);
  });
});
