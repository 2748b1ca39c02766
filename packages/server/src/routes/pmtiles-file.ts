import { open, type FileHandle } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Compression, PMTiles, TileType, type Source } from 'pmtiles';
import { ServerOptionError } from '../option-checks.js';
import type { TileFile } from './mbtiles.js';

const TYPES: Partial<Record<TileType, string>> = {
  [TileType.Png]: 'image/png',
  [TileType.Jpeg]: 'image/jpeg',
  [TileType.Webp]: 'image/webp',
  [TileType.Mvt]: 'application/x-protobuf',
};

/** The archive read from the local file by offset (the pmtiles library asks byte ranges). */
class LocalSource implements Source {
  constructor(
    private readonly file: FileHandle,
    private readonly path: string,
  ) {}
  getKey = (): string => this.path;
  async getBytes(offset: number, length: number) {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.file.read(buffer, 0, length, offset);
    const data = buffer.subarray(0, bytesRead);
    return { data: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer };
  }
}

/** Node's zlib for the archive's directories and tiles (gzip or brotli; none as is). */
async function decompress(bytes: ArrayBuffer, compression: Compression): Promise<ArrayBuffer> {
  if (compression === Compression.None || compression === Compression.Unknown) return bytes;
  const input = new Uint8Array(bytes);
  const out =
    compression === Compression.Gzip
      ? gunzipSync(input)
      : compression === Compression.Brotli
        ? brotliDecompressSync(input)
        : null;
  if (!out) throw new Error(`compression ${Compression[compression]} is not supported; use gzip`);
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
}

/**
 * A local PMTiles v3 archive (one file, tiles found through its directories), read with the
 * `pmtiles` library: raster or vector tiles served at /tiles/{z}/{x}/{y} like an MBTiles file's.
 * Throws at start for a file that is not one.
 */
export async function openPmtilesFile(path: string): Promise<TileFile> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new ServerOptionError('tileFile', `${JSON.stringify(path)} cannot be opened: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    const archive = new PMTiles(new LocalSource(file, path), undefined, decompress);
    const header = await archive.getHeader();
    const type = TYPES[header.tileType];
    if (!type)
      throw new Error(
        `it holds ${TileType[header.tileType] ?? 'unknown'} tiles; the dashboard draws png, jpg, webp or mvt`,
      );
    return {
      type,
      vector: header.tileType === TileType.Mvt,
      maxzoom: header.maxZoom,
      async tile(z, x, y) {
        if (z < header.minZoom || z > header.maxZoom) return null;
        const found = await archive.getZxy(z, x, y);
        return found ? Buffer.from(found.data) : null;
      },
      close: () => void file.close(),
    };
  } catch (error) {
    await file.close();
    throw new ServerOptionError(
      'tileFile',
      `${JSON.stringify(path)} is not a PMTiles archive the map can draw: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
