import { createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

type Http = Record<string, unknown>;

describe.each(backends)('the SDK uploading to the service on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  /** An SDK with `count` queued locations, synced once with the given http config; returns the replies' bodies. */
  async function uploadWith(
    http: Http,
    count: number,
    device = 'sdk-device',
  ): Promise<{ uuids: string[]; replies: string[] }> {
    const bg = await createBackgroundGeolocation({
      database: ':memory:',
      network: new ManualNetwork('wifi'),
      device: { uuid: device },
    });
    try {
      await bg.ready({
        http: { url: `${server.url}/locations`, autoSync: false, ...http },
        logger: { logLevel: 'OFF' },
      });
      const replies: string[] = [];
      bg.onHttp((event) => replies.push(event.responseText));
      const uuids: string[] = [];
      for (let i = 0; i < count; i++) {
        const location = await bg.store.insertLocation({
          latitude: 48 + i / 1000,
          longitude: 11 + i / 1000,
          accuracy: 5,
        });
        uuids.push(location.uuid);
      }
      await bg.sync();
      expect(await bg.getCount()).toBe(0);
      return { uuids, replies };
    } finally {
      await bg.close();
    }
  }

  const storedUuids = async (device: string): Promise<string[]> =>
    ((await server.admin(`/api/devices/${device}/locations?limit=100000`)).body as { uuid: string }[])
      .map((r) => r.uuid)
      .sort();

  it.each([
    ['the default root, one by one', { params: { device_id: 'sdk-default' } }, 'sdk-default'],
    ['a custom root', { rootProperty: 'data', params: { device: { uuid: 'sdk-custom' } } }, 'sdk-custom'],
    ['the record at the root (".")', { rootProperty: '.', params: { device_id: 'sdk-dot' } }, 'sdk-dot'],
    [
      'batchSync with maxBatchSize',
      { batchSync: true, maxBatchSize: 4, params: { device_id: 'sdk-batch' } },
      'sdk-batch',
    ],
    [
      'a "." batch with the device in a header',
      { rootProperty: '.', batchSync: true, maxBatchSize: 5, headers: { 'X-Device-Id': 'sdk-dot-batch' } },
      'sdk-dot-batch',
    ],
  ])('stores every record once with %s', async (_name, http, device) => {
    const { uuids, replies } = await uploadWith(http, 10);
    expect(await storedUuids(device)).toEqual([...uuids].sort());
    const stored = replies.map((text) => (JSON.parse(text) as { stored: number }).stored);
    expect(stored.reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('carries a command queued through the admin API on the next reply, and marks it delivered', async () => {
    await uploadWith({ params: { device_id: 'sdk-remote' } }, 1);
    const queued = await server.admin('/api/devices/sdk-remote/commands', {
      method: 'POST',
      body: { command: ['setConfig', { http: { autoSyncThreshold: 5 } }] },
    });
    expect(queued.body.status).toBe('pending');
    const { replies } = await uploadWith({ params: { device_id: 'sdk-remote' } }, 2);
    const commands = replies.map(
      (text) => (JSON.parse(text) as { background_geolocation?: unknown }).background_geolocation,
    );
    expect(commands).toEqual([[['setConfig', { http: { autoSyncThreshold: 5 } }]], undefined]);
    expect((await server.admin('/api/devices/sdk-remote/commands')).body).toEqual([
      expect.objectContaining({ status: 'delivered', deliveredAt: expect.any(String) }),
    ]);
  });
});
