import { EXPORT_FORMATS } from '../export/formats.js';
import { failures } from '../http/route-schema.js';
import { MAX_EXPORT_LIMIT } from './limits.js';
import { DEVICE_PARAMS, DEVICE_READER_FAILURES, queryOf, RANGE_QUERY } from './schemas/read-common.js';

const text = (description: string) => ({ type: 'string', description }) as const;

/**
 * The contract of GET /api/devices/:id/locations (issue 40 item 7): its query parameters, the
 * media type of each format and the paging headers, as the OpenAPI document shows them. The
 * parameters stay text (the handler parses them, routes/query-params.ts, with its own messages).
 */
export const EXPORT_SCHEMA = {
  summary: "A device's records as JSON, GeoJSON, GPX, KML or CSV, whole or a page at a time",
  params: DEVICE_PARAMS,
  querystring: queryOf({
    format: text(`One of ${EXPORT_FORMATS.join(', ')} (default json)`),
    ...RANGE_QUERY,
    limit: text(`At most this many records, 1..${MAX_EXPORT_LIMIT}; without it, the whole range`),
    after: text('The cursor of the page to continue after (from Waypost-Next-Cursor or Link)'),
  }),
  response: {
    200: {
      description: 'The records, in the format asked, oldest first',
      headers: {
        link: text('<...&after=cursor>; rel="next" when a limit left records out'),
        'waypost-next-cursor': text('The cursor of the next page, when a limit left records out'),
        'waypost-columns-omitted': text('CSV: how many field columns were left out past the most kept'),
      },
      content: {
        'application/json': { schema: { type: 'array', items: { type: 'object', additionalProperties: true } } },
        'application/geo+json': { schema: { type: 'object', additionalProperties: true } },
        'application/gpx+xml': { schema: { type: 'string' } },
        'application/vnd.google-earth.kml+xml': { schema: { type: 'string' } },
        'text/csv': { schema: { type: 'string' } },
      },
    },
    ...failures(...DEVICE_READER_FAILURES, 'INVALID_PARAMETER'),
  },
} as const;
