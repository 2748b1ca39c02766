// waypost_records_rejected_total counts the records of every upload refused with a 4xx, on every
// upload route and for every reason (type, body, device), and nothing else: not a 401 (the SDK
// refreshes and resends), not a 4xx of a route that takes no uploads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

describe('the rejected-records metric', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backends[0]!, { maxRecordsPerRequest: 2 });
  });
  afterAll(() => server?.stop());

  const rejected = async () => {
    const text = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } })
    ).text();
    return Number(/^waypost_records_rejected_total (\d+)$/m.exec(text)![1]);
  };
  const send = (path: string, body: string, contentType = 'application/json', headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });

  it('adds the records of refused uploads, at least one per request, and nothing for other refusals', async () => {
    const before = await rejected();
    const record = (uuid: string, latitude: number) => ({
      uuid,
      timestamp: new Date().toISOString(),
      coords: { latitude, longitude: 2 },
    });
    // Three records where this server takes two per request: refused with its three records.
    const bad = await send(
      '/locations',
      JSON.stringify({ device_id: 'm-1', location: [record('a', 1), record('b', 2), record('c', 3)] }),
    );
    expect(bad.status).toBe(413);
    expect(await rejected()).toBe(before + 3);
    // Refused before its body is read (wrong type), on an anchor path: one.
    expect((await send('/api/site/locations', 'x=1', 'text/plain')).status).toBe(415);
    expect(await rejected()).toBe(before + 4);
    // Not JSON: one.
    expect((await send('/owntracks', '{"_type": ')).status).toBe(400);
    expect(await rejected()).toBe(before + 5);
    // A 401 (an access token that does not verify) and a 4xx of a route without uploads: none.
    const unauthorized = await send('/locations', JSON.stringify({ location: record('d', 1) }), 'application/json', {
      authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    });
    expect(unauthorized.status).toBe(401);
    expect((await send('/auth/register', '{"nope": ')).status).toBe(400);
    expect(await rejected()).toBe(before + 5);
  });
});
