import { describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTokenRig } from './helpers/token-rig.js';

const TTL_SECONDS = 600;

describe.each(backends)('the SDK with device tokens against the service on $name', (backend) => {
  it('a token that expires mid-run is refreshed (after a 401, then before expiry), a remote command arrives, every record is stored once', async () => {
    const { clock, server, bg, http, auth } = await startTokenRig(backend, TTL_SECONDS);
    const registered = await server.post('/auth/register', { device_id: 'token-device', model: 'test-rig' });
    expect(registered.status).toBe(200);
    const { accessToken, refreshToken } = registered.body as { accessToken: string; refreshToken: string };
    await bg.ready({
      http: { url: `${server.url}/locations`, autoSync: false, batchSync: true, maxBatchSize: 5 },
      authorization: {
        accessToken,
        refreshToken,
        refreshUrl: `${server.url}/auth/refresh`,
        refreshPayload: { refresh_token: '{refreshToken}' },
        expires: -1, // unknown: the first expiry is discovered through a 401
      },
    });
    const uuids: string[] = [];
    const record = async (n: number) => {
      for (let i = 0; i < n; i++)
        uuids.push((await bg.store.insertLocation({ latitude: 48 + uuids.length / 1000, longitude: 11 })).uuid);
    };

    await record(5);
    expect(await bg.sync()).toHaveLength(5);

    const queued = await server.admin('/api/devices/token-device/commands', {
      method: 'POST',
      body: { command: ['setConfig', { http: { maxBatchSize: 2 } }] },
    });
    expect(queued.status).toBeLessThan(300);

    // The access token expires on the server; the SDK does not know when.
    await clock.advance((TTL_SECONDS + 60) * 1000);
    await record(5);
    expect(await bg.sync()).toHaveLength(5);
    expect(http.map((e) => e.status)).toEqual([200, 401, 200]);
    expect(auth).toEqual([expect.objectContaining({ success: true, status: 200 })]);
    const afterFirstRefresh = (await bg.getState()).authorization!;
    expect(afterFirstRefresh.refreshToken).not.toBe(refreshToken);
    expect(afterFirstRefresh.expires).toBe(Math.floor(clock.now() / 1000) + TTL_SECONDS);
    // The command rode on the reply that accepted the retried batch.
    expect((await bg.getState()).http.maxBatchSize).toBe(2);
    // Refresh tokens rotate: the first one is spent.
    const reused = await fetch(`${server.url}/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ refresh_token: refreshToken }).toString(),
    });
    expect(reused.status).toBe(401);

    // Now the SDK knows the expiry: it refreshes before uploading, and no upload meets a 401.
    await clock.advance(TTL_SECONDS * 1000);
    await record(3);
    expect(await bg.sync()).toHaveLength(3);
    expect(http.map((e) => e.status)).toEqual([200, 401, 200, 200, 200]);
    expect(auth.map((e) => e.success)).toEqual([true, true]);

    const stored = (await server.admin('/api/devices/token-device/locations?limit=1000')).body as { uuid: string }[];
    expect(stored.map((r) => r.uuid).sort()).toEqual([...uuids].sort());
    const log = await bg.logger.getLog();
    expect(log).not.toContain(accessToken);
    expect(log).not.toContain(refreshToken);
  });
});
