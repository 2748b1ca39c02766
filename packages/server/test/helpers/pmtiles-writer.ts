import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';
import { lakeTiles } from './vector-tiles.js';

/** Unsigned LEB128, as PMTiles directories store their numbers. */
function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/**
 * A PMTiles v3 archive of the given tiles (gzipped vector tiles, one root directory, no leaves),
 * written by the specification (github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): the
 * server must read it with the `pmtiles` library as any tool's archive.
 */
export function writePmtiles(
  path: string,
  tiles: { z: number; x: number; y: number; data: Uint8Array }[],
  maxZoom: number,
): void {
  const entries = tiles
    .map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), data: gzipSync(t.data) }))
    .sort((a, b) => a.id - b.id);
  let offset = 0;
  const placed = entries.map((e) => {
    const at = offset;
    offset += e.data.length;
    return { ...e, offset: at };
  });
  const dir: number[] = [];
  varint(placed.length, dir);
  let last = 0;
  for (const e of placed) {
    varint(e.id - last, dir);
    last = e.id;
  }
  for (let i = 0; i < placed.length; i++) varint(1, dir);
  for (const e of placed) varint(e.data.length, dir);
  placed.forEach((e, i) =>
    varint(i > 0 && e.offset === placed[i - 1]!.offset + placed[i - 1]!.data.length ? 0 : e.offset + 1, dir),
  );
  const root = Buffer.from(dir);
  const metadata = Buffer.from(JSON.stringify({ name: 'lake', vector_layers: [{ id: 'water', fields: {} }] }));
  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  const rootAt = 127;
  const metaAt = rootAt + root.length;
  const dataAt = metaAt + metadata.length;
  u64(8, rootAt);
  u64(16, root.length);
  u64(24, metaAt);
  u64(32, metadata.length);
  u64(40, dataAt); // no leaf directories
  u64(48, 0);
  u64(56, dataAt);
  u64(64, offset);
  u64(72, placed.length);
  u64(80, placed.length);
  u64(88, placed.length);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // directories not compressed
  header.writeUInt8(2, 98); // tiles gzipped
  header.writeUInt8(1, 99); // MVT
  header.writeUInt8(0, 100);
  header.writeUInt8(maxZoom, 101);
  header.writeInt32LE(-180e7, 102);
  header.writeInt32LE(-85e7, 106);
  header.writeInt32LE(180e7, 110);
  header.writeInt32LE(85e7, 114);
  header.writeUInt8(0, 118);
  writeFileSync(path, Buffer.concat([header, root, metadata, ...placed.map((e) => e.data)]));
}

/** The test lake (helpers/vector-tiles.ts) as a PMTiles archive, 5 x 5 tiles around it at zoom 0 to 14. */
export function lakePmtiles(path: string, lat: number, lon: number): void {
  const tile = lakeTiles(lat, lon);
  const out: { z: number; x: number; y: number; data: Uint8Array }[] = [];
  for (let z = 0; z <= 14; z++) {
    const n = 2 ** z;
    const x = Math.floor(((lon + 180) / 360) * n);
    const r = (lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
    for (let dx = -2; dx <= 2; dx++)
      for (let dy = -2; dy <= 2; dy++) {
        const [tx, ty] = [x + dx, y + dy];
        const data = tx >= 0 && tx < n && ty >= 0 && ty < n ? tile(z, tx, ty) : null;
        if (data) out.push({ z, x: tx, y: ty, data });
      }
  }
  writePmtiles(path, out, 14);
}
