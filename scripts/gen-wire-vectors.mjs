// Writes docs/wire-format/vectors.json: JSON upload bodies and their columnar bytes (before raw
// deflate) in each version as this encoder writes them, plus one whole request body of each
// version (after raw deflate).
// packages/sdk/test/columnar-vectors.test.ts checks both directions against the committed file,
// so a change of the format cannot go unnoticed. Run after `npm run build`:
//   node scripts/gen-wire-vectors.mjs
import { writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { encodeColumnar } from '@waypost/sdk/internal';

const record = (i, extra = {}) => ({
  uuid: `0190a3b4-5c6d-8e7f-9a0b-1c2d3e4f00${String(10 + i)}`,
  timestamp: new Date(Date.UTC(2026, 4, 17, 13, 0, 5 * i)).toISOString(),
  is_moving: true,
  odometer: Math.round(i * 71) / 10,
  coords: {
    latitude: [45.5016889, 45.5017521, 45.5018163][i],
    longitude: [-73.5672557, -73.5671702, -73.5670811][i],
    accuracy: [5, 4.8, 5][i],
    speed: [1.4, 1.38, 1.42][i],
    heading: [45, 47, 44][i],
    altitude: 22,
    altitude_accuracy: -1,
  },
  activity: { type: 'walking', confidence: 100 },
  battery: { level: 0.87, is_charging: false },
  extras: {},
  sequence: 41 + i,
  ...extra,
});

const VECTORS = [
  ['single record, rootProperty "location", a param', { location: record(0), device_id: 'bike-7' }],
  ['batch of three, rootProperty "location"', { location: [record(0), record(1), record(2)] }],
  ['single record, rootProperty "." (the record is the body)', record(1)],
  ['batch, rootProperty "." (an array of records)', [record(0), record(1)]],
  [
    'template records: other keys, an array leaf, numbers kept as text (1e21, 17 digits, 1e-7), unicode',
    {
      data: [
        { t: '2026-05-17T13:00:00.000Z', p: [45.5, -73.5], v: 1e21, s: 'café ☕' },
        { t: '2026-05-17T13:00:05.000Z', p: [45.6, -73.4], v: 0.30000000000000004, s: null },
        { t: '2026-05-17T13:00:10.000Z', p: [45.7, -73.3], v: 1e-7, s: '"\\\u0001' },
      ],
      token: 'x',
    },
  ],
  [
    'two shapes: a location and a geofence event',
    {
      location: [
        record(0),
        record(1, { event: 'geofence', geofence: { identifier: 'Home', action: 'ENTER', extras: {} } }),
      ],
    },
  ],
  ['a body that is no table (verbatim)', { ok: [1, 2, 3] }],
  [
    'a vehicle accelerating: positions and odometer with small third differences (order 3 in version 2)',
    {
      location: [0, 1, 2, 3, 4, 5].map((i) => ({
        ...record(0),
        odometer: (1000 + 5 * i * i + i * i * i) / 10,
        coords: { ...record(0).coords, latitude: (455_000_000 + 900 * i * i + 30 * i * i * i) / 1e7 },
      })),
    },
  ],
  // Issue 39: the SDK's record as a store with sequence epochs renders it (sequence_epoch after
  // sequence): known key 27 and preset 2 in version 3, the key's text and preset 1's keys written
  // out in versions 1 and 2.
  [
    'single record with its numbering\'s epoch, rootProperty "." (preset 2 in version 3)',
    record(2, { sequence_epoch: '5f0c7e4e1d2a4b7e9c513a1f' }),
  ],
  [
    'batch of three with their numbering\'s epoch, rootProperty "location", a param',
    {
      location: [0, 1, 2].map((i) => record(i, { sequence_epoch: '5f0c7e4e1d2a4b7e9c513a1f' })),
      device_id: 'bike-7',
    },
  ],
];

const VERSIONS = [1, 2, 3];
const vectors = VERSIONS.flatMap((version) =>
  VECTORS.map(([name, value]) => {
    const json = JSON.stringify(value);
    const columnar = encodeColumnar(json, version);
    if (!columnar) throw new Error(`${name}: does not round trip`);
    return { name, version, json, columnar: Buffer.from(columnar).toString('hex') };
  }),
);
const requests = VERSIONS.map((version) => {
  // Version 3's request carries what it was made for: records with their epoch.
  const name = version === 3 ? 'batch of three with' : 'batch of three,';
  const wire = vectors.find((v) => v.version === version && v.name.startsWith(name));
  const body = deflateRawSync(Buffer.from(wire.columnar, 'hex')).toString('base64');
  return { version, json: wire.json, body };
});
const output = {
  about:
    'Test vectors of the columnar request codings (docs/wire-format.md): x-waypost-columnar carries version 1, x-waypost-columnar-2 version 2, x-waypost-columnar-3 version 3. "columnar" is the hex of the bytes before raw deflate; a decoder must turn them into exactly "json". "requests" are whole request bodies (raw deflate of the columnar bytes, base64), whose deflate stream any inflater reads.',
  vectors,
  requests,
};
writeFileSync(new URL('../docs/wire-format/vectors.json', import.meta.url), `${JSON.stringify(output, null, 2)}\n`);
console.log(`wrote ${vectors.length} vectors`);
