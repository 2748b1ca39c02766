// A refusal names a device only on its credentials' word once it holds some: anyone can name a
// device outside the body (X-Device-Id, ?device_id=, the report's `dev`), so a forged anonymous
// request, refused, must not mark a device with a token or key failing and hide its real state.
// The same refusal carrying that device's token or key (Bearer, Basic or ?key=) is still noted.
import { ManualClock } from '@waypost/node';
import { formatHealthHeader } from '@waypost/sdk/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const START = Date.UTC(2026, 11, 1, 8);
const MIN = 60_000;

/** A body nested beyond the server's limit (32): refused 400 TOO_DEEP before any handler runs. */
function deepBody(uuid: string, deviceId: string): string {
  let extras: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 40; i++) extras = { inner: extras };
  return JSON.stringify({ location: { ...record(uuid), extras }, device_id: deviceId });
}

describe.each(backends)('a forged anonymous refusal naming a credentialed device, on $name', (backend) => {
  const clock = new ManualClock(START);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock.now() });
  });
  afterAll(() => server.stop());

  const health = async (id: string): Promise<Json> => (await server.admin(`/api/devices/${id}/health`)).body;
  const report = (queued: number, dev?: string) =>
    formatHealthHeader({ version: '0.1.0', queued, network: 'wifi', tracking: true, ...(dev ? { device: dev } : {}) });

  /** Three forged requests, each naming `id` one way; every one refused TOO_DEEP. */
  async function forge(id: string, uuid: string): Promise<void> {
    const body = deepBody(uuid, id);
    const answers = await Promise.all([
      server.post('/locations', body, { 'x-device-id': id, 'waypost-health': report(0) }),
      server.post(`/locations?device_id=${encodeURIComponent(id)}`, body, { 'waypost-health': report(0) }),
      server.post('/api/locations', body, { 'waypost-health': report(0, id) }),
    ]);
    expect(answers.map((a) => a.body.code)).toEqual(['TOO_DEEP', 'TOO_DEEP', 'TOO_DEEP']);
  }

  it('a device with a token: health says what it said; its own refused upload is noted', async () => {
    const id = `${backend.name}-tok`;
    const registered = await server.admin('/auth/register', { method: 'POST', body: { device_id: id } });
    const auth = { authorization: `Bearer ${registered.body.accessToken as string}`, 'waypost-health': report(2) };
    expect((await server.post('/locations', { location: record('t1') }, auth)).status).toBe(200);
    const before = await health(id);
    expect(before).toMatchObject({ state: 'live', refused: null });

    await forge(id, 't2');
    expect(await health(id)).toEqual(before);

    await clock.advance(MIN);
    expect((await server.post('/locations', deepBody('t3', id), auth)).body.code).toBe('TOO_DEEP');
    expect(await health(id)).toMatchObject({
      state: 'failing',
      cause: 'records-refused',
      inferred: false,
      refused: { code: 'TOO_DEEP', at: new Date(clock.now()).toISOString() },
    });
  });

  it('a device with a key: health says what it said; its refused upload is noted, the key in any place', async () => {
    const id = `${backend.name}-key`;
    const made = await server.admin(`/api/devices/${id}/key`, { method: 'POST' });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    const viaBearer = { authorization: `Bearer ${key}`, 'waypost-health': report(1) };
    expect((await server.post('/locations', { location: record('k1') }, viaBearer)).status).toBe(200);
    const before = await health(id);
    expect(before).toMatchObject({ state: 'live', refused: null });

    await forge(id, 'k2');
    expect(await health(id)).toEqual(before);

    // Its own refused upload, the key as Bearer (GPSLogger, Overland): noted.
    await clock.advance(MIN);
    expect((await server.post('/locations', deepBody('k3', id), viaBearer)).body.code).toBe('TOO_DEEP');
    expect(await health(id)).toMatchObject({
      state: 'failing',
      cause: 'records-refused',
      refused: { code: 'TOO_DEEP', at: new Date(clock.now()).toISOString() },
    });

    // Accepted again, then refused with the key in the URL (OsmAnd, Traccar Client), then as a
    // Basic password (OwnTracks): each noted, the body naming no one.
    await clock.advance(MIN);
    expect((await server.post('/locations', { location: record('k4') }, viaBearer)).status).toBe(200);
    expect(await health(id)).toMatchObject({ state: 'live', cause: 'reporting' });
    await clock.advance(MIN);
    const plain = await fetch(`${server.url}/locations?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(plain.status).toBe(415);
    expect(await health(id)).toMatchObject({
      cause: 'client-errors',
      refused: { code: 'UNSUPPORTED_MEDIA_TYPE', at: new Date(clock.now()).toISOString() },
    });
    await clock.advance(MIN);
    const basic = `Basic ${Buffer.from(`anyone:${key}`).toString('base64')}`;
    expect((await server.post('/locations', deepBody('k5', 'x'), { authorization: basic })).body.code).toBe('TOO_DEEP');
    expect(await health(id)).toMatchObject({
      cause: 'records-refused',
      refused: { code: 'TOO_DEEP', at: new Date(clock.now()).toISOString() },
    });
  });

  it('a device that never had a credential is still named by an anonymous refusal', async () => {
    const id = `${backend.name}-open`;
    expect((await server.post('/locations', { location: record('o1'), device_id: id })).status).toBe(200);
    await clock.advance(MIN);
    expect((await server.post('/locations', deepBody('o2', id), { 'x-device-id': id })).body.code).toBe('TOO_DEEP');
    expect(await health(id)).toMatchObject({ state: 'failing', refused: { code: 'TOO_DEEP' } });
  });
});
