import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualNetwork } from '@waypost/node';
import { openSdk, tempDir } from '../support/harness.js';

describe('two processes on one database: the service and an app', () => {
  it('a configuration saved by the app is picked up by reloadConfig(); a bad one is ignored', async () => {
    const database = join(tempDir(), 'shared.db');
    const service = await openSdk({ database, network: new ManualNetwork('wifi') });
    await service.ready({
      http: { url: 'http://127.0.0.1:9/locations', autoSync: false },
      app: { heartbeatInterval: 60 },
    });
    expect(await service.reloadConfig()).toEqual([]);

    const app = await openSdk({ database, network: new ManualNetwork('wifi') });
    expect((await app.getState()).http.url).toBe('http://127.0.0.1:9/locations');
    await app.setConfig({ http: { autoSyncThreshold: 5 }, app: { heartbeatInterval: 120 } });
    await app.close();

    expect((await service.reloadConfig()).sort()).toEqual(['app.heartbeatInterval', 'http.autoSyncThreshold']);
    expect(await service.getState()).toMatchObject({
      http: { autoSyncThreshold: 5, url: 'http://127.0.0.1:9/locations' },
      app: { heartbeatInterval: 120 },
    });
    expect(await service.reloadConfig()).toEqual([]);
    expect(await service.logger.getLog()).toMatch(/configuration changed by another process/);
  });

  it('an app that never called ready() does not write its stale tracking state over the service', async () => {
    const database = join(tempDir(), 'shared.db');
    const service = await openSdk({ database });
    await service.ready({ http: { autoSync: false }, geolocation: { stationaryRadius: 1 } });
    await service.start();
    const app = await openSdk({ database });
    await service.recordLocation({ latitude: 45, longitude: -73 });
    await service.recordLocation({ latitude: 45.001, longitude: -73 });
    const odometer = (await service.getState()).odometer;
    expect(odometer).toBeGreaterThan(100);
    await service.close();
    await app.close(); // closes after the service: its snapshot (odometer 0) must not land
    const reopened = await openSdk({ database });
    await reopened.ready({ reset: false });
    expect((await reopened.getState()).odometer).toBe(odometer);
  });
});
