// Trackers that send no health report say what they can in their own payloads (issue 39), and
// the server uses it, inferred: Overland's `motion`, OwnTracks' monitoring mode `m`, `conn` and
// battery status `bs`, Traccar Client's `is_moving`, `activity` and `battery.is_charging`. The
// payloads are the projects' own, byte for byte (fixtures/trackers/SOURCES.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type Json, type TestServer } from './helpers/client.js';
import { fixture, JSON_TYPE, send, storedOf, withoutComments } from './helpers/trackers.js';

const MIN = 60_000;

describe.each(backends)("trackers' own motion and battery hints, on $name", (backend) => {
  let now = Date.UTC(2026, 11, 1, 9);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => now, silentAfterSeconds: 600 });
  });
  afterAll(() => server.stop());

  const health = async (id: string): Promise<Json> => (await server.admin(`/api/devices/${id}/health`)).body;
  const ownTracks = (file: string, device: string) =>
    send(server, 'POST', '/owntracks', fixture(file), {
      ...JSON_TYPE,
      'x-limit-u': backend.name,
      'x-limit-d': device,
    });

  it('Overland: the README\'s `motion: ["driving","stationary"]` and a queue ending `["stationary"]` are parked', async () => {
    const [, body] = fixture('overland-readme-request.txt').split('\n\n');
    const readme = body!.replace(/ \(optional\)/g, '').replace(/\{ \.\.\. \}/g, 'null');
    const id = `${backend.name}-overland`;
    expect((await send(server, 'POST', `/overland?device_id=${id}`, readme, JSON_TYPE)).status).toBe(200);
    expect(await health(id)).toMatchObject({ state: 'parked', cause: 'stationary', inferred: true });

    const queue = fixture('overland-constructed-batch.json').replaceAll('overland-phone', `${backend.name}-phone`);
    expect((await send(server, 'POST', '/overland', queue, JSON_TYPE)).status).toBe(200);
    const points = await storedOf(server, `${backend.name}-phone`);
    expect(points.map((p) => p.record.is_moving)).toEqual([true, false]);
    expect(await health(`${backend.name}-phone`)).toMatchObject({ state: 'parked', cause: 'stationary' });
  });

  it("Traccar Client 9: traccar.org's JSON (is_moving false, activity still) is parked", async () => {
    const page = withoutComments(fixture('traccar-osmand-page.jsonc')).replace('"48241179"', `"${backend.name}-tc"`);
    expect((await send(server, 'POST', '/osmand', page, JSON_TYPE)).status).toBe(200);
    expect(await health(`${backend.name}-tc`)).toMatchObject({ state: 'parked', cause: 'stationary', inferred: true });
  });

  it('OwnTracks: bs 3 (full) is on its charger, bs 1 unplugged', async () => {
    expect((await ownTracks('owntracks-android-extended.json', 'full')).status).toBe(200);
    expect((await storedOf(server, `${backend.name}-full`))[0]!.record.battery).toEqual({
      level: 0.99,
      is_charging: true,
    });
    expect((await ownTracks('owntracks-android-timer-trigger.json', 'unplugged')).status).toBe(200);
    expect((await storedOf(server, `${backend.name}-unplugged`))[0]!.record.battery).toEqual({
      level: 0.34,
      is_charging: false,
    });
  });

  it('OwnTracks quiet: in significant-changes mode (m 1) likely parked; moving in move mode (m 2) unexplained', async () => {
    expect((await ownTracks('owntracks-android-created-at.json', 'significant')).status).toBe(200);
    expect((await ownTracks('owntracks-android-timer-trigger.json', 'move')).status).toBe(200);
    expect(await health(`${backend.name}-significant`)).toMatchObject({ state: 'live', inferred: true });
    now += 20 * MIN;
    expect(await health(`${backend.name}-significant`)).toMatchObject({
      state: 'parked',
      cause: 'stationary',
      inferred: true,
    });
    expect(await health(`${backend.name}-move`)).toMatchObject({ state: 'silent', cause: 'unexplained' });
  });
});
