import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record } from './helpers/client.js';
import { buildServer, killProcess, serverProcesses } from './helpers/spawn-server.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

// Issue 30: a webhook event comes to its receiver twice only when the attempt that sent it first
// has no recorded outcome, and then right after itself (nothing of the device between the two).
const SCRIPT = fileURLToPath(new URL('./fixtures/fleet-server-process.mjs', import.meta.url));

const processes = serverProcesses(SCRIPT);
const spawnServer = processes.spawn;
beforeAll(buildServer);
afterAll(processes.killAll);

describe('a webhook sender killed after the receiver took five events and with the sixth on its way', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-in-doubt-'));
  const receiver = new WebhookReceiver();
  afterAll(async () => {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the next process sends the sixth again (reported in doubt), and none of the five', async () => {
    await receiver.start();
    receiver.holdFrom = 5; // five answered 204, the sixth taken and never answered
    const options = {
      database: join(dir, 'server.db'),
      webhooks: [receiver.url],
      sinkEvents: ['location'],
      deliveryPollMs: 100,
      deliveryLeaseMs: 4000, // an attempt may take a quarter of it: 1 s
    };
    const first = await spawnServer(options);
    const records = Array.from({ length: 10 }, (_, i) =>
      record(`d-${i}`, 48, 11, new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString()),
    );
    const response = await fetch(`${first.url}/locations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location: records, device_id: 'd' }),
    });
    expect(response.status).toBe(200);
    await receiver.waitFor(1, (r) => r.status === 0);
    await killProcess(first.child);

    receiver.holdFrom = null;
    const second = await spawnServer(options);
    await receiver.waitFor(10);
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    const firsts = [...new Set(ids)];
    expect(firsts).toHaveLength(10);
    // In order, the sixth twice in a row and nothing else twice.
    expect(ids).toEqual([...firsts.slice(0, 6), firsts[5], ...firsts.slice(6)]);
    const metrics = await (
      await fetch(`${second.url}/metrics`, { headers: { authorization: 'Bearer admin-secret' } })
    ).text();
    // Each attempt on it that could be a repeat is counted (one that timed out leaves it in doubt).
    expect(metrics).toMatch(/^waypost_sink_resent_in_doubt_total\{sink="[^"]+"\} [1-9]\d*$/m);
    await new Promise((resolve) => (second.child.once('exit', resolve), second.child.stdin!.end()));
  });
});
