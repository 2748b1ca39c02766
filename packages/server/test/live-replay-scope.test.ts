// Issue 41: the live feed's replay after a reconnect (Last-Event-ID) is told only what the user
// may see. A user limited to org acme (by org, and again by a device group) reconnects after both
// acme's and beta's devices uploaded: the replay names acme's device, never beta's, while the
// admin's replay names both (so there was something to leak).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs } from './helpers/accounts.js';
import { call, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

const PASSWORD = 'correct horse battery';

interface Block {
  event: string | null;
  id: string | null;
  data: { deviceId?: string; replay?: boolean } | null;
}

/** A live feed opened with `headers`; its server-sent blocks read one at a time (bounded by the test's timeout). */
async function openFeed(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, { headers, signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<Block> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1] ?? null;
        if (text.startsWith(':') || (field('data') === null && field('id') === null)) continue;
        const data = field('data');
        return { event: field('event'), id: field('id'), data: data ? (JSON.parse(data) as Block['data']) : null };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the feed ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return {
    next,
    /** The devices replayed, up to the id alone that says the replay is whole. */
    async replayed(): Promise<string[]> {
      const devices: string[] = [];
      for (let block = await next(); block.data !== null; block = await next()) {
        expect(block.data.replay).toBe(true);
        devices.push(block.data.deviceId!);
      }
      return devices.sort();
    },
    close: () => controller.abort(),
  };
}

const CASES = backends.flatMap((backend) =>
  (['orgs', 'groups'] as const).map((scope) => ({ name: backend.name, backend, scope })),
);

describe.each(CASES)('the live feed replay of a user limited by $scope on $name', ({ backend, scope }) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1, 10);
  let cookie = '';
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs });
    tokens['phone-a'] = (await register(server, 'acme', 'phone-a')).accessToken;
    tokens['phone-b'] = (await register(server, 'beta', 'phone-b')).accessToken;
    if (scope === 'groups')
      expect(
        (await server.admin('/api/groups/acme-fleet', { method: 'PUT', body: { devices: ['phone-a'] } })).status,
      ).toBe(201);
    const limit = scope === 'orgs' ? { orgs: ['acme'] } : { groups: ['acme-fleet'] };
    const created = await server.admin('/api/users', {
      method: 'POST',
      body: { name: 'acme-viewer', password: PASSWORD, role: 'viewer', ...limit },
    });
    expect(created.status).toBe(201);
    cookie = (await loginAs(server, 'acme-viewer', PASSWORD)).cookie!;
  });
  afterAll(async () => server.stop());

  it("replays acme's device to acme's viewer, never beta's", async () => {
    clockMs += 5 * 60_000;
    const first = await openFeed(server.url, { cookie });
    const cursor = (await first.next()).id!;
    first.close();

    clockMs += 1000;
    for (const [device, n] of [
      ['phone-a', 1],
      ['phone-b', 2],
    ] as const) {
      const upload = await call(server, 'POST', '/api/locations', {
        token: tokens[device]!,
        body: { location: record(`${device}-${n}`, 48 + n / 100, 11, new Date(clockMs).toISOString()) },
      });
      expect(upload.status).toBe(200);
    }
    clockMs += 30_000;

    const limited = await openFeed(server.url, { cookie, 'last-event-id': cursor });
    expect(await limited.replayed()).toEqual(['phone-a']);
    limited.close();
    const admin = await openFeed(server.url, { authorization: `Bearer ${server.adminToken}`, 'last-event-id': cursor });
    expect(await admin.replayed()).toEqual(['phone-a', 'phone-b']);
    admin.close();
  });
});
