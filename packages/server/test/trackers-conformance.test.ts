// Conformance: other trackers' own published bodies (fixtures/trackers, each source named in its
// SOURCES.md), sent byte for byte as their apps send them, are stored where they belong; what is no
// track point is quarantined, never refused (their apps resend a refused batch for ever, or drop it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { fixture, FORM_TYPE, JSON_TYPE, quarantineOf, send, storedOf, withoutComments } from './helpers/trackers.js';

describe.each(backends)('other trackers published bodies on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  it('Traccar Client 9+: the JSON of traccar.org and of the Traccar decoder tests, on /osmand', async () => {
    const page = await send(
      server,
      'POST',
      '/osmand',
      withoutComments(fixture('traccar-osmand-page.jsonc')),
      JSON_TYPE,
    );
    expect(page).toMatchObject({ status: 200, body: { stored: 1 } });
    const replies = [];
    for (const n of [1, 2, 3, 4])
      replies.push(await send(server, 'POST', '/osmand/', fixture(`traccar-decoder-json-${n}.json`), JSON_TYPE));
    expect(replies.map((r) => [r.status, r.body.stored, r.body.duplicates])).toEqual([
      [200, 1, 0],
      // The same fix as the first, with other extras: the same record, as its uuid-less body derives.
      [200, 1, 0],
      [200, 1, 0],
      [200, 1, 0],
    ]);
    const [first] = await storedOf(server, '48241179');
    expect(first).toMatchObject({ timestamp: '2000-01-01T00:00:00.000Z', latitude: 0, longitude: 0 });
    const mocked = await storedOf(server, '658765');
    expect(mocked.map((r) => [r.uuid, r.latitude, r.timestamp, r.record.mock])).toEqual([
      ['2FB04C65-99CF-42AB-8DD3-EBCB4B108BF8', 37.785834, '2025-05-09T04:11:30.579Z', true],
    ]);
    const moving = await storedOf(server, '8737767034');
    expect(moving[0]!.record.coords.speed).toBe(18.67); // m/s in this format: kept as sent
  });

  it('OsmAnd and Traccar Client query requests of the Traccar decoder tests, on GET /osmand', async () => {
    const targets = fixture('traccar-decoder-queries.txt').trim().split('\n');
    const replies = await Promise.all(targets.map((target) => send(server, 'GET', `/osmand${target.slice(1)}`)));
    // The one without id names no device: refused, as Traccar refuses it (400).
    expect(replies.map((r) => r.status)).toEqual([200, 400, 200, 200, 200, 200, 200, 200, 200, 200, 200]);
    expect(replies[1]!.body.code).toBe('NO_DEVICE');
    // Cell towers and Wi-Fi without a position: kept in quarantine with every tower, not lost.
    const [towers] = await quarantineOf(server, '123456');
    expect(towers!.code).toBe('NO_LOCATION');
    expect(JSON.parse(towers!.raw).cell).toEqual(['257,02,16,2224', '257,02,16,2223,-90']);
    const vehicle = await storedOf(server, '123456789012345');
    expect(vehicle[0]!.record.extras).toEqual({ source: 'osmand', ignition: true, rpm: 933, fuel: 24 });
    expect(vehicle[0]!.record.coords.heading).toBeCloseTo(7.19889788244, 9);
    expect(vehicle[0]!.record.coords.speed).toBeCloseTo(40 * 0.514444, 6);
    const noOffset = await storedOf(server, '353861053849681');
    expect(noOffset[0]!.timestamp).toBe('2014-06-04T09:10:11.000Z');
    const hdop = await storedOf(server, '902064');
    expect(hdop.map((r) => r.record.extras.hdop)).toEqual([6, 6]);
  });

  it('traccar-client-sdk: its JSON array (speed in knots) and its form body, on /osmand', async () => {
    const json = await send(server, 'POST', '/osmand', fixture('traccar-client-sdk-json.json'), JSON_TYPE);
    expect(json).toMatchObject({ status: 200, body: { stored: 2 } });
    const form = await send(server, 'POST', '/osmand', fixture('traccar-client-sdk-form.txt'), FORM_TYPE);
    expect(form).toMatchObject({ status: 200, body: { stored: 0, duplicates: 1 } });
    const rows = await storedOf(server, '48241179');
    const sdk = rows.filter((r) => r.timestamp.startsWith('2025-06-15T15:0'));
    expect(sdk.map((r) => [r.timestamp, r.record.battery.level, r.record.extras.alarm ?? null])).toEqual([
      ['2025-06-15T15:06:40.000Z', 0.87, null],
      ['2025-06-15T15:07:40.000Z', 0.86, 'sos'],
    ]);
    expect(sdk[0]!.record.coords.speed).toBeCloseTo(19.44 * 0.514444, 6);
    expect(sdk[0]!.record.extras).toMatchObject({ battery_health: 'good', battery_voltage: 4012, battery_temp: 27.5 });
  });

  it("GPSLogger's %ALL parameters with an id, on /osmand", async () => {
    const reply = await send(server, 'GET', `/osmand?id=gpslogger&${fixture('gpslogger-all-parameters.txt')}`);
    expect(reply).toMatchObject({ status: 200, body: { stored: 1 } });
    const [row] = await storedOf(server, 'gpslogger');
    expect(row).toMatchObject({ timestamp: '2016-03-05T19:24:29.000Z', latitude: 12.193, longitude: 19.456 });
  });

  it("Overland: the README's request, and a queue with a logged action, a visit and a trip summary", async () => {
    const [head, body] = fixture('overland-readme-request.txt').split('\n\n');
    const headers = Object.fromEntries(
      head!
        .split('\n')
        .slice(1)
        .map((line) => line.split(': ') as [string, string]),
    );
    // The README elides `current` and `trip` ("{ ... }", "(optional)"): null in their place.
    const readme = body!.replace(/ \(optional\)/g, '').replace(/\{ \.\.\. \}/g, 'null');
    const reply = await send(server, 'POST', '/overland?device_id=overland-readme', readme, headers);
    expect(reply).toEqual({ status: 200, body: { result: 'ok' }, text: '{"result":"ok"}' });
    const [point] = await storedOf(server, 'overland-readme');
    expect(point).toMatchObject({ timestamp: '2015-10-01T15:00:00.000Z', latitude: 37.3318, longitude: -122.030581 });
    expect(point!.record.battery).toEqual({ level: 0.8, is_charging: true });

    const queue = await send(server, 'POST', '/overland', fixture('overland-constructed-batch.json'), JSON_TYPE);
    expect(queue.body).toEqual({ result: 'ok' });
    const points = await storedOf(server, 'overland-phone');
    expect(points.map((r) => r.timestamp)).toEqual(['2024-10-24T14:40:00.000Z', '2024-10-24T14:48:00.000Z']);
    const kept = await quarantineOf(server, 'overland-phone');
    expect(kept.map((r) => [r.code, JSON.parse(r.raw).properties.timestamp])).toEqual([
      ['NOT_A_POSITION', '2024-10-24T14:47:00Z'],
      ['NOT_A_POSITION', '2024-10-24T14:46:00Z'],
      ['NOT_A_POSITION', '2024-10-24T14:45:00Z'],
    ]);
  });

  it('OwnTracks: the booklet payloads, named by X-Limit-U/-D, topic and tid; a transition kept in quarantine', async () => {
    const headers = Object.fromEntries(
      fixture('owntracks-booklet-http-headers.txt')
        .trim()
        .split('\n')
        .map((line) => line.split(': ') as [string, string]),
    );
    const replies = [
      await send(server, 'POST', '/owntracks', fixture('owntracks-booklet-quicksetup.json'), headers),
      await send(server, 'POST', '/owntracks', fixture('owntracks-booklet-traccar.json'), JSON_TYPE),
      await send(server, 'POST', '/owntracks', fixture('owntracks-booklet-tid-only.json'), JSON_TYPE),
      await send(server, 'POST', '/owntracks', fixture('owntracks-booklet-transition.json'), headers),
    ];
    expect(replies.map((r) => [r.status, r.text])).toEqual([
      [200, '[]'],
      [200, '[]'],
      [200, '[]'],
      [200, '[]'],
    ]);
    expect((await storedOf(server, 'jjolie-myphone')).map((r) => r.timestamp)).toEqual(['2024-02-02T06:44:58.000Z']);
    // The transition is kept, in quarantine (no track point), with its payload.
    const [transition] = await quarantineOf(server, 'jjolie-myphone');
    expect([transition!.code, JSON.parse(transition!.raw).event]).toEqual(['NOT_A_POSITION', 'enter']);
    const iphone = await storedOf(server, 'jane-iphone');
    expect(iphone[0]!.record.coords).toMatchObject({ speed: 61 / 3.6, heading: 271, altitude_accuracy: 21 });
    expect((await storedOf(server, 'JJ')).map((r) => r.timestamp)).toEqual(['2017-06-14T21:40:56.000Z']);
  });

  it("Capawesome's background geolocation: its server contract, id as the ledger's sequence", async () => {
    const reply = await send(
      server,
      'POST',
      '/capacitor?device_id=capawesome',
      fixture('capawesome-server-contract.json'),
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(reply).toMatchObject({ status: 200, body: { stored: 1 } });
    const [row] = await storedOf(server, 'capawesome');
    expect(row).toMatchObject({ timestamp: '2024-08-10T12:00:00.000Z', latitude: 52.52, longitude: 13.405 });
    expect(row!.record).toMatchObject({ sequence: 4711, mock: false, extras: { userId: 'abc' } });
    expect(row!.record.coords).toEqual({ latitude: 52.52, longitude: 13.405, accuracy: 5 });
    const ledger = (await server.admin('/api/devices/capawesome/ledger')).body;
    expect(ledger).toMatchObject({ highestSequence: 4711, received: 1, missing: 4710 });
  });
});
