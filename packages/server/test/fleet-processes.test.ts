import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from './helpers/backends.js';
import { record } from './helpers/client.js';
import { buildServer, killProcess, serverProcesses, type ServerProcess } from './helpers/spawn-server.js';
import { WebhookReceiver, type Received } from './helpers/webhook-receiver.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/fleet-server-process.mjs', import.meta.url));

interface Event {
  id: string;
  device: string;
  timestamp: string;
}

const upload = (url: string, device: string, records: unknown[]) =>
  fetch(`${url}/locations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location: records, device_id: device }),
  }).then((r) => r.json() as Promise<{ stored: number }>);

/** n records of a device, a second apart, from `start` seconds ago. */
const track = (device: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    record(`${device}-${from + i}`, 48, 11, new Date(Date.UTC(2026, 0, 1) + (from + i) * 1000).toISOString()),
  );

/** Every event was accepted, each device's in recorded order (timestamps only grow). */
function expectInOrderPerDevice(events: Event[]): void {
  const last = new Map<string, string>();
  for (const event of events) {
    expect(event.timestamp >= (last.get(event.device) ?? '')).toBe(true);
    last.set(event.device, event.timestamp);
  }
}

const SINK_OPTIONS = { sinkEvents: ['location'], deliveryPollMs: 100, deliveryLeaseMs: 1000 };

const processes = serverProcesses(SCRIPT);
const spawnServer = processes.spawn;
beforeAll(buildServer);
afterAll(processes.killAll);

describe('a server killed with SIGKILL mid-delivery (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waypost-fleet-kill-'));
  const receiver = new WebhookReceiver();
  afterAll(async () => {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no event: the next process delivers them all, the one in flight again under its id', async () => {
    await receiver.start();
    receiver.hold = true;
    const options = { database: join(dir, 'server.db'), webhooks: [receiver.url], ...SINK_OPTIONS };
    const first = await spawnServer(options);
    await upload(first.url, 'k1', track('k1', 0, 15));
    await upload(first.url, 'k2', track('k2', 0, 15));
    await receiver.waitFor(1, (r) => r.status === 0);
    await killProcess(first.child);
    const inFlight = receiver.requests.map((r: Received) => String(r.headers['webhook-id']));

    receiver.hold = false;
    const second = await spawnServer(options);
    await receiver.waitFor(30);
    const events = receiver.accepted<Event>();
    expect(new Set(events.map((e) => e.id)).size).toBe(30);
    for (const id of inFlight) expect(events.some((e) => e.id === id)).toBe(true);
    expectInOrderPerDevice(events);
    await new Promise((resolve) => (second.child.once('exit', resolve), second.child.stdin!.end()));
  });
});

describe('two server processes on one PostgreSQL', () => {
  const schema = freshSchemaName();
  const receiver = new WebhookReceiver();
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    await receiver.start();
    const options = {
      databaseUrl: `${PG_URL}?schema=${schema}`,
      poolSize: 4,
      webhooks: [receiver.url],
      ...SINK_OPTIONS,
    };
    // The first takes the sink's lease before the second exists.
    servers.push(await spawnServer(options));
    servers.push(await spawnServer(options));
  });
  afterAll(async () => {
    await Promise.all(servers.map(({ child }) => killProcess(child)));
    await receiver.stop();
    await dropSchema(schema);
  });

  it('deliver each event once, in each device order, wherever it was uploaded', async () => {
    const devices = ['p1', 'p2', 'p3', 'p4'];
    await Promise.all(
      devices.map(async (device) => {
        // Each device's uploads one after another, alternating between the processes.
        for (let batch = 0; batch < 4; batch++)
          await upload(servers[batch % 2]!.url, device, track(device, batch * 10, 10));
      }),
    );
    await receiver.waitFor(160);
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(160);
    expect(new Set(ids).size).toBe(160); // no event sent twice
    expectInOrderPerDevice(receiver.accepted<Event>());
  });

  it('take over a killed process events in flight', async () => {
    const before = receiver.accepted().length;
    receiver.hold = true;
    await upload(servers[1]!.url, 'p9', track('p9', 0, 10));
    await receiver.waitFor(1, (r) => r.status === 0);
    await killProcess(servers[0]!.child); // the lease holder, stuck in a request
    receiver.hold = false;
    await receiver.waitFor(before + 10);
    const events = receiver.accepted<Event>().slice(before);
    expect(events.map((e) => e.timestamp)).toEqual(track('p9', 0, 10).map((r) => r.timestamp));
  });
});
