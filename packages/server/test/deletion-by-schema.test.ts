// Deleting a device or an organization removes every row that belongs to it, by the schema
// (issue 41), on both databases: every table the database lists is declared in
// retention/data-owners.ts (a table added later without a rule fails here), and after the deletion
// no row of any table holds the deleted device's or org's planted strings or coordinates, nor its
// id outside its own tombstone row and the audit trail's names. An owner exports first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_OWNERS } from '../src/retention/data-owners.js';
import { call, regData, register } from './helpers/anchor.js';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type Json, type TestServer } from './helpers/client.js';
import { dumpDatabase, type TableDump } from './helpers/db-dump.js';

// A clock near the real one (device tokens verify), standing still.
const T0 = Math.floor(Date.now() / 1000) * 1000;
/** Each device's coordinates, which nobody else's data has. */
const PLACES: Record<string, [number, number]> = {
  'acme-phone': [12.3456789, 98.7654321],
  'beta-phone': [23.4567891, 87.6543219],
  'solo-phone': [34.5678912, 76.5432198],
};

/** Where a deleted device's or org's name may still be found: its tombstone's kept columns, the trail's names. */
const NAME_ALLOWED: Record<string, string[]> = {
  devices: ['id', 'uuid'],
  orgs: ['name'],
  audit_log: ['target', 'detail'],
};

/** Every cell of the dump that holds one of `needles`, as "table.column: needle". */
function holding(dump: Record<string, TableDump>, needles: string[], allowed: Record<string, string[]> = {}): string[] {
  const found: string[] = [];
  for (const [table, rows] of Object.entries(dump)) {
    for (const row of rows) {
      for (const [column, cell] of Object.entries(row)) {
        if (cell === null || allowed[table]?.includes(column)) continue;
        for (const needle of needles) if (cell.includes(needle)) found.push(`${table}.${column}: ${needle}`);
      }
    }
  }
  return found;
}

describe.each(backends)('deletion by the schema on $name', (backend) => {
  let server: TestServer;
  let clockMs = T0;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clockMs });
    tokens['acme-phone'] = (await register(server, 'acme-co', 'acme-phone')).accessToken;
    tokens['beta-phone'] = (await register(server, 'beta-co', 'beta-phone')).accessToken;
  });
  afterAll(async () => server.stop());

  /** Plants a device's data in every kind of table a device's data lives in; the strings planted. */
  const plantDevice = async (device: string, org: string | null, group: string): Promise<string[]> => {
    const mark = (what: string) => `planted-${device}-${what}`;
    const [LAT, LON] = PLACES[device]!;
    const upload = (body: unknown) =>
      tokens[device]
        ? call(server, 'POST', '/api/locations', { token: tokens[device], body })
        : server.post('/locations', { ...(body as object), device_id: device });
    const at = new Date(clockMs - 60_000).toISOString();
    const located = { ...record(mark('record'), LAT, LON, at), extras: { note: mark('extras') } };
    expect((await upload({ location: located })).status).toBe(200);
    const refused = { ...record(mark('quarantined'), 91, LON, at), extras: { note: mark('quarantine') } };
    expect((await upload({ location: refused })).status).toBe(200);
    const form = new FormData();
    form.append('log', new Blob([mark('log')]), 'log.txt');
    form.append('device_id', device);
    // A registered device's log upload carries its token (issue 41: never written without it).
    const logHeaders: Record<string, string> = tokens[device] ? { authorization: `Bearer ${tokens[device]}` } : {};
    expect((await fetch(`${server.url}/api/logs`, { method: 'POST', body: form, headers: logHeaders })).status).toBe(
      201,
    );
    const fence = { identifier: mark('fence-cmd'), latitude: LAT, longitude: LON, radius: 300 };
    const command = { command: ['addGeofence', fence] };
    expect((await server.admin(`/api/devices/${device}/commands`, { method: 'POST', body: command })).status).toBe(201);
    const share = { device, expiresAt: new Date(clockMs + 86_400_000).toISOString() };
    expect((await server.admin('/api/shares', { method: 'POST', body: share })).status).toBe(201);
    expect((await server.admin(`/api/groups/${group}`, { method: 'PUT', body: { devices: [device] } })).status).toBe(
      201,
    );
    if (org !== null) {
      const geofence = { identifier: mark('fence'), latitude: LAT, longitude: LON, radius: 500, org };
      expect((await server.admin('/api/geofences', { method: 'POST', body: geofence })).status).toBe(201);
      const hook = { url: `https://${mark('hook')}.example/in`, org };
      expect((await server.admin('/api/webhooks', { method: 'POST', body: hook })).status).toBe(201);
      const sink = { kind: 'webhook', url: `https://${mark('sink')}.example/in`, org };
      expect((await server.admin('/api/sinks', { method: 'POST', body: sink })).status).toBe(201);
      // A position inside the fence: an event, in the history and queued for the sinks.
      clockMs += 1000;
      const inside = record(mark('inside'), LAT + 0.0001, LON, new Date(clockMs).toISOString());
      expect((await upload({ location: inside })).status).toBe(200);
    }
    return ['record', 'extras', 'quarantined', 'quarantine', 'log', 'fence-cmd', 'fence', 'hook', 'sink', 'inside']
      .map(mark)
      .concat([String(LAT), String(LON)]);
  };

  it('declares every table of the database, and every column of the rows that stay', async () => {
    const dump = await dumpDatabase(server.storage);
    const tables = Object.keys(dump).sort();
    expect(tables.length).toBeGreaterThan(20);
    expect(
      tables.filter((table) => !(table in DATA_OWNERS)),
      'tables with no rule in data-owners.ts',
    ).toEqual([]);
    expect(Object.keys(DATA_OWNERS).filter((table) => !tables.includes(table))).toEqual([]);
    for (const table of ['devices', 'orgs']) {
      const owner = DATA_OWNERS[table] as unknown as { kept: string[]; cleared: Record<string, unknown> };
      const columns = Object.keys(dump[table]![0]!).sort();
      expect(columns, table).toEqual([...owner.kept, ...Object.keys(owner.cleared)].sort());
    }
  });

  it("exports an org's data, then deletes it leaving no row of it in any table; another org's data stays", async () => {
    const planted = await plantDevice('acme-phone', 'acme-co', 'group-a');
    const kept = await plantDevice('beta-phone', 'beta-co', 'group-b');

    // The owner's export first: the org's devices, each device's records, the org's settings.
    const devices = (await server.admin('/api/devices?org=acme-co')).body as Json[];
    expect(devices.map((d) => d.id)).toEqual(['acme-phone']);
    const exported = await server.admin('/api/devices/acme-phone/locations?format=geojson');
    expect(exported.text).toContain(String(PLACES['acme-phone']![1]));
    expect(exported.text).toContain('planted-acme-phone-extras');
    const fences = (await server.admin('/api/geofences')).body as Json[];
    expect(fences.filter((f) => f.org === 'acme-co').map((f) => f.identifier)).toEqual(['planted-acme-phone-fence']);

    const deleted = await server.admin('/api/orgs/acme-co', { method: 'DELETE' });
    expect(deleted).toMatchObject({ status: 200, body: { name: 'acme-co', status: 'deleted', devicesDeleted: 1 } });

    const dump = await dumpDatabase(server.storage);
    expect(
      holding(
        dump,
        planted.filter((value) => !/fence$/.test(value)),
      ),
    ).toEqual([]);
    // The geofence's identifier is a name the trail keeps (docs/audit.md); nothing else holds it.
    expect(holding(dump, ['planted-acme-phone-fence'], { audit_log: ['detail'] })).toEqual([]);
    expect(holding(dump, ['acme-phone', 'acme-co'], NAME_ALLOWED)).toEqual([]);
    // Nothing of beta's went with it.
    // (A log is stored gzipped: its text is not found in the dump, its row by the device's id.)
    for (const value of kept.filter((v) => !v.endsWith('-log')))
      expect(holding(dump, [value]).length, value).toBeGreaterThan(0);
    expect(holding(dump, ['beta-phone'])).toContain('logs.device_id: beta-phone');
    expect(((await server.admin('/api/geofences')).body as Json[]).map((f) => f.org)).toEqual(['beta-co']);
    expect(((await server.admin('/api/sinks')).body as Json[]).map((s) => s.org)).toEqual(['beta-co', 'beta-co']);
    // The name stays refused.
    const again = await call(server, 'POST', '/api/register', { body: regData('acme-co', 'acme-phone') });
    expect(again.status).toBe(410);
  });

  it('deletes a device leaving no row of it in any table', async () => {
    const planted = await plantDevice('solo-phone', null, 'group-c');
    expect((await server.admin('/api/devices/solo-phone', { method: 'DELETE' })).status).toBe(200);
    const dump = await dumpDatabase(server.storage);
    expect(holding(dump, planted)).toEqual([]);
    expect(holding(dump, ['solo-phone'], NAME_ALLOWED)).toEqual([]);
  });
});
