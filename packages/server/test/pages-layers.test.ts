// The pages' parts (issue 42): every module of the dashboard, share and tracker pages sits in a
// folder that names its part and imports only from its own layer or lower ones, with no import
// cycle; and each module stays small. A new folder or top-level file must be placed in LAYERS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../../sdk/test/support/import-graph.js';

const PAGES = fileURLToPath(new URL('../pages/', import.meta.url));

/** Lowest first. A prefix ending in "/" is a folder; otherwise a file. */
const LAYERS: readonly (readonly string[])[] = [
  // The API's shapes: generated from the routes' schemas, and the few routes still without one.
  ['dashboard/api-types.ts', 'dashboard/device-info.ts', 'dashboard/replies.ts'],
  // What every part uses: the API client, DOM building, the time range, colours, the phone sheet.
  ['dashboard/base/'],
  // How numbers and times read for this person (and the formatting that follows them).
  ['dashboard/settings/'],
  // The map's drawing, and the health states the server names (read by list, panel and map alike).
  ['dashboard/map/', 'dashboard/health/'],
  // The fleet list; the selected device's panel; playback of its track.
  ['dashboard/fleet/', 'dashboard/device/', 'dashboard/playback/'],
  // What operators manage: geofences, sinks, users, groups.
  ['dashboard/editors/'],
  // The pages: the dashboard's composition, the share page, the tracker and its service worker.
  ['dashboard/app/', 'dashboard/share/', 'track/', 'track-worker/'],
];

/** Lines a page module may hold: one concept a file. */
const MAX_LINES = 310;

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

describe("the pages' parts", () => {
  // Imports of generated declarations (dist/pages/openapi.d.ts) lie outside pages/: not a module here.
  const graph = new Map(
    [...importGraph(PAGES)].map(([file, targets]) => [file, targets.filter((target) => !target.startsWith('..'))]),
  );

  it('place every module in a folder of its part', () => {
    expect(graph.size).toBeGreaterThan(40);
    expect([...graph.keys()].filter((file) => layerOf(file) < 0)).toEqual([]);
    // Only the API's shapes sit loose in dashboard/: every other module is in its part's folder.
    expect([...graph.keys()].filter((file) => /^dashboard\/[^/]+$/.test(file)).sort()).toEqual([
      'dashboard/api-types.ts',
      'dashboard/device-info.ts',
      'dashboard/replies.ts',
    ]);
  });

  it('import nothing from a higher layer', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('have no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keep each module small', () => {
    const long = [...graph.keys()].filter(
      (file) => readFileSync(join(PAGES, file), 'utf8').split('\n').length > MAX_LINES,
    );
    expect(long).toEqual([]);
  });
});
