import { EVENT_TYPES } from '../../fleet/fleet-event.js';
import { ISO, text } from './common.js';
import { GEOFENCE_CIRCLE, GEOFENCE_OPTIONS } from './geofences.js';

/**
 * The contracts of the fleet's admin API (routes/fleet-admin.ts): geofences, webhooks and sinks,
 * dead letters. Bodies say their shape and refuse unknown keys; the finer rules (a URL's scheme, a
 * secret's length, a latitude's range) stay in the handlers, which answer them with their own
 * messages (sink-input.ts, the SDK's parseGeofence).
 */

/** What naming an org may answer (accounts/fleet-scope.ts), and a body's unknown key. */
export const ORG_CODES = ['INVALID_ORG', 'UNKNOWN_ORG', 'NO_ORG', 'ORG_REQUIRED', 'INVALID_OPTION'] as const;

const ORG = text('The org it belongs to (a user limited to several orgs must name one); absent: the fleet');
const EVENTS = {
  type: 'array',
  items: { type: 'string' },
  description: `The event types it receives (${EVENT_TYPES.join(', ')}); absent: all but location`,
} as const;

export const GEOFENCE_BODY = {
  type: 'object',
  required: ['identifier'],
  additionalProperties: false,
  properties: {
    ...GEOFENCE_CIRCLE,
    // Any pairs: the SDK's parseGeofence refuses a corner that is not one, naming it.
    vertices: {
      type: 'array',
      items: { type: 'array', items: { type: 'number' } },
      description: "A polygon's corners as [latitude, longitude] pairs (then its circle is computed)",
    },
    ...GEOFENCE_OPTIONS,
    org: ORG,
  },
} as const;

export const GEOFENCE_PARAMS = {
  type: 'object',
  required: ['identifier'],
  properties: { identifier: { type: 'string' } },
} as const;
export const GEOFENCE_DELETE_QUERY = {
  type: 'object',
  properties: { org: text('Whose geofence, when several orgs name one alike') },
} as const;
export const GEOFENCE_DELETED = {
  type: 'object',
  properties: { deleted: { type: 'string' }, org: { type: 'string' } },
  required: ['deleted'],
} as const;

export const WEBHOOK_BODY = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: text('An http(s) URL'),
    events: EVENTS,
    secret: text('whsec_ and 16 to 64 bytes in base64; absent: one is made'),
    org: ORG,
  },
} as const;

export const SINK_BODY = {
  type: 'object',
  required: ['kind', 'url'],
  additionalProperties: false,
  properties: {
    kind: text('webhook, mqtt or nats'),
    url: text(
      'http(s):// for a webhook, mqtt(s):// or ws(s):// for MQTT, nats:// or tls:// (comma-separated) for NATS',
    ),
    events: EVENTS,
    secret: text("A webhook's signing secret (whsec_...); absent: one is made"),
    org: ORG,
  },
} as const;

export const PAUSE_BODY = {
  type: 'object',
  required: ['paused'],
  additionalProperties: false,
  properties: { paused: { type: 'boolean' } },
} as const;

/** Absent or `{}`: every dead letter; `{ "ids": [...] }`: those events only. */
export const REPLAY_BODY = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { ids: { type: 'array', maxItems: 1000, items: { type: 'string' } } },
} as const;

/** A sink as the API answers it; lastError as the reader may read it (whole, its kind, or null). */
export const SINK = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    kind: { type: 'string', enum: ['webhook', 'mqtt', 'nats'] },
    url: text('Without its password'),
    events: { type: ['array', 'null'], items: { type: 'string' } },
    origin: { type: 'string', enum: ['api', 'cli'] },
    org: { type: ['string', 'null'] },
    createdAt: ISO,
    pending: { type: 'integer', description: 'Events waiting to be delivered' },
    dead: { type: 'integer', description: 'Events given up on (dead letters)' },
    lastError: { type: ['string', 'null'] },
    paused: { type: 'boolean' },
    secret: text("A webhook's signing secret: in the answer to its creation only"),
  },
  required: ['id', 'kind', 'url', 'events', 'origin', 'org', 'createdAt', 'pending', 'dead', 'lastError', 'paused'],
  additionalProperties: false,
} as const;

export const DEAD_LETTER = {
  type: 'object',
  properties: {
    seq: { type: 'integer' },
    event: {
      type: 'object',
      description: 'The event as the sink would have received it',
      properties: { type: { type: 'string' }, device: { type: 'string' }, timestamp: { type: 'string' } },
      additionalProperties: true,
    },
    attempts: { type: 'integer' },
    lastError: { type: ['string', 'null'] },
  },
  required: ['seq', 'event', 'attempts', 'lastError'],
} as const;

export const DEAD_LETTER_QUERY = {
  type: 'object',
  properties: { limit: text('At most this many, 1..10000 (default 100)') },
} as const;
