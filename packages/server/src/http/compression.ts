import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Response compression (br, gzip, deflate, as the client's Accept-Encoding prefers) for what is
 * large: exports, the browser SDK bundle (about 213 KB), the dashboard's assets, JSON lists.
 * Left alone: upload routes (answers of a few bytes, on the hot path: no hook at all there),
 * the live feed (SSE is written to the socket directly; event streams are excluded anyway, a
 * compressor would hold events back) and request bodies (body-guards decode those, bounded).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.config?.ingest === true) route.compress = false;
  });
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip', 'deflate'],
    customTypes:
      /^(?!text\/event-stream)(text\/|application\/(json|geo\+json|gpx\+xml|javascript|xml|vnd\.google-earth\.kml\+xml)|image\/svg\+xml)/,
  });
}
