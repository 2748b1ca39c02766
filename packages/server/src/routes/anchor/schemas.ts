import { ERROR_BODY, failures, text } from '../../http/route-schema.js';

/**
 * The contracts of the anchor's demo-server API (issue 40 item 7, issue 44). Its answers must stay
 * byte for byte what its dashboard and SDK read (members in the anchor's order, a record's own
 * members kept): ANCHOR_JSON serializes them as they are built, so these schemas document the
 * answers and never reorder or strip a member.
 */
export const ANCHOR_JSON = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) } as const;

/** The anchor's bearer tokens: the admin's (or its login token), an org's, or a device's. */
export const ANCHOR_SECURITY = [{ adminToken: [] }] as const;

const time = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;
const nullableText = (description: string) => ({ type: ['string', 'null'], description }) as const;

/** The read API's filters, as the anchor's dashboard sends them. */
export const READ_QUERY = {
  type: 'object',
  properties: {
    device_id: text('Only this device'),
    company_id: text("Only this org's devices (the admin's GET /devices)"),
    start_date: text('From this time: a date (its whole day), ISO-8601 or epoch seconds/milliseconds'),
    end_date: text('Up to this time, as start_date (a bare date covers its whole day)'),
    limit: text('At most this many records'),
  },
} as const;

export const ID_PARAMS = { type: 'object', properties: { id: text('The device') }, required: ['id'] } as const;
export const ORG_PARAMS = {
  type: 'object',
  properties: { company_token: text('The org (the anchor\'s "company token")') },
  required: ['company_token'],
} as const;

const DEVICE_MEMBERS = {
  id: text('The device'),
  device_id: text("The device's own id (its uuid)"),
  device_model: nullableText('Its model'),
  company_id: { type: ['integer', 'null'], description: "Its org's number" },
  company_token: nullableText('Its org'),
  framework: { description: 'The framework it registered with, or null' },
  version: { description: 'The SDK version it registered with, or null' },
  created_at: time('When it registered'),
  updated_at: time('When it was last seen'),
} as const;

export const ANCHOR_DEVICE = { type: 'object', properties: DEVICE_MEMBERS, additionalProperties: false } as const;

/** A record flattened the anchor's way: its own members, its coords at the top, its device's members. */
export const ANCHOR_LOCATION = {
  type: 'object',
  properties: {
    ...DEVICE_MEMBERS,
    id: { type: 'integer', description: "The record's number" },
    uuid: text("The record's uuid"),
    device_id: text('The device'),
    latitude: { type: 'number' },
    longitude: { type: 'number' },
    activity_type: { description: 'activity.type, or null' },
    activity_confidence: { description: 'activity.confidence, or null' },
    battery_level: { description: 'battery.level, or null' },
    battery_is_charging: { description: 'battery.is_charging, or null' },
    recorded_at: time("The record's time"),
    created_at: time('When the server received it'),
  },
  additionalProperties: { description: "The record's own members (timestamp, odometer, coords' accuracy...)" },
} as const;

const DELETED = {
  200: {
    description: 'What was deleted',
    type: 'object',
    properties: { success: { type: 'boolean' }, deleted: { type: 'integer' } },
    required: ['success', 'deleted'],
  },
} as const;

const READ_REFUSALS = ['ACCESS_DENIED', 'WRONG_TOKEN', 'INVALID_PARAMETER'] as const;

export const LOCATIONS_SCHEMA = {
  summary: "The anchor's record list, newest first",
  security: ANCHOR_SECURITY,
  querystring: READ_QUERY,
  response: {
    200: { description: 'The records', type: 'array', items: ANCHOR_LOCATION },
    ...failures(...READ_REFUSALS),
  },
} as const;

export const LATEST_SCHEMA = {
  summary: 'The latest record (an empty object when there is none)',
  security: ANCHOR_SECURITY,
  querystring: READ_QUERY,
  response: { 200: { description: 'The record, or {}', ...ANCHOR_LOCATION }, ...failures(...READ_REFUSALS) },
} as const;

export const DELETE_LOCATIONS_SCHEMA = {
  summary: 'Delete records (of a device, or in a date range)',
  security: ANCHOR_SECURITY,
  querystring: READ_QUERY,
  response: { ...DELETED, ...failures(...READ_REFUSALS, 'MISSING_CONSTRAINTS') },
} as const;

export const COMPANY_TOKENS_SCHEMA = {
  summary: 'The orgs the caller may read',
  security: ANCHOR_SECURITY,
  response: {
    200: {
      description: 'The orgs',
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'integer' }, company_token: text('The org') },
        required: ['id', 'company_token'],
      },
    },
    ...failures(...READ_REFUSALS),
  },
} as const;

export const STATS_SCHEMA = {
  summary: 'The time span and count of the records the caller may read',
  security: ANCHOR_SECURITY,
  response: {
    200: {
      description: 'The span and count',
      type: 'object',
      properties: {
        minDate: time('The first record received'),
        maxDate: time('The last record received'),
        minRecordedDate: time('The earliest record time'),
        maxRecordedDate: time('The latest record time'),
        total: { type: 'integer' },
      },
      required: ['minDate', 'maxDate', 'minRecordedDate', 'maxRecordedDate', 'total'],
    },
    ...failures(...READ_REFUSALS),
  },
} as const;

export const DEVICES_SCHEMA = {
  summary: "The devices the caller may read (the anchor's device list)",
  security: ANCHOR_SECURITY,
  querystring: READ_QUERY,
  response: {
    200: { description: 'The devices', type: 'array', items: ANCHOR_DEVICE },
    ...failures(...READ_REFUSALS),
  },
} as const;

export const DELETE_DEVICE_SCHEMA = {
  summary: "Delete a device's records and the device: its next upload is answered 410 with a stop",
  security: ANCHOR_SECURITY,
  params: ID_PARAMS,
  querystring: READ_QUERY,
  response: { ...DELETED, ...failures(...READ_REFUSALS) },
} as const;

/** The anchor's refusal bodies that name the org first: `{"org", "error", "code"}`. */
export const orgRefusal = (description: string) =>
  ({
    ...ERROR_BODY,
    description,
    properties: { org: nullableText('The org the request named'), ...ERROR_BODY.properties },
  }) as const;
