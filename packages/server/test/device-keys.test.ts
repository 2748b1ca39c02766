// Device keys (issue 40) and devices that hold a credential (issue 41 item 5): a key is made by the
// operator and shown once, accepted wherever a tracker can carry it (Bearer, HTTP Basic password,
// ?key= in the URL), stopped at once by a revocation or a rotation, and never written to a log
// line, /metrics or the audit trail. A device that holds a token or a key takes no anonymous upload.
import { startServer } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_KEYS_VERSION, migrate } from '../src/db/migrations.js';
import { backends } from './helpers/backends.js';
import { openStorage } from './helpers/open-storage.js';
import { rawSql } from './helpers/raw-sql.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { JSON_TYPE, send, storedOf } from './helpers/trackers.js';

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const osmandUrl = (device: string, time: number, extra = '') =>
  `/osmand?id=${device}&lat=52.52&lon=13.405&timestamp=${time}${extra}`;
const ownTracks = (tst: number) => JSON.stringify({ _type: 'location', lat: 52.5, lon: 13.4, tst, tid: 'jj' });

const overlandPoint = JSON.stringify({
  locations: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [13.4, 52.5] },
      properties: { timestamp: '2024-05-01T10:00:00Z' },
    },
  ],
});

/** The counter of refused credentials for `code`, as /metrics exposes it. */
async function refusedCount(server: TestServer, code: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`waypost_uploads_refused_credentials_total{code="${code}"}`));
  return line ? Number(line.split(' ').at(-1)) : NaN;
}

describe.each(backends)('device keys on $name', (backend) => {
  let server: TestServer;
  const logLines: string[] = [];
  const keysSeen: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(backend, { logger: true, logStream: { write: (line) => void logLines.push(line) } });
  });
  afterAll(async () => server.stop());

  const makeKey = async (device: string): Promise<string> => {
    const made = await server.admin(`/api/devices/${device}/key`, { method: 'POST' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ deviceId: device, key: expect.stringMatching(/^wpk_[\w-]{43}$/) });
    keysSeen.push(made.body.key);
    return made.body.key as string;
  };

  it('is shown once, and taken as Bearer, HTTP Basic password and ?key=, the key naming the device', async () => {
    const key = await makeKey('kp-1');
    const state = await server.admin('/api/devices/kp-1/key');
    expect(state.body).toEqual({ deviceId: 'kp-1', createdAt: expect.any(String), revokedAt: null });
    expect(state.text).not.toContain(key);

    // Bearer (GPSLogger, Overland, the Capacitor plugin): the key wins over the name in the body.
    const viaBearer = await server.post(
      '/locations',
      { device_id: 'someone-else', location: record('k-1') },
      bearer(key),
    );
    expect(viaBearer).toMatchObject({ status: 200, body: { stored: 1 } });
    // HTTP Basic (OwnTracks), the user free.
    const viaBasic = await send(server, 'POST', '/owntracks', ownTracks(1714557600), {
      ...JSON_TYPE,
      ...basic('jane', key),
      'x-limit-u': 'jane',
      'x-limit-d': 'phone',
    });
    expect(viaBasic).toMatchObject({ status: 200, text: '[]' });
    // In the URL (OsmAnd, Traccar Client), and never kept with the record.
    const viaUrl = await send(server, 'GET', osmandUrl('kp-1', 1714557700000, `&key=${key}`));
    expect(viaUrl).toMatchObject({ status: 200, body: { stored: 1 } });
    const stored = await storedOf(server, 'kp-1');
    expect(stored).toHaveLength(3);
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(await storedOf(server, 'someone-else')).toEqual([]);
    expect(await storedOf(server, 'jane-phone')).toEqual([]);
  });

  it('stops at once when revoked or rotated, with a code the operator can act on', async () => {
    const first = await makeKey('kp-2');
    expect((await send(server, 'GET', osmandUrl('kp-2', 1714557600000, `&key=${first}`))).status).toBe(200);
    const rotated = await makeKey('kp-2');
    expect(rotated).not.toBe(first);
    const before = await refusedCount(server, 'KEY_REVOKED');
    const old = await send(server, 'GET', osmandUrl('kp-2', 1714557700000, `&key=${first}`));
    expect(old).toMatchObject({ status: 401, body: { code: 'KEY_REVOKED' } });
    expect((await send(server, 'GET', osmandUrl('kp-2', 1714557800000, `&key=${rotated}`))).status).toBe(200);

    expect((await server.admin('/api/devices/kp-2/key', { method: 'DELETE' })).body).toEqual({ revoked: true });
    expect((await server.admin('/api/devices/kp-2/key')).body).toMatchObject({
      createdAt: null,
      revokedAt: expect.any(String),
    });
    const bearerReply = await server.post('/locations', { location: record('k-2') }, bearer(rotated));
    expect(bearerReply).toMatchObject({ status: 401, body: { code: 'KEY_REVOKED' } });
    // The operator sees a tracker still trying with its old key, not a silent one.
    const health = await server.admin('/api/devices/kp-2/health');
    expect(health.body).toMatchObject({ authRefused: { code: 'KEY_REVOKED' } });
    // OwnTracks iOS deletes a message answered 4xx: a refused credential is a 503 there, kept on the phone.
    const owntracks = await send(server, 'POST', '/owntracks', ownTracks(1714557900), {
      ...JSON_TYPE,
      ...basic('kp', rotated),
    });
    expect(owntracks).toMatchObject({ status: 503, body: { code: 'KEY_REVOKED' } });
    expect(await refusedCount(server, 'KEY_REVOKED')).toBe(before + 3);
    // Without a key, the device that held one takes nothing either.
    const anonymous = await send(server, 'GET', osmandUrl('kp-2', 1714558000000));
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'CREDENTIAL_REQUIRED' } });
    expect(await storedOf(server, 'kp-2')).toHaveLength(2);

    const unknown = await send(server, 'GET', osmandUrl('kp-2', 1714558100000, `&key=wpk_${'A'.repeat(43)}`));
    expect(unknown).toMatchObject({ status: 401, body: { code: 'WRONG_KEY' } });
  });

  it('leaves one key in force when rotations race', async () => {
    await makeKey('kp-race');
    const made = await Promise.all(
      [1, 2, 3, 4].map(() => server.admin('/api/devices/kp-race/key', { method: 'POST' })),
    );
    const keys = made.map((reply) => reply.body.key as string);
    keysSeen.push(...keys);
    const answers = await Promise.all(
      keys.map(
        async (key, i) => (await send(server, 'GET', osmandUrl('kp-race', 1714557600000 + i, `&key=${key}`))).status,
      ),
    );
    expect(answers.filter((status) => status === 200)).toHaveLength(1);
    expect(answers.filter((status) => status === 401)).toHaveLength(3);
  });

  it('makes the device of a new id, so that a tracker can be set up before its first upload', async () => {
    expect((await server.admin('/api/devices/kp-new')).status).toBe(404);
    const key = await makeKey('kp-new');
    expect((await server.admin('/api/devices/kp-new')).status).toBe(200);
    expect((await server.post('/locations', { location: record('n-1') }, bearer(key))).status).toBe(200);
    expect((await server.admin('/api/devices/nobody/key', { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses an anonymous upload for a device that registered, on every route, and counts it', async () => {
    const registered = await server.post('/auth/register', { device_id: 'reg-1' });
    expect(registered.status).toBe(200);
    const token = (registered.body as Json).accessToken as string;
    const before = await refusedCount(server, 'CREDENTIAL_REQUIRED');

    const forged = [
      await server.post('/locations', { device_id: 'reg-1', location: record('f-1') }),
      await server.post('/locations', [record('f-2')], { 'x-device-id': 'reg-1' }),
      await send(server, 'GET', osmandUrl('reg-1', 1714557600000)),
      await send(server, 'POST', '/overland?device_id=reg-1', overlandPoint, JSON_TYPE),
    ];
    for (const reply of forged) expect(reply).toMatchObject({ status: 401, body: { code: 'CREDENTIAL_REQUIRED' } });
    const owntracks = await send(server, 'POST', '/owntracks', ownTracks(1714557600), {
      ...JSON_TYPE,
      'x-limit-u': 'reg',
      'x-limit-d': '1',
    });
    expect(owntracks).toMatchObject({ status: 503, body: { code: 'CREDENTIAL_REQUIRED' } });
    expect(await refusedCount(server, 'CREDENTIAL_REQUIRED')).toBe(before + 5);
    expect(await storedOf(server, 'reg-1')).toEqual([]);

    // Its own token still writes; a device that never had a credential still takes anonymous uploads.
    expect((await server.post('/locations', { location: record('r-1') }, bearer(token))).status).toBe(200);
    expect((await server.post('/locations', { device_id: 'free-1', location: record('x-1') })).status).toBe(200);
    expect(await storedOf(server, 'reg-1')).toHaveLength(1);
  });

  it('keeps every key out of the log lines, /metrics and the audit trail, which still records each change', async () => {
    expect(keysSeen.length).toBeGreaterThan(0);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const audit = await server.admin('/api/audit?limit=1000');
    const actions = (audit.body.entries as { action: string; target: string }[]).map((e) => `${e.action} ${e.target}`);
    expect(actions).toEqual(
      expect.arrayContaining(['POST /api/devices/:id/key {"id":"kp-2"}', 'DELETE /api/devices/:id/key {"id":"kp-2"}']),
    );
    const csv = await server.admin('/api/audit?format=csv&limit=1000');
    expect(logLines.join('\n')).toContain('key=[REDACTED]');
    for (const key of keysSeen) {
      for (const [where, text] of [
        ['log', logLines.join('\n')],
        ['metrics', metrics],
        ['audit', audit.text],
        ['audit csv', csv.text],
      ]) {
        expect(text!.includes(key), `${where} holds a key`).toBe(false);
      }
    }
  });
});

describe.each(backends)('the device keys migration on $name', (backend) => {
  it('marks the devices that registered before it, which then take no anonymous upload', async () => {
    const storage = await backend.create();
    try {
      const before = await openStorage(storage.options);
      await migrate(before, DEVICE_KEYS_VERSION - 1);
      await before.close();
      for (const id of ['registered-once', 'never-registered'])
        await rawSql(
          storage.options,
          `INSERT INTO devices (id, info, created_at, status) VALUES (?, '{}', 1, 'active')`,
          [id],
        );
      // Its refresh token long expired: the device still holds a credential.
      await rawSql(
        storage.options,
        `INSERT INTO refresh_tokens (token_hash, device_id, created_at, expires_at) VALUES ('h', 'registered-once', 1, 2)`,
      );
      const server = await startServer({ port: 0, adminToken: 'admin-secret', ...storage.options });
      try {
        const upload = async (device: string) =>
          (
            await fetch(`${server.url}/locations`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ device_id: device, location: record('m-1') }),
            })
          ).json();
        expect(await upload('registered-once')).toMatchObject({ code: 'CREDENTIAL_REQUIRED' });
        expect(await upload('never-registered')).toMatchObject({ stored: 1 });
      } finally {
        await server.close();
      }
    } finally {
      await storage.drop();
    }
  });
});
