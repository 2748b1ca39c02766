import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { basemapOf } from './basemap-config.js';
import { localStyle, LOCAL_STYLE_URL } from './local-style.js';
import { LOCAL_TILE_URL, type TileFile } from './mbtiles.js';
import { declarePublicFamily } from '../http/route-access-check.js';
import { failures, fileAnswer, fileBytes, text } from '../http/route-schema.js';

const NO_FILE = failures('NOT_FOUND');
const PATH_PARAMS = {
  type: 'object',
  properties: { '*': text('The file, under the folder') },
  required: ['*'],
} as const;
const fileSchema = (summary: string, types: readonly string[]) =>
  ({ summary, params: PATH_PARAMS, response: { 200: fileAnswer('The file', types), ...NO_FILE } }) as const;

const CONFIG_SCHEMA = {
  summary: "The dashboard's settings: its basemap, and the times behind its words",
  response: {
    200: {
      description: 'The settings',
      type: 'object',
      properties: {
        basemap: {
          type: 'object',
          description: 'kind style (a MapLibre style URL), raster (a tile template) or outline (no request to anyone)',
          properties: {
            kind: { type: 'string', enum: ['style', 'raster', 'outline'] },
            style: text('The style URL (kind style)'),
            tiles: text('The tile template (kind raster)'),
            attribution: { type: ['string', 'null'], description: 'The credit to show' },
          },
          required: ['kind'],
          additionalProperties: false,
        },
        silentAfterSeconds: { type: 'number', description: 'When a device turns silent' },
        lateAfterSeconds: { type: 'number', description: 'What "(late)" means on the timeline' },
        sso: { type: 'boolean', description: 'The login page offers single sign-on' },
      },
      required: ['basemap', 'silentAfterSeconds', 'lateAfterSeconds', 'sso'],
      additionalProperties: false,
    },
  },
} as const;

/** public/ sits beside src/ and dist/ in the package. */
const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');
/** The pages' compiled TypeScript (npm run build: build-pages.mjs compiles pages/ into dist/pages/). */
const BUILT_ASSETS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'pages', 'assets');
const packageDir = (name: string): string => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
const LEAFLET_DIR = join(packageDir('leaflet'), 'dist');
/** Natural Earth country outlines (TopoJSON) and the script that turns them into GeoJSON: the offline basemap. */
const WORLD_ATLAS_DIR = packageDir('world-atlas');
const TOPOJSON_DIR = join(packageDir('topojson-client'), 'dist');
/** MapLibre GL JS (ES module and its worker) and its Leaflet binding: the vector basemap. */
const MAPLIBRE_DIR = join(packageDir('maplibre-gl'), 'dist');
const MAPLIBRE_LEAFLET_DIR = packageDir('@maplibre/maplibre-gl-leaflet');
/** Leaflet-Geoman (MIT): drawing and editing geofences on the map. */
// Its exports hide package.json: the main file's folder (dist/) is the one served.
const GEOMAN_DIR = dirname(createRequire(import.meta.url).resolve('@geoman-io/leaflet-geoman-free'));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
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

/** The dashboard page, its assets, and Leaflet and MapLibre from node_modules (never a CDN). */
export const dashboardRoutes: FastifyPluginAsync<{ ctx: AppContext; tiles: TileFile | null }> = async (
  plain,
  { ctx, tiles },
) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  declarePublicFamily(app, "the dashboard's files");
  const page = { summary: "The dashboard's page", response: { 200: fileAnswer('The page', ['text/html']) } };
  app.get('/', { schema: page }, async (_request, reply) => {
    const file = await fileUnder(PUBLIC_DIR, 'index.html');
    return reply.type(file.type).header('cache-control', 'no-cache').send(fileBytes(file.data));
  });
  const favicon = { summary: 'No icon (a browser asks anyway)', response: { 204: { description: 'No icon' } } };
  app.get('/favicon.ico', { schema: favicon }, async (_request, reply) => reply.code(204).send());
  // The basemap: a style, a raster template, this server's own tile file, or the outline.
  const basemap = basemapOf(ctx.options, tiles);
  // silentAfterSeconds: when a vehicle's marker turns "silent" (the server's device.silent rule).
  const silentAfterSeconds = ctx.options.fleet.silentAfterMs / 1000;
  // lateAfterSeconds: what the timeline's "(late)" means (pages/dashboard/timeline-items.ts).
  const lateAfterSeconds = ctx.options.fleet.lateAfterMs / 1000;
  // sso: the login page offers single sign-on (GET /api/oidc/login).
  const sso = ctx.options.oidc !== null;
  app.get('/dashboard-config.json', { schema: CONFIG_SCHEMA }, async () => ({
    basemap,
    silentAfterSeconds,
    lateAfterSeconds,
    sso,
  }));
  if (tiles?.vector) {
    const style = localStyle(LOCAL_TILE_URL, tiles.maxzoom);
    const styleSchema = {
      summary: "The MapLibre style of this server's own vector tile file",
      response: { 200: { description: 'The style', type: 'object', additionalProperties: true } },
    } as const;
    app.get(LOCAL_STYLE_URL, { schema: styleSchema }, async (_request, reply) =>
      reply.header('cache-control', 'no-cache').send(style),
    );
  }
  const assets = fileSchema("The dashboard's scripts and stylesheets", Object.values(TYPES));
  app.get('/assets/*', { schema: assets }, async (request, reply) => {
    // A compiled module first, then the stylesheets (and any module not yet in TypeScript).
    const relative = request.params['*'];
    const file = await fileUnder(BUILT_ASSETS_DIR, relative).catch(() =>
      fileUnder(join(PUBLIC_DIR, 'assets'), relative),
    );
    return reply.type(file.type).send(fileBytes(file.data));
  });
  const vendor = (prefix: string, root: string) =>
    app.get(
      `/vendor/${prefix}/*`,
      { schema: fileSchema(`The ${prefix} files the dashboard uses (from its npm package)`, Object.values(TYPES)) },
      async (request, reply) => {
        const file = await fileUnder(root, request.params['*']);
        return reply.type(file.type).header('cache-control', 'public, max-age=86400').send(fileBytes(file.data));
      },
    );
  vendor('leaflet', LEAFLET_DIR);
  vendor('world-atlas', WORLD_ATLAS_DIR);
  vendor('topojson-client', TOPOJSON_DIR);
  vendor('maplibre-gl', MAPLIBRE_DIR);
  vendor('maplibre-gl-leaflet', MAPLIBRE_LEAFLET_DIR);
  vendor('leaflet-geoman', GEOMAN_DIR);
};
