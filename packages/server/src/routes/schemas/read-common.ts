import type { ServerErrorCode } from '../../error-codes.js';

/**
 * The pieces the read routes' contracts share (issue 44): the `{id}` path parameter, query
 * parameters as text, times and nullable values, and the codes any operator route may answer.
 */

/** The caller refused: no or a wrong token, a device's or org's token, a role below the route's. */
export const READER_FAILURES = [
  'ADMIN_TOKEN_REQUIRED',
  'WRONG_TOKEN',
  'FORBIDDEN',
  'ROLE_FORBIDDEN',
] as const satisfies readonly ServerErrorCode[];

/** A device route: the above, a device outside a limited user's scope (NOT_FOUND) or none at all. */
export const DEVICE_READER_FAILURES = [
  ...READER_FAILURES,
  'NOT_FOUND',
  'UNKNOWN_DEVICE',
] as const satisfies readonly ServerErrorCode[];

export const DEVICE_PARAMS = {
  type: 'object',
  properties: { id: { type: 'string', description: "The device's id" } },
  required: ['id'],
} as const;

/** A query parameter's text: the handlers parse it (routes/query-params.ts) with their own messages. */
export const queryText = (description: string) => ({ type: 'string', description }) as const;

export const TIME_TEXT = 'ISO-8601, or epoch seconds or milliseconds';

/** The range of time most read routes take: `from` and `to`, both ends included. */
export const RANGE_QUERY = {
  from: queryText(`The first time of the range (${TIME_TEXT})`),
  to: queryText(`The last time of the range (${TIME_TEXT})`),
} as const;

/**
 * A route's query string: these parameters, and any other as text (a page's cache buster is no
 * error); so the handler's type stays a map of strings.
 */
export const queryOf = <const P extends Record<string, unknown>>(properties: P) =>
  ({ type: 'object', properties, additionalProperties: { type: 'string' } }) as const;

/** An epoch-milliseconds time. */
export const MS = { type: 'integer', description: 'Epoch milliseconds' } as const;
export const MS_OR_NULL = { type: ['integer', 'null'], description: 'Epoch milliseconds; null: not known' } as const;

/** A point of a drawn track: [latitude, longitude, epoch ms]. */
export const TRACK_POINT = {
  type: 'array',
  items: { type: 'number' },
  minItems: 3,
  maxItems: 3,
  description: '[latitude, longitude, epoch ms]',
} as const;

/** A track's trips as drawn: each a list of points, never joined to the next. */
export const TRIPS = { type: 'array', items: { type: 'array', items: TRACK_POINT } } as const;

/** The newest position read: epoch ms and where. */
export const NEWEST = {
  type: ['object', 'null'],
  properties: { t: MS, lat: { type: 'number' }, lon: { type: 'number' } },
  required: ['t', 'lat', 'lon'],
  additionalProperties: false,
  description: 'The newest position in the range; null: none',
} as const;
