import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { LOCAL_TILE_URL } from './mbtiles.js';

/** public/ sits beside src/ and dist/ in the package. */
const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');
const packageDir = (name: string): string => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
const LEAFLET_DIR = join(packageDir('leaflet'), 'dist');
/** Natural Earth country outlines (TopoJSON) and the script that turns them into GeoJSON: the offline basemap. */
const WORLD_ATLAS_DIR = packageDir('world-atlas');
const TOPOJSON_DIR = join(packageDir('topojson-client'), 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
  '.json': 'application/json',
};

/** A file under root, never outside it (no `..` escapes). */
async function fileUnder(root: string, relative: string): Promise<{ data: Buffer; type: string }> {
  const path = normalize(join(root, relative));
  if (!path.startsWith(root + sep)) throw new HttpError(404, 'NOT_FOUND', 'No such file');
  try {
    return { data: await readFile(path), type: TYPES[extname(path)] ?? 'application/octet-stream' };
  } catch {
    throw new HttpError(404, 'NOT_FOUND', `No such file: ${relative}`);
  }
}

/** The dashboard page, its assets, and Leaflet from node_modules (never a CDN). */
export const dashboardRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/', async (_request, reply) => {
    const file = await fileUnder(PUBLIC_DIR, 'index.html');
    return reply.type(file.type).header('cache-control', 'no-cache').send(file.data);
  });
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  // The basemap's tiles: a tile server's template, or this server's own local tile file.
  app.get('/dashboard-config.json', async () => ({
    tileUrl: ctx.options.tileUrl ?? (ctx.options.tileFile ? LOCAL_TILE_URL : null),
  }));
  app.get<{ Params: { '*': string } }>('/assets/*', async (request, reply) => {
    const file = await fileUnder(join(PUBLIC_DIR, 'assets'), request.params['*']);
    return reply.type(file.type).send(file.data);
  });
  const vendor = (prefix: string, root: string) =>
    app.get<{ Params: { '*': string } }>(`/vendor/${prefix}/*`, async (request, reply) => {
      const file = await fileUnder(root, request.params['*']);
      return reply.type(file.type).header('cache-control', 'public, max-age=86400').send(file.data);
    });
  vendor('leaflet', LEAFLET_DIR);
  vendor('world-atlas', WORLD_ATLAS_DIR);
  vendor('topojson-client', TOPOJSON_DIR);
};
