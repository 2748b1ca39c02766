import { ANY_OBJECT } from './common.js';

/**
 * A geofence as the SDK holds it (@waypost/sdk's Geofence), named once for every route that takes
 * or answers one: the fleet's (schemas/fleet.ts, GET and POST /api/geofences) and those a device was
 * told to monitor (schemas/dashboard.ts). The answers differ only in what they require and the org.
 */

/** Its circle (a polygon's is computed from its corners). */
export const GEOFENCE_CIRCLE = {
  identifier: { type: 'string' },
  latitude: { type: 'number' },
  longitude: { type: 'number' },
  radius: { type: 'number', description: 'Metres' },
} as const;

/** When it notifies, and what its events carry. */
export const GEOFENCE_OPTIONS = {
  notifyOnEntry: { type: 'boolean' },
  notifyOnExit: { type: 'boolean' },
  notifyOnDwell: { type: 'boolean' },
  loiteringDelay: { type: 'number', description: 'Milliseconds inside before a dwell' },
  extras: ANY_OBJECT,
} as const;

const ANSWERED = {
  ...GEOFENCE_CIRCLE,
  ...GEOFENCE_OPTIONS,
  vertices: {
    type: 'array',
    items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
    description: "A polygon's corners as [latitude, longitude] pairs",
  },
} as const;

const CIRCLE_REQUIRED = ['identifier', 'latitude', 'longitude', 'radius'] as const;

/** A device's geofence, replayed from its commands by the SDK's parseGeofence: every option filled. */
export const DEVICE_GEOFENCE = {
  type: 'object',
  properties: ANSWERED,
  required: [...CIRCLE_REQUIRED, 'notifyOnEntry', 'notifyOnExit', 'notifyOnDwell', 'loiteringDelay', 'extras'],
  additionalProperties: false,
} as const;

/**
 * A geofence the server stores, with its org. One stored before its options existed (an upgraded
 * server's, audit-upgrade.test.ts) has only its circle: requiring more would fail its listing.
 */
export const SERVER_GEOFENCE = {
  type: 'object',
  properties: { ...ANSWERED, org: { type: 'string', description: 'Absent: a fleet geofence' } },
  required: CIRCLE_REQUIRED,
  additionalProperties: false,
} as const;
