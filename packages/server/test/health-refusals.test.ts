// Every refusal named (issue 39): a device that reaches the server and is refused, before the
// upload's handler runs (a body nested too deep, too large, of another type, over the rate limit)
// is named at once, with certainty, from what the server answered; its report is read (kept as
// that request's word), never its body. Before, such a device was "live" for an hour, then "no network".
import { ManualClock } from '@waypost/node';
import { formatHealthHeader } from '@waypost/sdk/internal';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSdk } from '../../node/test/support/harness.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';

const START = Date.UTC(2026, 11, 1, 8);
const MIN = 60_000;

/** A record whose extras nest `depth` objects deep (the SDK takes it; the server's limit is 32). */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}

describe.each(backends)('refused uploads named from what the server answered, on $name', (backend) => {
  const clock = new ManualClock(START);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock.now(), bodyLimitBytes: 64 * 1024 });
  });
  afterAll(() => server.stop());

  const health = async (id: string): Promise<Json> => (await server.admin(`/api/devices/${id}/health`)).body;
  const report = (queued: number) => formatHealthHeader({ version: '0.1.0', queued, network: 'wifi', tracking: true });

  it('a body nested too deep (400 TOO_DEEP, which the SDK accepts) names the real SDK failing at once', async () => {
    const id = `${backend.name}-deep`;
    const bg = await openSdk({ clock });
    // Named in its body only (the SDK's usual setting): its report names it too (`dev`), so the
    // server knows whose a refused upload was without reading the refused body.
    await bg.ready({ http: { url: `${server.url}/locations`, params: { device_id: id } } });
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync(); // the server says it reads health reports
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4 });
    await bg.sync();
    // Tracking never started: it says so, and nothing was refused.
    expect(await health(id)).toMatchObject({ state: 'stopped', inferred: false, refused: null });

    await clock.advance(MIN);
    // Within the SDK's own bound on extras (32 levels), beyond the server's on the whole body.
    await bg.store.insertLocation({ latitude: 52.5, longitude: 13.4, extras: nested(30) });
    const refusals: number[] = [];
    const off = bg.onHttp((event) => refusals.push(event.status));
    await bg.sync().catch(() => undefined);
    off.remove();
    expect(refusals).toContain(400);

    const answer = await health(id);
    expect(answer).toMatchObject({
      state: 'failing',
      cause: 'records-refused',
      inferred: false,
      since: new Date(clock.now()).toISOString(),
      refused: { code: 'TOO_DEEP', cause: 'records-refused', at: new Date(clock.now()).toISOString() },
      authRefused: null,
    });
    // What that refused request said is kept beside it, not as the device's own report.
    expect(answer.refused.report).toMatchObject({ version: '0.1.0', queued: 1, device: id });
    expect(answer.history[0]).toMatchObject({ state: 'failing', cause: 'records-refused', inferred: false });
  });

  it('an upload cut mid-body (a proxy or link dropped it) is no refusal of its records', async () => {
    const id = `${backend.name}-cut`;
    const registered = await server.admin('/auth/register', { method: 'POST', body: { device_id: id } });
    const token = registered.body.accessToken as string;
    const auth = { authorization: `Bearer ${token}`, 'waypost-health': report(2) };
    expect((await server.post('/locations', { location: record('c1') }, auth)).status).toBe(200);
    await clock.advance(MIN);
    // Half the body, then the connection ends: the server answers a request the device never sees.
    const body = JSON.stringify({ location: record('c2') });
    const { port } = new URL(server.url);
    const answered = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /locations HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
            `authorization: ${auth.authorization}\r\nwaypost-health: ${auth['waypost-health']}\r\n` +
            `content-length: ${body.length}\r\n\r\n${body.slice(0, body.length >> 1)}`,
        );
        socket.end();
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    // Whatever the server answered the cut request, the device is not named refused for it.
    expect(answered === '' || /^HTTP\/1\.1 4\d\d/.test(answered)).toBe(true);
    expect(await health(id)).toMatchObject({ refused: null });
    expect((await health(id)).cause).not.toBe('records-refused');
  });

  it('a device refused many times a second costs one write; each new cause is one more', async () => {
    const id = `${backend.name}-busy`;
    const registered = await server.admin('/auth/register', { method: 'POST', body: { device_id: id } });
    const token = registered.body.accessToken as string;
    const auth = { authorization: `Bearer ${token}`, 'waypost-health': report(3) };
    expect((await server.post('/locations', { location: record('b1') }, auth)).status).toBe(200);
    const deep = JSON.stringify({ location: { ...record('b2'), extras: nested(40) } });
    await clock.advance(1000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => server.post('/locations', deep, auth)));
    expect(new Set(answers.map((a) => a.body.code))).toEqual(new Set(['TOO_DEEP']));
    const after = await health(id);
    const failing = after.history.filter((h: Json) => h.state === 'failing');
    expect(failing).toHaveLength(1);

    // Too large for the server (413, refused while reading): another cause, written at once.
    await clock.advance(1000);
    const big = JSON.stringify({ location: { ...record('b3'), extras: { text: 'x'.repeat(70 * 1024) } } });
    expect((await server.post('/locations', big, auth)).body.code).toBe('BODY_TOO_LARGE');
    expect(await health(id)).toMatchObject({
      state: 'failing',
      cause: 'client-errors',
      inferred: false,
      refused: { code: 'BODY_TOO_LARGE' },
    });
    // A content type the route does not take (415, refused before any byte is read): the same
    // cause, so written once the minute is over.
    await clock.advance(MIN);
    const plain = await fetch(`${server.url}/locations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(plain.status).toBe(415);
    expect(await health(id)).toMatchObject({ cause: 'client-errors', refused: { code: 'UNSUPPORTED_MEDIA_TYPE' } });

    // Still refused long after: certain while it keeps trying; an accepted upload ends it.
    await clock.advance(50 * MIN);
    expect((await server.post('/locations', deep, auth)).status).toBe(400);
    expect(await health(id)).toMatchObject({ cause: 'records-refused', inferred: false });
    await clock.advance(1000);
    expect((await server.post('/locations', { location: record('b4') }, auth)).status).toBe(200);
    expect(await health(id)).toMatchObject({ state: 'live', cause: 'reporting', inferred: false });
    // And a refusal right after an accepted upload is noted again at once.
    await clock.advance(1000);
    expect((await server.post('/locations', deep, auth)).status).toBe(400);
    expect(await health(id)).toMatchObject({ cause: 'records-refused', inferred: false });
  });

  it('writes nothing for a forged token, a device named only in the body, or a device that does not exist', async () => {
    const victim = `${backend.name}-victim`;
    expect((await server.post('/locations', { location: record('v1'), device_id: victim })).status).toBe(200);
    const deep = { location: { ...record('v2'), extras: nested(40) }, device_id: victim };
    expect((await server.post('/locations', deep)).body.code).toBe('TOO_DEEP');
    const registered = await server.admin('/auth/register', { method: 'POST', body: { device_id: 'other' } });
    const [head, , signature] = (registered.body.accessToken as string).split('.');
    const claims = Buffer.from(JSON.stringify({ sub: victim, iat: 1, exp: 9e9 })).toString('base64url');
    const forged = await server.post('/locations', deep, { authorization: `Bearer ${head}.${claims}.${signature}` });
    expect([400, 401]).toContain(forged.status);
    expect(await health(victim)).toMatchObject({ state: 'live', refused: null });
    expect((await server.post('/locations', deep, { 'x-device-id': 'nobody-here' })).status).toBe(400);
    expect((await server.admin('/api/devices/nobody-here/health')).status).toBe(404);
  });
});

describe('over the rate limit (429 with Retry-After, before anything is read)', () => {
  const clock = new ManualClock(START);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!, { now: () => clock.now(), rateLimitPerAddress: 1 });
  });
  afterAll(() => server.stop());

  it('names the device waiting, told to wait, for certain', async () => {
    const id = 'limited';
    const headers = { 'x-device-id': id };
    let status = 200;
    for (let i = 0; status === 200; i++)
      status = (await server.post('/locations', { location: record(`l${i}`) }, headers)).status;
    expect(status).toBe(429);
    await clock.advance(MIN); // the bucket fills again: the admin may ask
    expect((await server.admin(`/api/devices/${id}/health`)).body).toMatchObject({
      state: 'waiting',
      cause: 'retry-after',
      inferred: false,
      refused: { code: 'RATE_LIMITED' },
    });
  });
});
