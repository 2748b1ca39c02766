import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { declarePublicFamily } from '../http/route-access-check.js';
import { failures, fileAnswer, text } from '../http/route-schema.js';

/** The bundle @waypost/browser builds (npm run build), and the tracker page beside the dashboard. */
const BROWSER_DIST = join(dirname(createRequire(import.meta.url).resolve('@waypost/browser/package.json')), 'dist');
const TRACK_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'track');
/** The tracker's compiled TypeScript (npm run build: build-pages.mjs compiles pages/track/). */
const BUILT_TRACK_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'pages', 'track');

/** Only these files are served: a fixed list, so no path from a request ever reaches the disk. */
const SDK_FILES: Record<string, string> = {
  'waypost-browser.js': 'text/javascript; charset=utf-8',
  'waypost-browser.js.map': 'application/json',
};
const TRACK_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'track.js': 'text/javascript; charset=utf-8',
  'tracker-ui.js': 'text/javascript; charset=utf-8',
  'sw.js': 'text/javascript; charset=utf-8',
  'track.js.map': 'application/json',
  'tracker-ui.js.map': 'application/json',
  'sw.js.map': 'application/json',
  'style.css': 'text/css; charset=utf-8',
  'manifest.webmanifest': 'application/manifest+json',
  'icon-192.png': 'image/png',
  'icon-512.png': 'image/png',
};

/** The file a route serves: one of `names` (any other is answered 404 NOT_FOUND by the handler). */
const fileParams = (names: Record<string, string>) =>
  ({
    type: 'object',
    properties: { file: text(`One of ${Object.keys(names).join(', ')}`) },
    required: ['file'],
  }) as const;
const SDK_SCHEMA = {
  summary: 'The browser SDK (an ES module) and its source map',
  params: fileParams(SDK_FILES),
  response: { 200: fileAnswer('The file', Object.values(SDK_FILES)), ...failures('NOT_FOUND') },
} as const;
const TRACK_FILE_SCHEMA = {
  summary: "The tracker page's files (its scripts, service worker, manifest, icons)",
  params: fileParams(TRACK_FILES),
  response: { 200: fileAnswer('The file', Object.values(TRACK_FILES)), ...failures('NOT_FOUND') },
} as const;
const TRACK_PAGE_SCHEMA = {
  summary: 'The tracker page: a phone enrolls and uploads through the browser SDK',
  response: { 200: fileAnswer('The page', ['text/html']), ...failures('NOT_FOUND') },
} as const;
const TRACK_REDIRECT_SCHEMA = {
  summary: 'The tracker page is /track/ (its relative links need the slash)',
  response: { 301: { description: 'To /track/', headers: { location: text('/track/') } } },
} as const;

async function send(reply: FastifyReply, dir: string, name: string, types: Record<string, string>) {
  const type = types[name];
  if (!type) throw new HttpError(404, 'NOT_FOUND', `No such file: ${name}`);
  let data: Buffer;
  try {
    // The tracker's scripts are compiled from pages/track/; its page, icons and manifest are as written.
    data = await readFile(join(dir === TRACK_DIR ? BUILT_TRACK_DIR : dir, name)).catch(() => readFile(join(dir, name)));
  } catch {
    throw new HttpError(404, 'NOT_FOUND', `No such file: ${name} (run npm run build for the browser SDK)`);
  }
  // Revalidated on each load: the tracker's service worker keeps its own copy for offline use.
  return reply.type(type).header('cache-control', 'no-cache').send(data);
}

/**
 * The browser SDK at /sdk/waypost-browser.js, and the tracker page at /track/: a phone opens it,
 * enrolls under the server's registration policy and uploads through the SDK's durable queue.
 */
export const browserSdkRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, _options) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  declarePublicFamily(app, "the browser SDK's files");
  app.get('/sdk/:file', { schema: SDK_SCHEMA }, (request, reply) =>
    send(reply, BROWSER_DIST, request.params.file, SDK_FILES),
  );
  app.get('/track', { schema: TRACK_REDIRECT_SCHEMA }, (_request, reply) => reply.redirect('/track/', 301));
  app.get('/track/', { schema: TRACK_PAGE_SCHEMA }, (_request, reply) =>
    send(reply, TRACK_DIR, 'index.html', TRACK_FILES),
  );
  app.get('/track/:file', { schema: TRACK_FILE_SCHEMA }, (request, reply) =>
    send(reply, TRACK_DIR, request.params.file, TRACK_FILES),
  );
};
