import { describe, expect, it } from 'vitest';
import { call, orgToken, regData } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { startTokenRig } from './helpers/token-rig.js';

const TTL_SECONDS = 600;

describe.each(backends)("the SDK against the anchor's routes on $name", (backend) => {
  it('registers with org and device info, uploads, refreshes with the Bearer access token on expiry, and stops when its device is deleted', async () => {
    const { clock, server, bg, http, auth } = await startTokenRig(backend, TTL_SECONDS);
    // What an app does at first launch against the demo server: register with org and device info.
    const registered = await call(server, 'POST', '/api/register', { body: regData('fleet', 'sdk-phone') });
    expect(registered.status).toBe(200);
    const { accessToken, refreshToken, expires } = registered.body as {
      accessToken: string;
      refreshToken: string;
      expires: number;
    };
    await bg.ready({
      http: { url: `${server.url}/api/locations`, autoSync: false, batchSync: true },
      logger: { logLevel: 'OFF' },
      authorization: {
        accessToken,
        refreshToken,
        refreshUrl: `${server.url}/api/refresh_token`,
        refreshPayload: { refresh_token: '{refreshToken}' },
        // refreshHeaders stays the default: Authorization: Bearer {accessToken}
        expires: -1, // as the demo server answers: the first expiry is discovered through a 401
      },
    });
    await bg.start();
    const record = async (n: number) => {
      for (let i = 0; i < n; i++) await bg.insertLocation({ latitude: 45 + i / 1000, longitude: -73 });
    };

    await record(3);
    expect(await bg.sync()).toHaveLength(3);

    // The token expires unannounced: the upload gets 401 (the demo server's 403 would never be
    // refreshed), the SDK refreshes with its Bearer access token and the retried batch is stored.
    await clock.advance((TTL_SECONDS + 60) * 1000);
    await record(2);
    expect(await bg.sync()).toHaveLength(2);
    expect(http.map((e) => e.status)).toEqual([200, 401, 200]);
    expect(auth).toEqual([expect.objectContaining({ success: true, status: 200 })]);
    expect(bg.config.current.authorization.refreshToken).not.toBe(refreshToken);
    expect(bg.config.current.authorization.expires).toBe(Math.floor(clock.now() / 1000) + TTL_SECONDS);
    expect(expires).toBeGreaterThan(0);

    // Now the SDK knows the expiry: it refreshes before uploading, and no upload meets a 401.
    await clock.advance(TTL_SECONDS * 1000);
    await record(2);
    expect(await bg.sync()).toHaveLength(2);
    expect(http.map((e) => e.status)).toEqual([200, 401, 200, 200]);
    expect(auth.map((e) => e.success)).toEqual([true, true]);

    const rows = await call(server, 'GET', '/api/jwt/locations', { token: await orgToken(server, 'fleet') });
    expect(rows.body).toHaveLength(7);
    expect(rows.body[0]).toMatchObject({ device_id: 'sdk-phone', company_token: 'fleet' });

    // The dashboard deletes the device: its next upload is answered 410 ["stop"] and the SDK stops.
    const deleted = await call(server, 'DELETE', '/api/jwt/devices/sdk-phone', { token: server.adminToken });
    expect(deleted.body).toEqual({ success: true, deleted: 1 });
    expect(bg.tracking.enabled).toBe(true);
    await record(1);
    await bg.sync().catch(() => undefined);
    expect(http.at(-1)?.status).toBe(410);
    expect(bg.tracking.enabled).toBe(false);
  });
});
