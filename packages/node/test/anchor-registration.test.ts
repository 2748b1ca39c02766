import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';

import { at, openSdk } from './support/harness.js';
import { Arrivals } from './support/arrivals.js';
import { DUMMY_TOKEN } from '@waypost/sdk/internal';
import type { HttpEvent } from '@waypost/node';

interface Seen {
  path: string;
  authorization: string | undefined;
  body: string;
}

/**
 * A small server speaking the anchor demo server's device API: POST /api/register hands out a
 * numbered token, /api/locations answers what the script says (406 for DUMMY_TOKEN, as the demo
 * server does), /api/refresh_token refreshes.
 */
async function demoServer(options: { register?: number[]; locations?: number[] } = {}) {
  const arrived = new Arrivals<Seen>();
  const seen = arrived.items;
  const registerStatuses = [...(options.register ?? [])];
  const locationStatuses = [...(options.locations ?? [])];
  let issued = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      arrived.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url === '/api/register') {
        const status = registerStatuses.shift() ?? 200;
        if (status !== 200) return json(status, { error: 'no' });
        issued++;
        return json(200, { accessToken: `access-${issued}`, refreshToken: `refresh-${issued}`, expires: -1 });
      }
      if (req.url === '/api/refresh_token') {
        issued++;
        return json(200, { accessToken: `access-${issued}`, refreshToken: `refresh-${issued}`, expires: -1 });
      }
      if (req.url === '/api/locations') {
        if (req.headers.authorization === `Bearer ${DUMMY_TOKEN}`) return json(406, {});
        return json(locationStatuses.shift() ?? 200, { success: true });
      }
      json(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url, seen, arrived, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const DEVICE = { uuid: 'dev-1', model: 'Pi 5', manufacturer: 'RPi', platform: 'linux', version: '6.1' };

describe('findOrCreateTransistorAuthorizationToken', () => {
  it('registers with org and device info, returns the token, and finds it again without a request', async () => {
    const server = await demoServer();
    const bg = await openSdk({ device: DEVICE });
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    expect(token).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1', expires: -1, url: server.url });
    expect(server.seen).toHaveLength(1);
    expect(JSON.parse(server.seen[0]!.body)).toEqual({
      org: 'acme',
      username: 'alice',
      uuid: 'dev-1',
      model: 'Pi 5',
      manufacturer: 'RPi',
      version: '6.1',
      platform: 'linux',
      framework: 'waypost',
    });
    expect(await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url)).toEqual(token);
    expect(server.seen).toHaveLength(1);
    await bg.destroyTransistorAuthorizationToken(server.url);
    expect((await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url)).accessToken).toBe(
      'access-2',
    );
  });

  it('the token configures uploads to /api/locations as a JWT', async () => {
    const server = await demoServer();
    const bg = await openSdk({ device: DEVICE });
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    await bg.ready({ transistorAuthorizationToken: token, http: { autoSync: false } });
    await bg.insertLocation(at(0));
    await bg.sync();
    expect(server.seen[1]).toMatchObject({ path: '/api/locations', authorization: 'Bearer access-1' });
  });

  it('finds the tokens a refresh rotated since registration, not the revoked ones saved with it', async () => {
    const server = await demoServer({ locations: [401] });
    const bg = await openSdk({ device: DEVICE });
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    await bg.ready({ transistorAuthorizationToken: token, http: { autoSync: false } });
    await bg.insertLocation(at(0));
    await bg.sync();
    expect(server.seen.map((s) => s.path)).toEqual([
      '/api/register',
      '/api/locations',
      '/api/refresh_token',
      '/api/locations',
    ]);
    // The app's next launch asks again, as the anchor's examples do, and readies with the answer.
    const again = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    expect(again).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(server.seen.filter((s) => s.path === '/api/register')).toHaveLength(1);
  });

  it('a refusal (403) rejects with REGISTRATION_FAILED; an unreachable server yields the anchor dummy token', async () => {
    const refused = await demoServer({ register: [403] });
    const bg = await openSdk({ device: DEVICE });
    await expect(bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', refused.url)).rejects.toMatchObject({
      code: 'REGISTRATION_FAILED',
    });
    const gone = await demoServer();
    await gone.close();
    expect(await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', gone.url)).toEqual({
      accessToken: DUMMY_TOKEN,
      refreshToken: DUMMY_TOKEN,
      expires: -1,
      url: gone.url,
    });
    await expect(bg.findOrCreateTransistorAuthorizationToken('', 'alice', gone.url)).rejects.toMatchObject({
      code: 'REGISTRATION_FAILED',
      key: 'orgname',
    });
  });
});

describe('406: register again', () => {
  it('a dummy token gets 406; the SDK registers again, applies the new token and delivers the queue', async () => {
    const server = await demoServer({ register: [500] });
    const bg = await openSdk({ device: DEVICE });
    const dummy = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    expect(dummy.accessToken).toBe(DUMMY_TOKEN);
    const http = new Arrivals<HttpEvent>();
    bg.onHttp(http.push);
    await bg.ready({ transistorAuthorizationToken: dummy });
    await bg.insertLocation(at(0));
    // Registering again runs beside the automatic upload that got the 406; its upload succeeds.
    await http.some((event) => event.success);
    await bg.idle();
    expect(await bg.getCount()).toBe(0);
    expect(server.seen.map((s) => [s.path, s.authorization])).toEqual([
      ['/api/register', undefined],
      ['/api/locations', `Bearer ${DUMMY_TOKEN}`],
      ['/api/register', undefined],
      ['/api/locations', 'Bearer access-1'],
    ]);
    expect((await bg.getState()).authorization).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(await bg.logger.getLog()).not.toContain('access-1');
  });

  it('registers again once per failure streak, and not at all for a server it did not register with', async () => {
    const server = await demoServer({ locations: [406, 406, 406] });
    const bg = await openSdk({ device: DEVICE });
    const token = await bg.findOrCreateTransistorAuthorizationToken('acme', 'alice', server.url);
    await bg.ready({ transistorAuthorizationToken: token, http: { autoSync: false } });
    await bg.insertLocation(at(0));
    await bg.sync().catch(() => undefined);
    // The retry after registering again runs on its own: the server sees it.
    await server.arrived.when((seen) => seen.filter((s) => s.path === '/api/locations').length === 2);
    await bg.sync().catch(() => undefined);
    const paths = server.seen.map((s) => s.path);
    expect(paths.filter((p) => p === '/api/register')).toHaveLength(2);
    expect(await bg.getCount()).toBe(1);

    const other = await demoServer({ locations: [406] });
    const plain = await openSdk({ device: DEVICE });
    await plain.ready({ http: { url: `${other.url}/api/locations`, autoSync: false } });
    await plain.insertLocation(at(0));
    await plain.sync().catch(() => undefined);
    expect(other.seen.map((s) => s.path)).toEqual(['/api/locations']);
  });
});
