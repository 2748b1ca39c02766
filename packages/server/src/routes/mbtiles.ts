import Database from 'better-sqlite3';
import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { HttpError } from '../errors.js';
import { ServerOptionError } from '../option-checks.js';
import { openPmtilesFile } from './pmtiles-file.js';
import type { TileFile } from './tile-file.js';
import { declarePublicFamily } from '../http/route-access-check.js';
import { failures, fileAnswer, fileBytes, text } from '../http/route-schema.js';

/** Raster formats a browser draws, and vector tiles (Mapbox Vector Tile protobufs) MapLibre draws. */
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  pbf: 'application/x-protobuf',
  mvt: 'application/x-protobuf',
};

const TILE_SCHEMA = {
  summary: "A tile of this server's own tile file (MBTiles or PMTiles)",
  params: {
    type: 'object',
    properties: { z: text('Zoom, 0..24'), x: text('Column'), y: text('Row, from the north (an extension is ignored)') },
    required: ['z', 'x', 'y'],
  },
  response: {
    200: fileAnswer('The tile (vector tiles gzipped as stored)', Object.values(TYPES)),
    ...failures('NO_TILE'),
  },
} as const;

/** The URL template the dashboard gets for a local tile file. */
export const LOCAL_TILE_URL = '/tiles/{z}/{x}/{y}';

export type { TileFile } from './tile-file.js';

/**
 * A local MBTiles file (SQLite: tiles(zoom_level, tile_column, tile_row, tile_data), rows counted
 * from the south as TMS does) opened read-only, for a basemap with no network at all. Throws at
 * start for a file that is not one, or holds vector tiles.
 */
export function openMbtilesFile(path: string): TileFile {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new ServerOptionError('tileFile', `${JSON.stringify(path)} cannot be opened: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    const format = (
      db.prepare(`SELECT value FROM metadata WHERE name = 'format'`).get() as { value: string } | undefined
    )?.value.toLowerCase();
    const type = TYPES[format ?? 'png'];
    if (!type) throw new Error(`${path} holds ${format} tiles; the dashboard draws png, jpg, webp or pbf tiles`);
    const metaZoom = Number(
      (db.prepare(`SELECT value FROM metadata WHERE name = 'maxzoom'`).get() as { value: string } | undefined)?.value,
    );
    const read = db.prepare(`SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?`);
    return {
      type,
      vector: type === TYPES['pbf'],
      maxzoom: Number.isInteger(metaZoom) && metaZoom >= 0 && metaZoom <= 24 ? metaZoom : 14,
      tile(z, x, y) {
        const row = read.get(z, x, 2 ** z - 1 - y) as { tile_data: Buffer } | undefined;
        return row ? row.tile_data : null;
      },
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw new ServerOptionError('tileFile', `${JSON.stringify(path)}: ${(error as Error).message}`, { cause: error });
  }
}

/** A local tile file: a PMTiles archive (by its .pmtiles name) or an MBTiles file. */
export const openTileFile = (path: string): Promise<TileFile> =>
  /\.pmtiles$/i.test(path) ? openPmtilesFile(path) : Promise.resolve(openMbtilesFile(path));

/** GET /tiles/:z/:x/:y from the local tile file (404 where it has no tile). */
export const tileFileRoutes: FastifyPluginAsync<{ tiles: TileFile }> = async (plain, { tiles }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  declarePublicFamily(app, "the street map's tiles");
  app.addHook('onClose', async () => tiles.close());
  app.get('/tiles/:z/:x/:y', { schema: TILE_SCHEMA }, async (request, reply) => {
    const [z, x, y] = [request.params.z, request.params.x, request.params.y].map((v) =>
      Number(v.replace(/\.\w+$/, '')),
    );
    const valid = [z, x, y].every((n) => Number.isInteger(n) && n! >= 0) && z! <= 24 && x! < 2 ** z! && y! < 2 ** z!;
    const data = valid ? await tiles.tile(z!, x!, y!) : null;
    if (!data) throw new HttpError(404, 'NO_TILE', 'No such tile');
    reply.type(tiles.type).header('cache-control', 'public, max-age=86400');
    // Vector MBTiles (Planetiler, OpenMapTiles, OpenFreeMap's downloads) keep their tiles gzipped.
    if (data[0] === 0x1f && data[1] === 0x8b) reply.header('content-encoding', 'gzip');
    return reply.send(fileBytes(data));
  });
};
