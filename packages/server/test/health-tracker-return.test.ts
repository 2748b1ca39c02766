// A tracker that sends no health report (OwnTracks here) goes quiet and comes back (issue 31): the
// silence check names it from its records (inferred), and its return is a state change too, the
// fleet event device.state with inferred: true, and its silent period is kept (inferred: nothing
// it said explains it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';

const MIN = 60_000;

describe.each(backends)('a report-less tracker back from a silence, on $name', (backend) => {
  let server: TestServer;
  let now = Date.UTC(2026, 10, 26, 9);
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => now, silentAfterSeconds: 600, deliveryPollMs: 50 });
  });
  afterAll(() => server.stop());

  const location = () => ({
    _type: 'location',
    lat: 52.5,
    lon: 13.4,
    tst: Math.floor(now / 1000),
    vel: 30,
    batt: 80,
    topic: `owntracks/${backend.name}/phone`,
  });
  const id = `${backend.name}-phone`;
  const stateEvents = async (): Promise<Json[]> =>
    ((await server.admin(`/api/devices/${id}/fleet-events?limit=100`)).body.events as Json[]).filter(
      (e) => e.type === 'device.state',
    );
  const until = async (what: string, done: () => Promise<boolean>) => {
    const deadline = Date.now() + 10_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('is told as device.state (inferred) when it comes back, and its silence is kept', async () => {
    expect(await server.post('/owntracks', location())).toEqual({ status: 200, body: [] });
    now += 20 * MIN;
    await until('the silence check naming the quiet tracker', async () =>
      (await stateEvents()).some((e) => e.data.state === 'silent'),
    );
    now += MIN;
    expect(await server.post('/owntracks', location())).toEqual({ status: 200, body: [] });

    const events = await stateEvents();
    expect(events.at(-1)).toMatchObject({
      data: { state: 'live', cause: 'reporting', inferred: true, previous: { state: 'silent', cause: 'unexplained' } },
    });
    const health = (await server.admin(`/api/devices/${id}/health`)).body;
    expect(health).toMatchObject({ state: 'live', inferred: true });
    expect(health.history).toContainEqual(
      expect.objectContaining({ cause: 'unexplained', inferred: true, silentFrom: expect.any(String) }),
    );
    const ledger = (await server.admin(`/api/devices/${id}/ledger`)).body;
    expect(ledger.silentPeriods).toEqual([
      expect.objectContaining({ cause: 'unexplained', inferred: true, to: new Date(now).toISOString() }),
    ]);
  });
});
