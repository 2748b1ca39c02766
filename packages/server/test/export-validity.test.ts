// Exports that a schema validator takes and that read back as stored (issue 40): GPX valid against
// the GPX 1.1 types for any stored value (xmllint --schema; the schema is the part of GPX 1.1 the
// export writes, fixtures/schemas/gpx-1.1-waypost.xsd, written from GPX 1.1's published types), and
// unknown values (a flat template's -1, an altitude iOS marks invalid) left out of every format.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBackgroundGeolocation, ManualNetwork } from '@waypost/node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';
import { fixture, JSON_TYPE, send } from './helpers/trackers.js';

const SCHEMA = fileURLToPath(new URL('./fixtures/schemas/gpx-1.1-waypost.xsd', import.meta.url));

function xmllint(args: string[]): string {
  try {
    return execFileSync('xmllint', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`xmllint ${args.join(' ')} failed: ${failed.stderr ?? failed.message}`, { cause: error });
  }
}

/** The string value of an XPath expression over a file (xmllint ends it with one newline of its own). */
const xpathString = (expression: string, file: string): string =>
  xmllint(['--xpath', `string(${expression})`, file]).slice(0, -1);

/** An XPath 1.0 string literal for any text (concat() where it holds both quote kinds). */
const literal = (text: string): string =>
  !text.includes("'")
    ? `'${text}'`
    : !text.includes('"')
      ? `"${text}"`
      : `concat(${text
          .split("'")
          .map((part) => `'${part}'`)
          .join(`, "'", `)})`;

/** Characters XML 1.0 can hold (the export replaces the others, by design). */
const xmlChar = fc
  .oneof(
    fc.constantFrom('\r', '\n', '\t', '\r\n', ' ', '&', '<', '>', '"', "'", ']]>', 'é', '😀'),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
  )
  .filter((s) => !/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(s));
const xmlText = fc.array(xmlChar, { maxLength: 8 }).map((parts) => parts.join(''));

describe.each(backends)('exports valid and read back as stored, on $name', (backend) => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waypost-export-validity-'));
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  let files = 0;
  const exported = async (device: string, format: string) => {
    const reply = await server.admin(`/api/devices/${encodeURIComponent(device)}/locations?format=${format}`);
    expect(reply.status, reply.text).toBe(200);
    const file = join(dir, `${++files}.${format}`);
    writeFileSync(file, reply.text);
    return { text: reply.text, file };
  };

  it('GPX: a tiny coordinate, the antimeridian at +180 and a carriage return are valid and read back', async () => {
    const stored = {
      ...record('edge-1', 1e-7, 180),
      coords: { latitude: 1e-7, longitude: 180, accuracy: 5, altitude: 2.5e-7 },
      extras: { note: 'line one\r\nline two\rend', 'tab\tand\nnewline': 'x' },
    };
    expect((await server.post('/locations', { location: stored, device_id: 'edges' })).status).toBe(200);
    const { text, file } = await exported('edges', 'gpx');
    expect(xmllint(['--noout', '--schema', SCHEMA, file])).toBe('');
    expect(text).toContain('<trkpt lat="0.0000001" lon="-180">');
    // Numbers the schema types are plain decimals (a field's own text in the extensions is free).
    expect(text).not.toMatch(/(?:lat|lon)="[^"]*e|<ele>[^<]*e/);
    const field = (name: string) => xpathString(`//*[local-name()="field"][@name=${literal(name)}]`, file);
    expect(field('extras.note')).toBe('line one\r\nline two\rend');
    expect(field('extras.tab\tand\nnewline')).toBe('x');
  });

  it('GPX is valid against the GPX 1.1 types for any stored position, altitude and text (property)', async () => {
    let device = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(-90, 90, 0, -0, 1e-7, -5e-324)),
        fc.oneof(
          fc.double({ min: -180, max: 180, noNaN: true }),
          fc.constantFrom(-180, 180, 179.9999999999, 1e-7, -1e-9),
        ),
        fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e-7, 8848.86)),
        xmlText,
        xmlText,
        async (latitude, longitude, altitude, note, key) => {
          const id = `prop-${++device}`;
          const stored = {
            ...record(`${id}-r`, latitude, longitude),
            coords: { latitude, longitude, altitude },
            extras: { note, [`k${key}`]: 'v' },
          };
          expect((await server.post('/locations', { location: stored, device_id: id })).status).toBe(200);
          const { file } = await exported(id, 'gpx');
          expect(xmllint(['--noout', '--schema', SCHEMA, file])).toBe('');
          const read = (name: string) => xpathString(`//*[local-name()="field"][@name=${literal(name)}]`, file);
          expect(read('extras.note')).toBe(note);
          expect(read(`extras.k${key}`)).toBe('v');
          const lon = Number(xpathString('//*[local-name()="trkpt"]/@lon', file));
          // The same meridian within the 9 decimals written (+180 is written -180).
          expect(Math.abs(((lon - longitude + 540) % 360) - 180)).toBeLessThanOrEqual(5e-10);
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  /** Whether each format left the altitude out (GPX, KML) or null (GeoJSON, CSV empty). */
  async function altitudeUnknownEverywhere(device: string, names: string[]) {
    const gpx = await exported(device, 'gpx');
    expect(xmllint(['--noout', '--schema', SCHEMA, gpx.file])).toBe('');
    expect(gpx.text).not.toContain('<ele>');
    const kml = await exported(device, 'kml');
    expect(kml.text).toMatch(/<coordinates>-?[\d.]+,-?[\d.]+<\/coordinates>/);
    const geojson = JSON.parse((await exported(device, 'geojson')).text);
    for (const name of names) expect(geojson.features[0].properties[name], name).toBeNull();
    const [header, row] = (await exported(device, 'csv')).text.trim().split('\n');
    const cells = Object.fromEntries(row!.split(',').map((cell, i) => [header!.split(',')[i], cell]));
    for (const name of names) expect(cells[name], name).toBe('');
  }

  it("a flat locationTemplate's -1 (the SDK renders unknown altitude, speed, heading so) is unknown in every format", async () => {
    const bg = await createBackgroundGeolocation({ database: ':memory:', network: new ManualNetwork('wifi') });
    onTestFinished(() => bg.close());
    await bg.ready({
      http: { url: `${server.url}/locations`, autoSync: false, params: { device_id: 'flat-template' } },
      persistence: {
        locationTemplate:
          '{"lat":<%= latitude %>,"lng":<%= longitude %>,"altitude":<%= altitude %>,"speed":<%= speed %>,"heading":<%= heading %>,"uuid":"<%= uuid %>","timestamp":"<%= timestamp %>"}',
      },
    });
    await bg.store.insertLocation({ latitude: 48.1, longitude: 11.5 });
    const [queued] = (await bg.getLocations()) as Record<string, unknown>[];
    expect(queued).toMatchObject({ altitude: -1, speed: -1, heading: -1 });
    await bg.sync();
    await altitudeUnknownEverywhere('flat-template', ['altitude', 'speed', 'heading']);
  });

  it('an altitude of 0 that iOS marks invalid (negative vertical accuracy) is unknown: Traccar Client and Overland', async () => {
    // Traccar Client on iOS, as Traccar's decoder tests keep its body.
    const traccar = await send(server, 'POST', '/osmand', fixture('traccar-decoder-json-3.json'), JSON_TYPE);
    expect(traccar).toMatchObject({ status: 200, body: { stored: 1 } });
    await altitudeUnknownEverywhere('658765', ['coords.altitude', 'coords.ellipsoidal_altitude']);
    // Overland, a point as GLManager.m writes a fix without altitude.
    const overland = await send(
      server,
      'POST',
      '/overland',
      fixture('overland-constructed-invalid-altitude.json'),
      JSON_TYPE,
    );
    expect(overland.status).toBe(200);
    await altitudeUnknownEverywhere('overland-no-altitude', ['coords.altitude']);
  });
});
