import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { verifyWebhook } from '../../server/src/fleet/sinks/webhook-signature.js';
import { WebhookReceiver } from '../../server/test/helpers/webhook-receiver.js';
import { captureIo } from './support/capture-io.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypost-cli-server-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('waypost server', () => {
  it('prints its URL (not the admin token it was given), serves until SIGTERM, then closes and exits 0', async () => {
    const io = captureIo();
    const running = main(
      ['server', '--port', '0', '--database', join(dir, 'server.db'), '--admin-token', 'tok-123-long-enough'],
      io,
    );
    const [, url] = await io.printed(/^url: (http:\/\/127\.0\.0\.1:\d+)$/m);
    expect(io.out()).toContain('admin token: the one given by --admin-token (not printed)\n');
    expect(io.out()).not.toContain('tok-123-long-enough');
    expect(io.out()).toContain(`dashboard: ${url}/ (log in with the admin token)\n`);
    expect(io.out()).not.toContain('?token=');

    const upload = await fetch(`${url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        location: { uuid: 'u-1', timestamp: new Date().toISOString(), coords: { latitude: 1, longitude: 2 } },
        device_id: 'd1',
      }),
    });
    expect(upload.status).toBe(200);
    const devices = await fetch(`${url}/api/devices`, { headers: { authorization: 'Bearer tok-123-long-enough' } });
    expect(((await devices.json()) as { id: string }[]).map((d) => d.id)).toEqual(['d1']);

    io.stop();
    expect(await running).toBe(0);
    expect(io.err()).toContain('SIGTERM: closing...\nclosed\n');
    await expect(fetch(`${url}/api/devices`)).rejects.toThrow();
  });

  it('--webhook (repeatable) sends fleet events to each URL, signed with the secret it prints', async () => {
    const receivers = [await new WebhookReceiver().start(), await new WebhookReceiver().start()];
    const io = captureIo();
    const running = main(
      [
        'server',
        '--port',
        '0',
        '--database',
        join(dir, 'server.db'),
        '--admin-token',
        'tok-123-long-enough',
        ...receivers.flatMap((r) => ['--webhook', r.url]),
        '--sink-events',
        'geofence.enter,geofence.exit',
      ],
      io,
    );
    try {
      const [, url] = await io.printed(/^url: (http:\/\/127\.0\.0\.1:\d+)$/m);
      const secrets = receivers.map(
        (r) => new RegExp(`^webhook: ${r.url} \\(secret (whsec_\\S+)\\)$`, 'm').exec(io.out())?.[1],
      );
      expect(secrets.every((s) => s !== undefined)).toBe(true);
      const admin = { authorization: 'Bearer tok-123-long-enough', 'content-type': 'application/json' };
      const fence = { identifier: 'home', latitude: 1, longitude: 2, radius: 100 };
      await fetch(`${url}/api/geofences`, { method: 'POST', headers: admin, body: JSON.stringify(fence) });
      const location = { uuid: 'u-1', timestamp: new Date().toISOString(), coords: { latitude: 1, longitude: 2 } };
      await fetch(`${url}/locations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ location, device_id: 'd1' }),
      });
      await Promise.all(receivers.map((r) => r.waitFor(1)));
      receivers.forEach((receiver, i) => {
        const [request] = receiver.requests;
        expect(JSON.parse(request!.body)).toMatchObject({ type: 'geofence.enter', device: 'd1', late: false });
        const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } = request!.headers;
        expect(verifyWebhook(secrets[i]!, String(id), Number(timestamp), request!.body, String(signature))).toBe(true);
      });
    } finally {
      io.stop();
      expect(await running).toBe(0);
      await Promise.all(receivers.map((r) => r.stop()));
    }
  });

  it('exits 1 with the reason when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const io = captureIo();
      expect(await main(['server', '--port', String(port), '--database', join(dir, 'server.db')], io)).toBe(1);
      expect(io.err()).toMatch(/waypost server: could not start: .*EADDRINUSE/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('--max-connections closes the connection over the limit at once and keeps those under it', async () => {
    const io = captureIo();
    const running = main(['server', '--port', '0', '--database', join(dir, 'server.db'), '--max-connections', '2'], io);
    const [, url] = await io.printed(/^url: http:\/\/127\.0\.0\.1:(\d+)$/m);
    const sockets = [0, 1, 2].map(() => connect(Number(url), '127.0.0.1'));
    try {
      const fates = await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<string>((resolve) => {
              // Served (an answer to a request on it: at the limit, /health says so with a 503
              // `connectionsFull`, issue 45), or closed without an answer.
              socket.once('data', (data) => {
                const text = data.toString();
                const full = text.startsWith('HTTP/1.1 503') && text.includes('"connectionsFull":true');
                resolve(text.startsWith('HTTP/1.1 200') || full ? 'served' : 'other');
              });
              socket.once('close', () => resolve('closed'));
              socket.on('error', () => undefined); // the refused one may be reset: 'close' follows
              socket.once('connect', () => socket.write('GET /health HTTP/1.1\r\nHost: waypost\r\n\r\n'));
            }),
        ),
      );
      expect(fates.sort()).toEqual(['closed', 'served', 'served']);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      io.stop();
      expect(await running).toBe(0);
    }
  });
});
