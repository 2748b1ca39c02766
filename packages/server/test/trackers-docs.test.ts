// docs/trackers.md is the source of truth for each tracker's URL and settings: this test reads
// every `<!-- tracker: NAME -->` table and drives a real server exactly as that app, set up so,
// would (its own published body, see fixtures/trackers/SOURCES.md), then finds the records where
// the page says they go.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { startTestServer, type TestServer } from './helpers/client.js';
import { fixture, FORM_TYPE, JSON_TYPE, send, storedOf, withoutComments } from './helpers/trackers.js';

const PAGE = readFileSync(new URL('../../../docs/trackers.md', import.meta.url), 'utf8');
const BASE = 'https://waypost.example.com';

/** Each tracker's settings table: setting name to its value (the first `code` span of the cell). */
function trackerSettings(page: string): Map<string, Map<string, string>> {
  const trackers = new Map<string, Map<string, string>>();
  const sections = page.split(/^<!-- tracker: ([\w-]+) -->$/m);
  for (let i = 1; i < sections.length; i += 2) {
    const rows = sections[i + 1]!.split('\n\n')[0]!.trim().split('\n').slice(2);
    const settings = new Map<string, string>();
    for (const row of rows) {
      const [, name, value] = row.split(' | ').length >= 2 ? /^\| (.+?) \| (.+) \|$/.exec(row)! : [];
      const code = /`([^`]+)`/.exec(value ?? '');
      settings.set(name!.replace(/`/g, ''), code ? code[1]! : value!);
    }
    trackers.set(sections[i]!, settings);
  }
  return trackers;
}

const TRACKERS = trackerSettings(PAGE);

/** A documented setting, with the page's base URL swapped for the test server's. */
function setting(server: TestServer, tracker: string, name: string): string {
  const value = TRACKERS.get(tracker)?.get(name);
  if (value === undefined) throw new Error(`docs/trackers.md: no setting "${name}" for ${tracker}`);
  return value.replace(BASE, server.url);
}

/** Header lines `Name: value` as a header object. */
const headerLines = (text: string): Record<string, string> =>
  Object.fromEntries(text.split('\n').map((line) => line.split(': ') as [string, string]));

type Driver = (server: TestServer) => Promise<{ device: string; stored: number }>;

const DRIVERS: Record<string, Driver> = {
  'traccar-client': async (server) => {
    const url = setting(server, 'traccar-client', 'Server URL');
    const device = setting(server, 'traccar-client', 'Device identifier');
    const json = JSON.parse(withoutComments(fixture('traccar-osmand-page.jsonc')));
    expect((await send(server, 'POST', url, JSON.stringify({ ...json, device_id: device }), JSON_TYPE)).status).toBe(
      200,
    );
    const form = fixture('traccar-client-sdk-form.txt').replace(/^id=[^&]*/, `id=${device}`);
    expect((await send(server, 'POST', url, form, FORM_TYPE)).status).toBe(200);
    expect((await send(server, 'HEAD', url)).status).toBe(200);
    return { device, stored: 2 };
  },
  'traccar-client-sdk': async (server) => {
    const url = setting(server, 'traccar-client-sdk', 'serverUrl');
    const device = setting(server, 'traccar-client-sdk', 'deviceId');
    expect(setting(server, 'traccar-client-sdk', 'uploadJson')).toBe('true');
    const items = (JSON.parse(fixture('traccar-client-sdk-json.json')) as object[]).map((item) => ({
      ...item,
      id: device,
    }));
    expect((await send(server, 'POST', url, JSON.stringify(items), JSON_TYPE)).status).toBe(200);
    return { device, stored: 2 };
  },
  osmand: async (server) => {
    const template = setting(server, 'osmand', 'Web address');
    // OsmAnd's placeholders: {0} lat, {1} lon, {2} time (ms), {3} the fix's accuracy in metres (OsmAnd
    // calls it hdop), {4} altitude, {6} bearing.
    const values = ['52.52', '13.405', '1714557600000', '1.5', '34', '2.5', '90'];
    const url = template.replace(/\{(\d+)\}/g, (_m, n: string) => values[Number(n)]!);
    expect((await send(server, 'GET', url)).body).toMatchObject({ stored: 1 });
    const [row] = await storedOf(server, 'osmand-phone');
    expect(row!.record).toMatchObject({ coords: { heading: 90, altitude: 34, accuracy: 1.5 } });
    return { device: 'osmand-phone', stored: 1 };
  },
  owntracks: async (server) => {
    expect(setting(server, 'owntracks', 'Mode')).toBe('HTTP');
    const url = setting(server, 'owntracks', 'URL');
    const user = setting(server, 'owntracks', 'UserID');
    const deviceId = setting(server, 'owntracks', 'DeviceID');
    const message = {
      ...JSON.parse(fixture('owntracks-booklet-quicksetup.json')),
      tid: setting(server, 'owntracks', 'TrackerID'),
    };
    const headers = { ...JSON_TYPE, 'x-limit-u': user, 'x-limit-d': deviceId };
    expect((await send(server, 'POST', url, JSON.stringify(message), headers)).text).toBe('[]');
    return { device: `${user}-${deviceId}`, stored: 1 };
  },
  overland: async (server) => {
    const url = setting(server, 'overland', 'Receiver Endpoint');
    const [head, body] = fixture('overland-readme-request.txt').split('\n\n');
    const headers = headerLines(head!.split('\n').slice(1).join('\n'));
    const readme = body!.replace(/ \(optional\)/g, '').replace(/\{ \.\.\. \}/g, 'null');
    expect((await send(server, 'POST', url, readme, headers)).text).toBe('{"result":"ok"}');
    return { device: new URL(url).searchParams.get('device_id')!, stored: 1 };
  },
  gpslogger: async (server) => {
    const url = setting(server, 'gpslogger', 'URL');
    // GPSLogger replaces each %NAME by its value, case-insensitively, in the order of its %ALL list.
    const values = new URLSearchParams(fixture('gpslogger-all-parameters.txt'));
    let body = setting(server, 'gpslogger', 'HTTP Body');
    for (const [name, value] of values) body = body.replace(new RegExp(`%${name}`, 'gi'), value);
    const method = setting(server, 'gpslogger', 'HTTP Method');
    const headers = headerLines(setting(server, 'gpslogger', 'HTTP Headers'));
    expect((await send(server, method, url, body, headers)).body).toMatchObject({ stored: 1 });
    const [row] = await storedOf(server, 'gpslogger-phone');
    expect(row).toMatchObject({ timestamp: '2016-03-05T19:24:29.949Z', latitude: 12.193, longitude: 19.456 });
    return { device: 'gpslogger-phone', stored: 1 };
  },
  capacitor: async (server) => {
    const url = setting(server, 'capacitor', 'sync.url');
    const reply = await send(server, 'POST', url, fixture('capawesome-server-contract.json'), JSON_TYPE);
    expect(reply.body).toMatchObject({ stored: 1 });
    const device = new URL(url).searchParams.get('device_id')!;
    expect((await server.admin(`/api/devices/${device}/ledger`)).body.highestSequence).toBe(4711);
    return { device, stored: 1 };
  },
  'commercial-sdk': async (server) => {
    const url = setting(server, 'commercial-sdk', 'url');
    const params = JSON.parse(setting(server, 'commercial-sdk', 'params')) as Record<string, unknown>;
    const { location } = JSON.parse(fixture('traccar-decoder-json-4.json')) as { location: unknown };
    expect((await send(server, 'POST', url, JSON.stringify({ location, ...params }), JSON_TYPE)).status).toBe(200);
    return { device: String(params.device_id), stored: 1 };
  },
};

describe.each(backends)('docs/trackers.md on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => server.stop());

  it('documents every supported tracker, each with a URL on the server', () => {
    expect([...TRACKERS.keys()].sort()).toEqual(Object.keys(DRIVERS).sort());
    for (const [tracker, settings] of TRACKERS) {
      expect(
        [...settings.values()].some((value) => value.startsWith(`${BASE}/`)),
        tracker,
      ).toBe(true);
    }
  });

  it.each(Object.keys(DRIVERS))('%s, set up as the page says, stores where the page says', async (tracker) => {
    const { device, stored } = await DRIVERS[tracker]!(server);
    expect((await storedOf(server, device)).length).toBe(stored);
  });
});
