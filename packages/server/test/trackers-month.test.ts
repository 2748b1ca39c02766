// The month test (issue 40): every tracker of docs/trackers.md, set up as its credentials table
// says (each row read and run), keeps uploading while the server's clock moves 30 days and across
// a restart, with and without requireTokens; a revoked key then stops it with an answer the app
// keeps the points for. Requests are the apps' own published bodies (fixtures/trackers/SOURCES.md),
// with the time of the day they are sent.
import { readFileSync } from 'node:fs';
import { startServer, type RunningServer } from '@waypost/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { fixture, JSON_TYPE, withoutComments } from './helpers/trackers.js';

const PAGE = readFileSync(new URL('../../../docs/trackers.md', import.meta.url), 'utf8');
const BASE = 'https://waypost.example.com';
const KEY_SLOT = '<device key>';
const DAY_MS = 86_400_000;
const DAYS_BETWEEN = 3;
const ADMIN = 'month-admin';

interface Row {
  app: string;
  url: string;
  carried: 'url' | 'basic' | 'bearer';
  underRequireTokens: boolean;
  tested: string;
}

/** The rows of the page's credentials table: app, URL, where the key goes, yes/no, test file. */
function credentialRows(page: string): Row[] {
  const table = page
    .split(/^<!-- credentials: .* -->$/m)[1]!
    .trim()
    .split('\n\n')[0]!;
  return table
    .split('\n')
    .slice(2)
    .map((line) => {
      const [app, url, credential, works, tested] = line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.trim());
      const code = (cell: string) => /`([^`]+)`/.exec(cell)![1]!;
      const carried = credential!.includes('Basic') ? 'basic' : credential!.includes('Bearer') ? 'bearer' : 'url';
      expect(['yes', 'no'], `${app}: works under --require-tokens`).toContain(works);
      return { app: code(app!), url: code(url!), carried, underRequireTokens: works === 'yes', tested: code(tested!) };
    });
}

const ROWS = credentialRows(PAGE);

/** Each tracker's settings table (`<!-- tracker: NAME -->`): setting to its first code span. */
function settingOf(tracker: string, name: string): string {
  const section = PAGE.split(`<!-- tracker: ${tracker} -->`)[1]!.split('\n\n')[0]!;
  const row = section.split('\n').find((line) => line.startsWith(`| ${name} |`) || line.startsWith(`| \`${name}\` |`));
  if (!row) throw new Error(`docs/trackers.md: no setting ${name} for ${tracker}`);
  return /\| .+? \| `?([^`|]+)`?/.exec(row)![1]!.trim();
}

/** One upload as the app sends it on `day` (its clock `at`), `step` counting its uploads. */
interface Upload {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}
type App = { device: string; records: number; upload(url: string, at: number, step: number): Upload };

const iso = (at: number) => new Date(at).toISOString();

/** The apps, each building its own request from its published body (fixtures/trackers). */
const APPS: Record<string, App> = {
  'traccar-client': {
    device: settingOf('traccar-client', 'Device identifier'),
    records: 1,
    upload(url, at) {
      const json = JSON.parse(withoutComments(fixture('traccar-osmand-page.jsonc')));
      json.location.timestamp = iso(at);
      json.device_id = this.device;
      return { method: 'POST', url, headers: JSON_TYPE, body: JSON.stringify(json) };
    },
  },
  'traccar-client-sdk': {
    device: settingOf('traccar-client-sdk', 'deviceId'),
    records: 2,
    upload(url, at) {
      const items = (JSON.parse(fixture('traccar-client-sdk-json.json')) as { timestamp: number }[]).map((item, i) => ({
        ...item,
        id: this.device,
        timestamp: Math.floor(at / 1000) + i * 60,
      }));
      return { method: 'POST', url, headers: JSON_TYPE, body: JSON.stringify(items) };
    },
  },
  osmand: {
    device: new URL(settingOf('osmand', 'Web address')).searchParams.get('id')!,
    records: 1,
    upload(template, at) {
      // OsmAnd's placeholders: {0} lat, {1} lon, {2} time (ms), {3} hdop, {4} altitude, {6} bearing.
      const values = ['52.52', '13.405', String(at), '1.5', '34', '2.5', '90'];
      return { method: 'GET', url: template.replace(/\{(\d+)\}/g, (_m, n: string) => values[Number(n)]!), headers: {} };
    },
  },
  owntracks: {
    device: `${settingOf('owntracks', 'UserID')}-${settingOf('owntracks', 'DeviceID')}`,
    records: 1,
    upload(url, at) {
      const message = JSON.parse(fixture('owntracks-booklet-quicksetup.json'));
      message.tst = Math.floor(at / 1000);
      message.created_at = message.tst;
      message.tid = settingOf('owntracks', 'TrackerID');
      const headers = {
        ...JSON_TYPE,
        'x-limit-u': settingOf('owntracks', 'UserID'),
        'x-limit-d': settingOf('owntracks', 'DeviceID'),
      };
      return { method: 'POST', url, headers, body: JSON.stringify(message) };
    },
  },
  overland: {
    device: new URL(settingOf('overland', 'Receiver Endpoint')).searchParams.get('device_id')!,
    records: 1,
    upload(url, at) {
      // The README's request: its headers (Authorization: Bearer <Access Token>, the row's key below) and body.
      const [head, body] = fixture('overland-readme-request.txt').split('\n\n');
      const headers = Object.fromEntries(
        head!
          .split('\n')
          .slice(1)
          .map((line) => line.split(': ') as [string, string]),
      );
      expect(headers).toMatchObject({ Authorization: 'Bearer xxxxxx' });
      delete headers.Authorization;
      const batch = JSON.parse(body!.replace(/ \(optional\)/g, '').replace(/\{ \.\.\. \}/g, 'null'));
      batch.locations[0].properties.timestamp = iso(at);
      return { method: 'POST', url, headers, body: JSON.stringify(batch) };
    },
  },
  gpslogger: {
    device: 'gpslogger-phone',
    records: 1,
    upload(url, at) {
      // GPSLogger replaces each %NAME by its value, case-insensitively, in the order of its %ALL list.
      const values = new URLSearchParams(fixture('gpslogger-all-parameters.txt'));
      values.set('time', iso(at));
      let body = settingOf('gpslogger', 'HTTP Body');
      for (const [name, value] of values) body = body.replace(new RegExp(`%${name}`, 'gi'), value);
      const [header, value] = settingOf('gpslogger', 'HTTP Headers').split(': ') as [string, string];
      return { method: settingOf('gpslogger', 'HTTP Method'), url, headers: { [header]: value }, body };
    },
  },
  capacitor: {
    device: new URL(settingOf('capacitor', 'sync.url')).searchParams.get('device_id')!,
    records: 1,
    upload(url, at, step) {
      const batch = JSON.parse(fixture('capawesome-server-contract.json'));
      batch.positions[0].id = 4711 + step; // per install, strictly increasing
      batch.positions[0].timestamp = at;
      return { method: 'POST', url, headers: JSON_TYPE, body: JSON.stringify(batch) };
    },
  },
  'commercial-sdk': {
    device: JSON.parse(settingOf('commercial-sdk', 'params')).device_id,
    records: 1,
    upload(url, at, step) {
      const { location } = JSON.parse(fixture('traccar-decoder-json-4.json'));
      location.uuid = `${location.uuid.slice(0, -4)}${String(step).padStart(4, '0')}`;
      location.timestamp = iso(at);
      const params = JSON.parse(settingOf('commercial-sdk', 'params'));
      return { method: 'POST', url, headers: JSON_TYPE, body: JSON.stringify({ location, ...params }) };
    },
  },
};

/**
 * Whether the app takes an answer off its queue (delivered, or given up), from its sources as
 * docs/trackers.md cites them: OwnTracks iOS deletes on 2xx and 4xx, the Capacitor plugin on 2xx
 * and any 4xx but 408 and 429, Overland only on {"result":"ok"}; traccar-client-sdk (HttpUploader:
 * `response.status.isSuccess()`) and GPSLogger on a 2xx; OsmAnd, Traccar Client and the
 * commercial SDK are taken to do the same (the repository holds none of their code).
 */
function leavesQueue(app: string, status: number, text: string): boolean {
  if (app === 'owntracks') return status < 500;
  if (app === 'capacitor') return status < 300 || (status >= 400 && status < 500 && status !== 408 && status !== 429);
  if (app === 'overland') return text === '{"result":"ok"}';
  return status >= 200 && status < 300;
}

/** The row's request with its key where the row carries it. */
function withKey(row: Row, app: App, server: RunningServer, key: string, at: number, step: number): Upload {
  const url = row.url.replace(BASE, server.url).replace(KEY_SLOT, key);
  const upload = app.upload(url, at, step);
  if (row.carried === 'bearer') upload.headers = { ...upload.headers, authorization: `Bearer ${key}` };
  if (row.carried === 'basic') {
    const basic = Buffer.from(`${settingOf('owntracks', 'UserID')}:${key}`).toString('base64');
    upload.headers = { ...upload.headers, authorization: `Basic ${basic}` };
  }
  return upload;
}

async function send(upload: Upload): Promise<{ status: number; text: string }> {
  const response = await fetch(upload.url, {
    method: upload.method,
    headers: upload.headers,
    ...(upload.body === undefined ? {} : { body: upload.body }),
  });
  return { status: response.status, text: await response.text() };
}

const admin = async (server: RunningServer, method: string, path: string) => {
  const response = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${ADMIN}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

it('the credentials table lists every tracker of the page, each run by this test', () => {
  const trackers = [...PAGE.matchAll(/^<!-- tracker: ([\w-]+) -->$/gm)].map((m) => m[1]);
  expect(ROWS.map((row) => row.app).sort()).toEqual([...trackers].sort());
  expect(Object.keys(APPS).sort()).toEqual([...trackers].sort());
  for (const row of ROWS) expect(row.tested).toBe('trackers-month.test.ts');
});

describe.each(backends.flatMap((backend) => [false, true].map((requireTokens) => ({ backend, requireTokens }))))(
  'a month of uploads on $backend.name, requireTokens $requireTokens',
  ({ backend, requireTokens }) => {
    let storage: Awaited<ReturnType<typeof backend.create>>;
    let server: RunningServer;
    let clock = Date.UTC(2026, 0, 5, 9);
    const keys = new Map<string, string>();
    const delivered = new Map<string, number>();
    const start = async () => {
      server = await startServer({
        port: 0,
        adminToken: ADMIN,
        mapStyle: null,
        requireTokens,
        now: () => clock,
        ...storage.options,
      });
    };
    beforeAll(async () => {
      storage = await backend.create();
      await start();
      for (const row of ROWS) {
        const made = await admin(server, 'POST', `/api/devices/${APPS[row.app]!.device}/key`);
        expect(made.status).toBe(201);
        keys.set(row.app, made.body.key as string);
      }
    });
    afterAll(async () => {
      await server.close();
      await storage.drop();
    });

    /** Every row uploads once, on the server's clock; each answer must be the app's "delivered". */
    const uploadAll = async (step: number) => {
      for (const row of ROWS) {
        const app = APPS[row.app]!;
        const reply = await send(withKey(row, app, server, keys.get(row.app)!, clock, step));
        const expected = !requireTokens || row.underRequireTokens;
        expect(
          reply.status === 200 && leavesQueue(row.app, reply.status, reply.text),
          `${row.app} on day ${step}: ${reply.status} ${reply.text}`,
        ).toBe(expected);
        if (expected) delivered.set(row.app, (delivered.get(row.app) ?? 0) + app.records);
      }
    };

    it('keeps uploading every third day for 30 days, then after a restart', async () => {
      // Every third day: past the hour an access token lives, the 30 days a refresh token lives.
      for (let day = 0; day <= 30; day += DAYS_BETWEEN) {
        await uploadAll(day);
        clock += DAYS_BETWEEN * DAY_MS;
      }
      await server.close();
      await start();
      await uploadAll(31);
      for (const row of ROWS) {
        const device = await admin(server, 'GET', `/api/devices/${APPS[row.app]!.device}`);
        expect(device.body.records, row.app).toBe(delivered.get(row.app) ?? 0);
      }
    });

    it('stops once the key is revoked, with an answer the app keeps the points for', async () => {
      for (const row of ROWS) {
        const app = APPS[row.app]!;
        expect((await admin(server, 'DELETE', `/api/devices/${app.device}/key`)).body).toEqual({ revoked: true });
        const reply = await send(withKey(row, app, server, keys.get(row.app)!, clock, 40));
        expect(leavesQueue(row.app, reply.status, reply.text), `${row.app}: ${reply.status} ${reply.text}`).toBe(false);
        expect(JSON.parse(reply.text)).toMatchObject({ code: 'KEY_REVOKED' });
        const device = await admin(server, 'GET', `/api/devices/${app.device}`);
        expect(device.body.records, row.app).toBe(delivered.get(row.app) ?? 0);
      }
    });
  },
);
