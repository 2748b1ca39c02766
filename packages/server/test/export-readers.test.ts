// Exports read by real readers (Debian's xmllint and gpsbabel, installed by scripts/run-tests.mjs):
// hostile stored strings, unknown values and whole ranges, as an integrator's tools see them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/backends.js';
import { record, startTestServer, type TestServer } from './helpers/client.js';

const minute = (i: number) => new Date(Date.UTC(2024, 4, 1, 10, i)).toISOString();

/** A walk of 3 fixes whose strings hold what a device may send: control characters, markup, formulas. */
const hostile = [
  {
    ...record('h1', 48.1, 11.5, minute(0)),
    '@SUM(A1)': 'a top-level key',
    extras: {
      note: 'bell\u0007 nul\u0000 esc\u001b <b>&amp;</b> "quoted"',
      '=HYPERLINK("http://x")': 'cell',
      'ctl\u0001key': 1,
    },
  },
  // Unknown values, as the SDK and the tracker presets store them: -1.
  {
    ...record('h2', 48.2, 11.6, minute(1)),
    coords: {
      latitude: 48.2,
      longitude: 11.6,
      accuracy: -1,
      speed: -1,
      heading: -1,
      altitude: -1,
      altitude_accuracy: -1,
    },
    battery: { level: -1, is_charging: false },
  },
  record('h3\u0002', 48.3, 11.7, minute(2)),
];

/** Runs a Debian tool; its stderr is part of the failure when it refuses the file. */
function run(tool: string, args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`${tool} ${args.join(' ')} failed: ${failed.stderr ?? failed.message}`, { cause: error });
  }
}

/** The points gpsbabel read from a file, as its unicsv output (lat, lon, altitude when any). */
function gpsbabelPoints(format: string, file: string): Record<string, string>[] {
  const [header, ...lines] = run('gpsbabel', [
    ...(format === 'gpx' ? ['-t'] : []),
    '-i',
    format,
    '-f',
    file,
    '-o',
    'unicsv',
    '-F',
    '-',
  ])
    .trim()
    .split('\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i], cell])));
}

describe.each(backends)('exports read by xmllint and gpsbabel on $name', (backend) => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'waypost-exports-'));
    server = await startTestServer(backend);
    const stored = await server.post('/locations', { location: hostile, device_id: 'walker\u0003' });
    expect(stored.status).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const exported = async (format: string, query = '') => {
    const reply = await server.admin(
      `/api/devices/${encodeURIComponent('walker\u0003')}/locations?format=${format}${query}`,
    );
    expect(reply.status, reply.text).toBe(200);
    const file = join(dir, `track.${format}`);
    writeFileSync(file, reply.text);
    return { text: reply.text, file };
  };

  it('writes GPX that xmllint and gpsbabel read whole, unknown altitude left out', async () => {
    const { text, file } = await exported('gpx');
    run('xmllint', ['--noout', file]);
    const points = gpsbabelPoints('gpx', file);
    expect(points.map((p) => [p.Latitude, p.Longitude])).toEqual([
      ['48.100000', '11.500000'],
      ['48.200000', '11.600000'],
      ['48.300000', '11.700000'],
    ]);
    // Known altitudes are read; the unknown one is absent, not -1 m.
    expect(points.map((p) => p.Altitude)).toEqual(['500.0', '', '500.0']);
    expect(text).not.toContain('>-1<');
    expect(text).toContain(
      '<waypost:field name="extras.note">bell\uFFFD nul\uFFFD esc\uFFFD &lt;b&gt;&amp;amp;&lt;/b&gt; &quot;quoted&quot;</waypost:field>',
    );
  });

  it('writes KML that xmllint and gpsbabel read whole', async () => {
    const { text, file } = await exported('kml');
    run('xmllint', ['--noout', file]);
    const points = gpsbabelPoints('kml', file);
    expect(points.map((p) => [p.Latitude, p.Longitude])).toEqual([
      ['48.100000', '11.500000'],
      ['48.200000', '11.600000'],
      ['48.300000', '11.700000'],
    ]);
    expect(points.map((p) => p.Altitude)).toEqual(['500.0', '', '500.0']);
    expect(text).toContain('<Point><coordinates>11.6,48.2</coordinates></Point>');
    expect(text).toContain('<Data name="coords.altitude"><value>500</value></Data>');
  });

  it('writes GeoJSON that gpsbabel reads, unknown values null', async () => {
    const { text, file } = await exported('geojson');
    const points = gpsbabelPoints('geojson', file);
    expect(points.map((p) => [p.Latitude, p.Longitude])).toEqual([
      ['48.100000', '11.500000'],
      ['48.200000', '11.600000'],
      ['48.300000', '11.700000'],
    ]);
    const unknown = JSON.parse(text).features[1].properties;
    expect(unknown).toMatchObject({
      'coords.altitude': null,
      'coords.speed': null,
      'coords.heading': null,
      'coords.accuracy': null,
      'coords.altitude_accuracy': null,
      'battery.level': null,
    });
    expect(text).not.toMatch(/:-1[,}]/);
  });

  it('writes CSV that gpsbabel reads, header cells neutralised, unknown values empty', async () => {
    const { text, file } = await exported('csv');
    const points = run('gpsbabel', ['-i', 'unicsv', '-f', file, '-o', 'unicsv', '-F', '-']).trim().split('\n');
    expect(points).toHaveLength(1 + hostile.length);
    const [header, , unknown] = text.trim().split('\n');
    const names = header!.split(',');
    // A record key that a spreadsheet would run as a formula is text in the header too.
    expect(names).toContain("'@SUM(A1)");
    expect(names.filter((name) => /^[=+\-@]/.test(name))).toEqual([]);
    const cells = Object.fromEntries(unknown!.split(',').map((cell, i) => [names[i], cell]));
    expect(cells).toMatchObject({ 'coords.altitude': '', 'coords.speed': '', 'battery.level': '' });
  });
});
