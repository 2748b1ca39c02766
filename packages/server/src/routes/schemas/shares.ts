import { failures } from '../../http/route-schema.js';
import { MS, MS_OR_NULL, NEWEST, queryOf, queryText, READER_FAILURES, TIME_TEXT, TRIPS } from './read-common.js';

/**
 * The contracts of the share links (routes/shares.ts, issue 22): the operator's routes that make,
 * list and end them, and the public page and track a link opens.
 */

const TIME_INPUT = { type: ['string', 'number', 'null'], description: TIME_TEXT } as const;

/** The body stays open to unknown keys: the handler names the nearest known key (INVALID_OPTION). */
export const CREATE_SHARE_SCHEMA = {
  summary: "Make a share link: a read-only map of one device's track in a window, until it expires",
  // A request without a body is refused by the handler, after the caller's credentials (401 first).
  body: {
    type: ['object', 'null'],
    properties: {
      device: { type: 'string', description: "The device's id" },
      from: { ...TIME_INPUT, description: `The window's first time (${TIME_TEXT}); absent: its whole past` },
      to: { ...TIME_INPUT, description: `The window's last time (${TIME_TEXT}); absent: up to now, live` },
      expiresAt: {
        type: ['string', 'number'],
        description: `When the link stops working (${TIME_TEXT}), at most 366 days ahead`,
      },
    },
  },
  response: {
    201: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The link id, for DELETE /api/shares/{id}' },
        url: { type: 'string', description: 'The link: shown this once, the server keeps only its hash' },
        expiresAt: { type: ['string', 'null'], description: 'ISO-8601' },
      },
      required: ['id', 'url', 'expiresAt'],
      additionalProperties: false,
    },
    ...failures(
      ...READER_FAILURES,
      'UNKNOWN_DEVICE',
      'INVALID_BODY',
      'INVALID_OPTION',
      'INVALID_PARAMETER',
      'MISSING_PARAMETER',
    ),
  },
} as const;

const ISO_OR_NULL = (description: string) => ({ type: ['string', 'null'], description }) as const;

export const SHARE = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    device: { type: 'string' },
    from: ISO_OR_NULL("The window's first time; null: open"),
    to: ISO_OR_NULL("The window's last time; null: open (live)"),
    expiresAt: ISO_OR_NULL('When the link stops working'),
    createdAt: ISO_OR_NULL('When it was made'),
    deletedAt: ISO_OR_NULL('When it was ended; null: not ended'),
    active: { type: 'boolean', description: 'Neither ended nor expired' },
  },
  required: ['id', 'device', 'from', 'to', 'expiresAt', 'createdAt', 'deletedAt', 'active'],
  additionalProperties: false,
} as const;

export const LIST_SHARES_SCHEMA = {
  summary: 'The share links the caller may see, newest first',
  querystring: queryOf({
    device: queryText("Only this device's links"),
    limit: queryText('Links at most, 1..1000 (default 100)'),
  }),
  response: { 200: { type: 'array', items: SHARE }, ...failures(...READER_FAILURES, 'INVALID_PARAMETER') },
} as const;

export const DELETE_SHARE_SCHEMA = {
  summary: 'End a share link: its page and track answer 410 from now on',
  params: {
    type: 'object',
    properties: { id: { type: 'string', description: 'The link id' } },
    required: ['id'],
  },
  response: {
    204: { description: 'Ended: no body', type: 'null' },
    ...failures(...READER_FAILURES, 'UNKNOWN_SHARE'),
  },
} as const;

const TOKEN_PARAMS = {
  type: 'object',
  properties: { token: { type: 'string', description: "The link's token (the last part of its url)" } },
  required: ['token'],
} as const;

const PAGE = (description: string) =>
  ({ description, content: { 'text/html': { schema: { type: 'string' } } } }) as const;

export const SHARE_PAGE_SCHEMA = {
  summary: "The page a share link opens: a read-only map of the device's track",
  params: TOKEN_PARAMS,
  response: {
    200: PAGE('The share page'),
    404: PAGE('The same page, which says there is no such link (UNKNOWN_SHARE)'),
    410: PAGE('The same page, which says the link expired or was ended (SHARE_GONE)'),
  },
} as const;

export const SHARED_TRACK_SCHEMA = {
  summary: "The track a share link shows: the device's label, the link's window and the track in it",
  params: TOKEN_PARAMS,
  querystring: queryOf({ zoom: queryText('The map zoom the track is simplified for, 0..22 (default 14)') }),
  response: {
    200: {
      type: 'object',
      properties: {
        name: { type: ['string', 'null'], description: "The device's name; null: none (its id is not shown)" },
        from: { ...MS_OR_NULL, description: "The window's first time (epoch ms); null: open" },
        to: { ...MS_OR_NULL, description: "The window's last time (epoch ms); null: open (live)" },
        expiresAt: { ...MS, description: 'When the link stops working (epoch ms)' },
        newest: NEWEST,
        trips: TRIPS,
      },
      required: ['name', 'from', 'to', 'expiresAt', 'newest', 'trips'],
      additionalProperties: false,
      headers: { 'cache-control': { type: 'string', description: 'no-store' } },
    },
    ...failures('UNKNOWN_SHARE', 'SHARE_GONE', 'INVALID_PARAMETER'),
  },
} as const;
