// `waypost server --silent-after S` as an operator runs it (the built command, a child process): a
// device that stops uploading is named silent S seconds after its last upload, not after the
// default hour. This is what lets a `waypost simulate --faults` run against a real `waypost server`
// finish in minutes (docs/device-health.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../../server/test/helpers/webhook-receiver.js';
import { spawnCli } from './support/agent-process.js';

const ADMIN = 'silent-after-admin-token';
const SILENT_AFTER_S = 2;

describe('waypost server --silent-after', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-silent-after-'));
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names a device that went quiet silent that many seconds after its last upload', { timeout: 30_000 }, async () => {
    const server = spawnCli([
      'server',
      '--port',
      '0',
      '--database',
      join(dir, 'server.db'),
      '--admin-token',
      ADMIN,
      '--silent-after',
      String(SILENT_AFTER_S),
      '--webhook',
      receiver.url,
      '--sink-events',
      'device.silent',
    ]);
    const [, url] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const location = { uuid: 'u-1', timestamp: new Date().toISOString(), coords: { latitude: 1, longitude: 2 } };
    const upload = await fetch(`${url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location, device_id: 'quiet-1' }),
    });
    expect(upload.status).toBe(200);

    // The event is awaited (the receiver resolves on its delivery); the default hour would never come.
    await receiver.waitFor(1, undefined, 20_000);
    const [event] = receiver.accepted<{
      type: string;
      device: string;
      timestamp: string;
      receivedAt: string;
      data: { lastSeen: string; silentAfterSeconds: number };
    }>();
    expect(event).toMatchObject({ type: 'device.silent', device: 'quiet-1', data: { silentAfterSeconds: 2 } });
    // Silent from the moment S seconds passed without an upload, and declared no sooner.
    const lastSeen = Date.parse(event!.data.lastSeen);
    expect(Date.parse(event!.timestamp) - lastSeen).toBe(SILENT_AFTER_S * 1000);
    expect(Date.parse(event!.receivedAt)).toBeGreaterThan(lastSeen + SILENT_AFTER_S * 1000);

    // The health answer says the same threshold and names the device silent.
    const health = (await (
      await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${ADMIN}` } })
    ).json()) as { silentAfterSeconds: number; devices: { id: string; state: string }[] };
    expect(health.silentAfterSeconds).toBe(SILENT_AFTER_S);
    expect(health.devices.find((d) => d.id === 'quiet-1')).toMatchObject({ state: 'silent' });

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual([0, null]);
  });
});
