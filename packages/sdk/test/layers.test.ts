// The sdk's layers (issue 18): every module sits in a layer and imports only from its own layer
// or lower ones, and no import cycle exists. A new file must be placed in LAYERS.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from './support/import-graph.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Lowest first. A prefix ending in "/" is a folder; otherwise a file. */
const LAYERS: readonly (readonly string[])[] = [
  // The vocabulary: errors, ports and the types everything speaks.
  ['errors.ts', 'device.ts', 'ports/', 'config/types.ts', 'records/location.ts', 'records/json-bounds.ts'],
  // Pure domain pieces and adapters of the core's own: clocks, geometry, configuration, records,
  // payloads and transport, events, the log writer, option checks, stores, network types, the
  // columnar upload coding.
  [
    'clock/',
    'codec/',
    'geometry/',
    'config/',
    'records/',
    'geofence/',
    'motion/',
    'http/',
    'events/',
    'options/',
    'network/',
    'store/',
    'ledger/',
    // Receipts' pure parts (issue 46): the format, its header, pins, claims and days.
    'receipts/',
    'health/health-header.ts',
    // Which upload URLs offer a feature (receipts, the health report), kept across restarts.
    'http/server-offers.ts',
    'log/levels.ts',
    'log/logger.ts',
  ],
  // Engine parts, each the owner of one concern.
  [
    'queue/',
    'auth/',
    'remote/',
    'session/',
    'tracking/',
    'log/',
    'ledger/tombstones.ts',
    'health/',
    'receipts/receipt-keeper.ts',
  ],
  // What runs the parts over time.
  ['sync/', 'lifecycle/'],
  // The anchor's shapes: the engine's state, records and events as the anchor's types declare them.
  ['anchor/'],
  // The facade's method groups, its event table and its guard table: each group is built from the
  // engine parts it uses, so none of them knows the composition root (or the bag of all parts).
  ['facade/'],
  // The composition root.
  ['sdk/'],
  // The facade: the method groups assembled over the composed engine.
  ['background-geolocation.ts'],
  ['index.ts', 'internal.ts'],
  // The test kit ('@waypost/sdk/testing'): doubles and a harness over the whole engine.
  ['testing/'],
];

/** The most specific entry wins (log/logger.ts before log/). */
function layerOf(file: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((entries, layer) => {
    for (const entry of entries) {
      const match = entry.endsWith('/') ? file.startsWith(entry) : file === entry;
      if (match && entry.length > bestLength) {
        best = layer;
        bestLength = entry.length;
      }
    }
  });
  return best;
}

describe("the sdk's layers", () => {
  const graph = importGraph(SRC);

  it('place every module in a layer', () => {
    expect([...graph.keys()].filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('import nothing from a higher layer', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it("keep the facade's method groups apart: a group imports no other group", () => {
    const isGroup = (file: string) => /^facade\/[a-z-]+-group\.ts$/.test(file);
    const crossing = [...graph]
      .filter(([file]) => isGroup(file))
      .flatMap(([file, targets]) => targets.filter(isGroup).map((target) => `${file} -> ${target}`));
    expect([...graph.keys()].filter(isGroup).length).toBeGreaterThan(5);
    expect(crossing).toEqual([]);
  });

  it('have no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });
});
