import Database from 'better-sqlite3';
import GeoJSONVT from 'geojson-vt';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { fromGeojsonVt } from 'vt-pbf';

/** The lake's colour in the test style: a pixel of it on screen means the vector basemap drew. */
export const WATER = [0x1e, 0x64, 0xc8] as const;
const WATER_HEX = '#1e64c8';
/** Water in the server's built-in style for local vector files (src/routes/local-style.ts). */
export const LOCAL_WATER = [0xaa, 0xd3, 0xdf] as const;

/**
 * A small vector tileset made here, in the OpenMapTiles schema's layer names: a lake ("water")
 * of ±0.05° around a point, and a road ("transportation") across it. Tiles are cut on demand.
 */
export function lakeTiles(lat: number, lon: number) {
  const d = 0.05;
  const index = new GeoJSONVT(
    {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { layer: 'water', class: 'lake' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [lon - d, lat - d],
                [lon + d, lat - d],
                [lon + d, lat + d],
                [lon - d, lat + d],
                [lon - d, lat - d],
              ],
            ],
          },
        },
      ],
    },
    { maxZoom: 14, indexMaxZoom: 5 },
  );
  return (z: number, x: number, y: number): Uint8Array | null => {
    const tile = index.getTile(z, x, y);
    return tile ? fromGeojsonVt({ water: tile }) : null;
  };
}

/** A MapLibre style drawing the tileset's lake in WATER over a pale background. */
export function lakeStyle(tiles: string, attribution: string): Record<string, unknown> {
  return {
    version: 8,
    sources: { test: { type: 'vector', tiles: [tiles], maxzoom: 14, attribution } },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } },
      { id: 'water', type: 'fill', source: 'test', 'source-layer': 'water', paint: { 'fill-color': WATER_HEX } },
    ],
  };
}

/**
 * A style server on 127.0.0.1: /style.json and /tiles/{z}/{x}/{y}.pbf, with every request kept;
 * /broken-style.json is the same style with tiles that all answer 500.
 */
export async function startStyleServer(
  lat: number,
  lon: number,
  attribution: string,
): Promise<{ url: string; styleUrl: string; requests: string[]; close(): Promise<void> }> {
  const tile = lakeTiles(lat, lon);
  const requests: string[] = [];
  let base = '';
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '';
    requests.push(path);
    const cors = { 'access-control-allow-origin': '*' };
    if (path === '/style.json' || path === '/broken-style.json') {
      const tiles = path === '/style.json' ? `${base}/tiles/{z}/{x}/{y}.pbf` : `${base}/broken/{z}/{x}/{y}.pbf`;
      response.writeHead(200, { ...cors, 'content-type': 'application/json' });
      response.end(JSON.stringify(lakeStyle(tiles, attribution)));
      return;
    }
    if (path.startsWith('/broken/')) return void response.writeHead(500, cors).end();
    const match = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.pbf$/.exec(path);
    const data = match ? tile(Number(match[1]), Number(match[2]), Number(match[3])) : null;
    if (!data) response.writeHead(match ? 204 : 404, cors).end();
    else response.writeHead(200, { ...cors, 'content-type': 'application/x-protobuf' }).end(Buffer.from(data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    styleUrl: `${base}/style.json`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A vector MBTiles file of the lake (tiles gzipped, as Planetiler writes them), zoom 0 to 14. */
export function lakeMbtiles(path: string, lat: number, lon: number): void {
  const tile = lakeTiles(lat, lon);
  const db = new Database(path);
  db.exec(`CREATE TABLE metadata (name TEXT, value TEXT);
    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)`);
  db.prepare(`INSERT INTO metadata VALUES ('format', 'pbf'), ('maxzoom', '14')`).run();
  const insert = db.prepare(`INSERT INTO tiles VALUES (?, ?, ?, ?)`);
  for (let z = 0; z <= 14; z++) {
    const n = 2 ** z;
    const x = Math.floor(((lon + 180) / 360) * n);
    const r = (lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
    for (let dx = -2; dx <= 2; dx++)
      for (let dy = -2; dy <= 2; dy++) {
        const data = x + dx >= 0 && x + dx < n && y + dy >= 0 && y + dy < n ? tile(z, x + dx, y + dy) : null;
        if (data) insert.run(z, x + dx, n - 1 - (y + dy), gzipSync(data));
      }
  }
  db.close();
}

/** In the page (a string: the tests' types have no DOM): the share of a PNG's pixels near a colour. */
const SHARE_OF_COLOUR = `async ([png, colour]) => {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
  let hits = 0;
  for (let i = 0; i < data.length; i += 4)
    if ([0, 1, 2].every((k) => Math.abs(data[i + k] - colour[k]) < 8)) hits++;
  return hits / (data.length / 4);
}`;

/** The share of the map's pixels in the water colour (a screenshot decoded in the page itself). */
export async function waterShare(page: Page, selector = '#map', colour: readonly number[] = WATER): Promise<number> {
  const png = (await page.locator(selector).screenshot()).toString('base64');
  const share = await page.evaluate(`(${SHARE_OF_COLOUR})(${JSON.stringify([png, [...colour]])})`);
  return share as number;
}
