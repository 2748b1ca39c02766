// The SDK's log, uploaded to Waypost's own server the way a device named by http.params uploads
// (the README's SDK example, the agent, the simulator): it is filed under that device, so the
// dashboard's device view lists it, and no device named after the SDK's uuid appears.
import { createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer } from './helpers/client.js';

describe('logger.uploadLog(<server>/api/logs) from a device named by http.params', () => {
  it('files the log under the device that uploads the locations', async () => {
    const server = await startTestServer(backends[0]!);
    onTestFinished(() => server.stop());
    const bg = await createBackgroundGeolocation({
      database: ':memory:',
      network: new ManualNetwork('wifi'),
      device: { uuid: '0f1e2d3c-uuid-of-the-sdk' },
    });
    onTestFinished(() => bg.close());
    await bg.ready({ http: { url: `${server.url}/locations`, params: { device_id: 'truck-17' } } });
    await bg.insertLocation({ latitude: 45.5, longitude: -73.56 });
    await bg.sync();
    expect(await bg.logger.uploadLog(`${server.url}/api/logs`)).toBe(true);

    const logs = (await server.admin('/api/logs')).body as { deviceId: string }[];
    expect(logs.map((log) => log.deviceId)).toEqual(['truck-17']);
    const devices = (await server.admin('/api/devices')).body as { id: string }[];
    expect(devices.map((device) => device.id)).toEqual(['truck-17']);
  });
});
