import { failures, text } from '../http/route-schema.js';
import { DEVICE_QUERY, TRACKER_REPLY, UPLOAD_HEADERS, UPLOAD_REFUSALS, UPLOAD_SECURITY } from './upload-schema.js';

/**
 * The contracts of the other trackers' routes (issue 40 item 7, issue 44): what each app sends,
 * as its own sources and docs/trackers.md give it, and what it reads back. Parameters stay text:
 * the presets parse them with their own messages (presets/*.ts).
 */

/** OsmAnd's parameters: one value, or several when a form repeats one (cell, wifi). */
const param = (description: string) => ({ type: ['string', 'array'], items: { type: 'string' }, description }) as const;

/** The parameters of Traccar's OsmAnd protocol (https://www.traccar.org/osmand/), as presets/osmand-params.ts reads them. */
const OSMAND_PARAMS = {
  id: param('The device (else deviceid)'),
  deviceid: param('The device, when id is not given'),
  lat: param('Latitude, degrees'),
  lon: param('Longitude, degrees'),
  location: param('"latitude,longitude", instead of lat and lon'),
  timestamp: param("The fix's time: epoch seconds or milliseconds, or ISO-8601 (none: the arrival's)"),
  speed: param('Speed, knots'),
  bearing: param('Heading, degrees'),
  heading: param('Heading, degrees, when bearing is not given'),
  altitude: param('Altitude, meters'),
  accuracy: param('Horizontal accuracy, meters'),
  hdop: param('Horizontal dilution of precision (kept as an attribute)'),
  batt: param('Battery level, percent'),
  charge: param('true while charging'),
} as const;

const TRACKER_REFUSALS = [...UPLOAD_REFUSALS, 'NO_DEVICE', 'NO_RECORDS', 'INVALID_TYPE', 'INVALID_RECORD'] as const;

export const OSMAND_SCHEMA = {
  summary: 'Upload an OsmAnd, GPSLogger or Traccar Client position (query, form or JSON)',
  description:
    'Any other parameter is kept as an attribute of the record (at most 50). Traccar Client 9+ sends JSON `{"location": ..., "device_id": ...}`; the traccar-client-sdk an array of parameter objects.',
  security: [...UPLOAD_SECURITY, { deviceKeyQuery: [] }],
  querystring: { type: 'object', properties: OSMAND_PARAMS, additionalProperties: true },
  body: {
    type: ['object', 'array', 'null'],
    items: {},
    description: 'The same parameters as a form or a JSON object, or a Traccar Client JSON body',
  },
  headers: UPLOAD_HEADERS,
  response: TRACKER_REPLY,
} as const;

export const OWNTRACKS_SCHEMA = {
  summary: 'Upload an OwnTracks message (HTTP mode)',
  description:
    'Every message is answered as delivered: a location is stored or kept in quarantine with why, any other type kept in quarantine. An empty body (a deleted friend) is answered [] too.',
  security: [...UPLOAD_SECURITY, { deviceBasic: [] }],
  body: { type: ['object', 'null'], description: 'An OwnTracks JSON message (`_type`: location, ...)' },
  headers: {
    type: 'object',
    properties: {
      ...UPLOAD_HEADERS.properties,
      'x-limit-u': text('The OwnTracks user (the device is user-device)'),
      'x-limit-d': text('The OwnTracks device'),
    },
  },
  querystring: {
    type: 'object',
    properties: {
      ...DEVICE_QUERY.properties,
      u: text('The OwnTracks user, when the app sends no X-Limit-U'),
      d: text('The OwnTracks device, when the app sends no X-Limit-D'),
    },
  },
  response: {
    200: { description: 'The messages for the app: none', type: 'array', items: {}, maxItems: 0 },
    ...failures(...TRACKER_REFUSALS, 'ENCRYPTED'),
  },
} as const;

export const OVERLAND_SCHEMA = {
  summary: 'Upload an Overland batch (GeoJSON features)',
  security: UPLOAD_SECURITY,
  body: { type: 'object', description: 'Overland\'s `{"locations": [Feature...]}`' },
  headers: UPLOAD_HEADERS,
  querystring: DEVICE_QUERY,
  response: {
    // Overland counts a batch delivered only on exactly this answer; anything else and it resends it.
    200: {
      description: 'The batch is delivered',
      type: 'object',
      properties: { result: { type: 'string', enum: ['ok'] } },
      required: ['result'],
    },
    ...failures(...TRACKER_REFUSALS),
  },
} as const;

export const CAPACITOR_SCHEMA = {
  summary: "Upload a Capacitor or Cordova background-geolocation plugin's batch",
  security: UPLOAD_SECURITY,
  body: { type: 'object', description: 'The plugin\'s `{"locations": [...]}` body' },
  headers: UPLOAD_HEADERS,
  querystring: DEVICE_QUERY,
  response: TRACKER_REPLY,
} as const;

export const OSMAND_HEAD_SCHEMA = {
  summary: "Answers a client's reachability check",
  // A HEAD answer has no body.
  response: { 200: { description: 'The route is here' } },
} as const;
