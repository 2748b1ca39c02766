// Issue 41: an organization's own retention period replaces the server's for EVERY kind of its
// devices' data (docs/retention.md: "a customer's contract names one period"): locations,
// quarantined records, uploaded logs and fleet events, whether it keeps shorter than the server
// or for ever. Each kind is read back through the API a user of the dashboard reads it with.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';

const DAY = 24 * 3600 * 1000;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
/** The server's period for every kind. */
const SERVER_DAYS = 30;

describe.each(backends)("an organization's period, for every kind of data, on $name", (backend) => {
  let server: TestServer;
  let clock = T0;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock, retentionDays: SERVER_DAYS });
  });
  afterAll(async () => server.stop());

  /** Each kind of a device's data, as the API lists it: how many of each are kept. */
  async function kept(device: string): Promise<Record<string, number>> {
    const locations = (await server.admin(`/api/devices/${device}/locations?limit=100`)).body as unknown[];
    const quarantine = (await server.admin(`/api/devices/${device}/quarantine`)).body as { records: unknown[] };
    const logs = ((await server.admin('/api/logs')).body as { deviceId: string }[]).filter(
      (l) => l.deviceId === device,
    );
    // The planted geofence event: moving the clock may also add the device's own state events
    // (silent, offline) when the fleet's sweep runs, which are not what this test plants.
    const events = (await server.admin(`/api/devices/${device}/fleet-events`)).body as { events: { type: string }[] };
    return {
      locations: locations.length,
      quarantine: quarantine.records.length,
      logs: logs.length,
      events: events.events.filter((event) => event.type === 'geofence.enter').length,
    };
  }
  const ALL = { locations: 1, quarantine: 1, logs: 1, events: 1 };
  const NONE = { locations: 0, quarantine: 0, logs: 0, events: 0 };

  /** Through the anchor's org route: a record inside the yard (a geofence.enter), and one quarantined (latitude 91). */
  async function fill(org: string, device: string): Promise<void> {
    const at = new Date(clock).toISOString();
    const location = [
      { uuid: `${device}-1`, timestamp: at, coords: { latitude: 45.5, longitude: -73.56 } },
      { uuid: `${device}-2`, timestamp: at, coords: { latitude: 91, longitude: -73.56 } },
    ];
    expect((await server.post(`/api/site/locations/${org}`, { location, uuid: device })).status).toBe(200);
    const form = new FormData();
    form.append('log', new Blob([gzipSync('a log line\n')], { type: 'application/gzip' }), 'sdk.log.gz');
    form.append('device_id', device);
    expect((await fetch(`${server.url}/api/logs`, { method: 'POST', body: form })).status).toBe(201);
  }
  const setOrgDays = async (org: string, days: number) =>
    expect((await server.admin(`/api/orgs/${org}/retention`, { method: 'PUT', body: { days } })).body).toMatchObject({
      retentionDays: days,
    });
  const run = () => server.admin('/api/retention/run', { method: 'POST' });

  it('removes all four kinds of a shorter-keeping org, keeps all four of an org keeping for ever', async () => {
    const yard = { identifier: 'yard', latitude: 45.5, longitude: -73.56, radius: 500 };
    expect((await server.admin('/api/geofences', { method: 'POST', body: yard })).status).toBe(201);
    for (const [org, device] of [
      ['brief', 'brief-phone'],
      ['keeper', 'keeper-phone'],
      ['plain', 'plain-phone'],
    ] as const)
      await fill(org, device);
    await setOrgDays('brief', 7);
    await setOrgDays('keeper', 0);
    for (const device of ['brief-phone', 'keeper-phone', 'plain-phone'])
      expect(await kept(device), device).toEqual(ALL);

    // Past brief's week, within the server's month.
    clock = T0 + 8 * DAY;
    expect((await run()).status).toBe(200);
    expect(await kept('brief-phone')).toEqual(NONE);
    expect(await kept('plain-phone')).toEqual(ALL);
    expect(await kept('keeper-phone')).toEqual(ALL);

    // Past the server's month: keeper keeps everything for ever.
    clock = T0 + (SERVER_DAYS + 10) * DAY;
    expect((await run()).status).toBe(200);
    expect(await kept('plain-phone')).toEqual(NONE);
    expect(await kept('keeper-phone')).toEqual(ALL);
  });
});
