// OwnTracks on its apps' own delivery rules (docs/trackers.md): iOS deletes a message answered 4xx
// and keeps one answered 5xx; Android resends any non-2xx, a location for weeks, head of line. So
// what reaches /owntracks is stored or kept in quarantine with a code, never refused for good: every
// published message type (fixtures/trackers, sources in SOURCES.md), a throttled upload (503 +
// Retry-After, resent by both apps), and a user or device name longer than a device id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { fixture, JSON_TYPE, quarantineOf, send, storedOf } from './helpers/trackers.js';

const named = (user: string, device: string) => ({ ...JSON_TYPE, 'x-limit-u': user, 'x-limit-d': device });
const location = { _type: 'location', lat: 52.5, lon: 13.4, tst: 1714557600, tid: 'JJ' };

describe.each(backends)('OwnTracks messages on $name', (backend) => {
  let server: TestServer;
  let clockMs = Date.UTC(2024, 4, 1);
  beforeAll(async () => {
    // 1 upload/s per device (a burst of 20), 5 requests/s per address (a burst of 100), injected clock.
    server = await startTestServer(backend, { rateLimit: 1, rateLimitPerAddress: 5, now: () => clockMs });
  });
  afterAll(async () => server.stop());

  it('every published message type is answered [] and kept in quarantine with its code, secrets redacted', async () => {
    const bodies = [
      'owntracks-booklet-transition.json',
      'owntracks-booklet-transition-beacon.json',
      'owntracks-booklet-waypoint.json',
      'owntracks-booklet-waypoints.json',
      'owntracks-recorder-lwt.json',
      'owntracks-booklet-card.json',
      'owntracks-android-status.json',
      'owntracks-booklet-steps.json',
      'owntracks-booklet-configuration.json',
      'owntracks-booklet-encrypted.json',
    ];
    const replies = [];
    for (const name of bodies)
      replies.push(await send(server, 'POST', '/owntracks', fixture(name), named('jjolie', 'types')));
    expect(replies.map((r) => [r.status, r.text])).toEqual(bodies.map(() => [200, '[]']));
    // Sent again (an app resending after a lost answer): kept once each.
    for (const name of bodies.slice(0, 3))
      await send(server, 'POST', '/owntracks', fixture(name), named('jjolie', 'types'));

    const kept = (await quarantineOf(server, 'jjolie-types')).reverse(); // oldest first
    expect(kept.map((r) => [JSON.parse(r.raw)._type, r.code])).toEqual([
      ['transition', 'NOT_A_POSITION'],
      ['transition', 'NOT_A_POSITION'],
      ['waypoint', 'NOT_A_POSITION'],
      ['waypoints', 'NOT_A_POSITION'],
      ['lwt', 'NOT_A_POSITION'],
      ['card', 'NOT_A_POSITION'],
      ['status', 'NOT_A_POSITION'],
      ['steps', 'NOT_A_POSITION'],
      ['configuration', 'NOT_A_POSITION'],
      ['encrypted', 'ENCRYPTED'],
    ]);
    expect(JSON.parse(kept[0]!.raw)).toEqual(JSON.parse(fixture(bodies[0]!)));
    expect(JSON.parse(kept[3]!.raw).waypoints[0].desc).toBe('Main@WestWing:DEADBEEF-ABBA-CAFE-AFFE-123456789012:0001');
    // The app's exported configuration carries its endpoint password: never kept in clear.
    const configuration = JSON.parse(kept[8]!.raw);
    expect(configuration).toMatchObject({ username: 'jjolie', password: '[redacted]', port: 8883 });
    expect(kept[8]!.raw).not.toContain('s1kr3t');
    // None is a track point.
    expect(await storedOf(server, 'jjolie-types')).toEqual([]);
  });

  it('a zero-length body (what the apps post when a friend is deleted) is answered [], not a 400 Android resends', async () => {
    for (const headers of [named('jjolie', 'empty'), { 'x-limit-u': 'jjolie', 'x-limit-d': 'empty' }]) {
      const reply = await send(server, 'POST', '/owntracks', '', headers);
      expect([reply.status, reply.text]).toEqual([200, '[]']);
    }
    expect(await storedOf(server, 'jjolie-empty')).toEqual([]);
  });

  it('a throttled upload is answered 503 with Retry-After (both apps resend it), then stored', async () => {
    const headers = named('busy', 'phone');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const reply = await send(
        server,
        'POST',
        '/owntracks',
        JSON.stringify({ ...location, tst: 1714557600 + i }),
        headers,
      );
      statuses.push(reply.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    const over = await fetch(`${server.url}/owntracks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...location, tst: 1714557600 + 21 }),
    });
    expect([statuses[20], over.status, over.headers.get('retry-after')]).toEqual([503, 503, '1']);
    expect(await over.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // The app resends both once the wait is over: nothing was lost.
    clockMs += 2000;
    for (const tst of [1714557620, 1714557621]) {
      const again = await send(server, 'POST', '/owntracks', JSON.stringify({ ...location, tst }), headers);
      expect([again.status, again.text]).toEqual([200, '[]']);
    }
    expect((await storedOf(server, 'busy-phone')).length).toBe(22);
    // The SDK's route keeps the 429 its clients read.
    for (let i = 0; i < 20; i++) await server.post('/locations', { location: record(`s${i}`), device_id: 'sdk' });
    const sdk = await server.post('/locations', { location: record('s-over'), device_id: 'sdk' });
    expect(sdk.status).toBe(429);
  });

  it('past the per-address limit too: 503 with Retry-After on /owntracks, never a 4xx that iOS deletes', async () => {
    clockMs += 60_000;
    let last = { status: 0, text: '' };
    for (let i = 0; i < 101 && last.status !== 503; i++)
      last = await send(server, 'POST', '/owntracks', JSON.stringify(location), named(`crowd-${i}`, 'phone'));
    expect(last.status).toBe(503);
    clockMs += 60_000;
  });

  it('a user or device name longer than a device id is bounded, never refused; the original kept', async () => {
    clockMs += 60_000;
    const user = `${'u'.repeat(250)}`;
    const first = await send(server, 'POST', '/owntracks', JSON.stringify(location), named(user, 'phone-one'));
    const second = await send(server, 'POST', '/owntracks', JSON.stringify(location), named(user, 'phone-two'));
    expect([first.status, first.text, second.status, second.text]).toEqual([200, '[]', 200, '[]']);
    const devices = (await server.admin('/api/devices')).body as { id: string }[];
    const long = devices.map((d) => d.id).filter((id) => id.startsWith('uuuu'));
    // Two devices (the cut names differ by a digest of the whole), each at most 200 characters.
    expect(long.length).toBe(2);
    expect(long.every((id) => id.length <= 200)).toBe(true);
    const rows = await Promise.all(long.map((id) => storedOf(server, id)));
    expect(rows.map((r) => r[0]!.record.extras.device_name).sort()).toEqual([`${user}-phone-one`, `${user}-phone-two`]);
    // A location that cannot be stored under such a name is still kept (in quarantine), not refused.
    const noTime = await send(server, 'POST', '/owntracks', JSON.stringify({ ...location, tst: undefined }), {
      ...named(user, 'phone-one'),
    });
    expect([noTime.status, noTime.text]).toEqual([200, '[]']);
    const kept = await Promise.all(long.map((id) => quarantineOf(server, id)));
    expect(kept.flat().map((r) => r.code)).toEqual(['INVALID_TIMESTAMP']);
    // A device name alone, past the limit, is bounded as well.
    const device = await send(server, 'POST', '/owntracks?d=' + 'd'.repeat(300), JSON.stringify(location), JSON_TYPE);
    expect([device.status, device.text]).toEqual([200, '[]']);
  });
});
