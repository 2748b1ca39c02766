import type { ServerErrorCode } from '../error-codes.js';
import { failures, text } from '../http/route-schema.js';
import { DEVICE_CREDENTIAL_CODES } from './schemas/common.js';

/**
 * The contract every upload route shares (issue 44): the headers it reads, the answer clients
 * read, and the refusals an upload can meet, from its credential to its records. The schemas only
 * describe: the headers and the query are text the handlers read as before (no coercion), and the
 * answer's members are those the handlers return (fast-json-stringify drops any other).
 */

/** What the credential gate, the body's decoding and the ingest decide before a record is stored. */
export const UPLOAD_REFUSALS: readonly ServerErrorCode[] = [
  'MALFORMED_JSON',
  'EMPTY_BODY',
  'INVALID_BODY',
  'TOO_DEEP',
  'INVALID_ENCODING',
  'INVALID_COLUMNAR',
  ...DEVICE_CREDENTIAL_CODES,
  'WRONG_TOKEN',
  'FORBIDDEN',
  'DEVICE_BLOCKED',
  'BANNED',
  'REGISTRATION_REQUIRED',
  'DEVICE_DELETED',
  'ORG_DELETED',
  'TOO_MANY_RECORDS',
  'TOO_MANY_VALUES',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNSUPPORTED_ENCODING',
  'RATE_LIMITED',
];

/** The refusals of the Waypost and anchor bodies: their records' and device's checks besides. */
const RECORD_REFUSALS: readonly ServerErrorCode[] = [
  'NO_DEVICE',
  'NO_LOCATION',
  'INVALID_RECORD',
  'INVALID_TYPE',
  'INVALID_DEVICE_ID',
  'INVALID_ORG',
  'TEXT_TOO_LONG',
];

/**
 * An upload's credential: a device token or key as Bearer, or none where the server does not
 * require one (docs/trackers.md says which apps send which).
 */
export const UPLOAD_SECURITY = [{}, { deviceCredential: [] }] as const;

/** Headers an upload may carry besides its credential (Authorization) and body's coding. */
export const UPLOAD_HEADERS = {
  type: 'object',
  properties: {
    'x-device-id': text('The device, when neither a token nor the body names it (bare-array bodies)'),
    'waypost-dropped': text('Sequence numbers the device dropped before sending (docs/receipts.md)'),
    'waypost-receipts': text('1: the answer carries a signed receipt of what it stored'),
    'waypost-receipted': text('How far the device holds receipts: what this server lost is asked for again'),
  },
} as const;

/** `?device_id=`: the device of a bare-array body, as X-Device-Id. */
export const DEVICE_QUERY = {
  type: 'object',
  properties: { device_id: text('The device, when neither a token nor the body names it') },
} as const;

const RECEIPT_HEADERS = {
  'waypost-receipts-offered': text('1: this server signs receipts (ask with Waypost-Receipts: 1)'),
  'waypost-receipt': text('The signed receipt of what this answer committed, when asked for'),
  'waypost-receipt-key': text("The receipt's signing key (its id and public key)"),
} as const;

/** The answer clients read: counts, records kept in quarantine, and commands for the device. */
const UPLOAD_SUMMARY = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    stored: { type: 'integer', description: 'Records stored by this request' },
    duplicates: { type: 'integer', description: 'Records this server held already' },
    quarantined: { type: 'integer', description: 'Records kept in quarantine, with why (docs/http-upload-spec.md)' },
    quarantinedRecords: {
      type: 'array',
      description: 'The first records kept in quarantine',
      items: {
        type: 'object',
        properties: { uuid: { type: ['string', 'null'] }, code: { type: 'string' } },
      },
    },
    background_geolocation: {
      type: 'array',
      description: "Commands for the device, in the SDK's remote-command shape",
      items: {},
    },
  },
  required: ['success', 'stored', 'duplicates'],
} as const;

/** Reply schema of the location routes: fast serialization, and the members clients read. */
export const UPLOAD_REPLY = {
  200: {
    description: 'What the upload stored',
    anyOf: [
      UPLOAD_SUMMARY,
      // OwnTracks clients, which may post to /locations too, expect an array of messages back.
      { type: 'array', items: {}, maxItems: 0 },
    ],
  },
  ...failures(...UPLOAD_REFUSALS, ...RECORD_REFUSALS),
} as const;

/** The same answer on the routes that sign receipts (/locations, /api/locations). */
export const RECEIPTED_UPLOAD_REPLY = {
  ...UPLOAD_REPLY,
  200: { ...UPLOAD_REPLY[200], headers: RECEIPT_HEADERS },
} as const;

/** A tracker's upload answer: the summary alone (OsmAnd, the Capacitor plugin). */
export const TRACKER_REPLY = {
  200: { description: 'What the upload stored', ...UPLOAD_SUMMARY },
  ...failures(...UPLOAD_REFUSALS, 'NO_DEVICE', 'NO_RECORDS', 'INVALID_TYPE', 'INVALID_RECORD'),
} as const;

/** Upload bodies are JSON objects or arrays (spec 2.3); anything else is refused before parsing records. */
export const UPLOAD_BODY = {
  type: ['object', 'array'],
  properties: {
    location: { description: 'A record or an array of records (the SDK default schema)' },
    device_id: { description: 'The device, when no token names it' },
  },
  additionalProperties: true,
  items: {},
  description: 'A location or a batch of them, in any of the shapes of docs/http-upload-spec.md',
} as const;
