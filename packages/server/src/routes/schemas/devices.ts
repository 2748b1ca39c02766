import { ISO, ISO_OR_NULL, text } from './common.js';

/** A time or null, with what it is, for the OpenAPI document. */
const isoOrNull = (description: string) => ({ ...ISO_OR_NULL, description }) as const;

/**
 * A device as the admin API (GET /api/devices, /api/devices/:id, its status changes) and the
 * dashboard's list (GET /api/dashboard/devices) answer it: store/devices.ts deviceJson, every field.
 */
export const DEVICE = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: ['string', 'null'], description: 'The name it was given at registration' },
    model: { type: ['string', 'null'], description: 'The model it reported' },
    createdAt: isoOrNull('When the server first saw it (ISO-8601)'),
    lastSeen: isoOrNull('When it last uploaded (ISO-8601); null: never'),
    status: { type: 'string', enum: ['active', 'blocked', 'deleted'] },
    records: { type: 'integer' },
    duplicates: { type: 'integer' },
    quarantined: { type: 'integer' },
    lastPosition: {
      type: ['object', 'null'],
      properties: {
        latitude: { type: 'number' },
        longitude: { type: 'number' },
        timestamp: isoOrNull('When it was recorded (ISO-8601)'),
      },
      required: ['latitude', 'longitude', 'timestamp'],
      additionalProperties: false,
      description: 'Its newest position; null: none yet',
    },
  },
  required: [
    'id',
    'name',
    'model',
    'createdAt',
    'lastSeen',
    'status',
    'records',
    'duplicates',
    'quarantined',
    'lastPosition',
  ],
  additionalProperties: false,
} as const;

/** A device as the anchor's API answers it (routes/anchor/shapes.ts), to the anchor's callers of GET /api/devices. */
export const ANCHOR_DEVICE = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    device_id: { type: 'string' },
    device_model: { type: ['string', 'null'] },
    company_id: { type: ['integer', 'null'] },
    company_token: { type: ['string', 'null'] },
    framework: { type: ['string', 'null'] },
    version: { type: ['string', 'null'] },
    created_at: ISO_OR_NULL,
    updated_at: ISO_OR_NULL,
  },
  required: ['id', 'device_id', 'created_at'],
  additionalProperties: true,
} as const;

/** A command queued for a device (store/commands.ts commandJson). */
export const COMMAND = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    deviceId: { type: 'string' },
    command: { description: 'The command as queued: a name, or a name and its arguments' },
    status: { type: 'string', enum: ['pending', 'delivered'] },
    createdAt: ISO,
    deliveredAt: ISO_OR_NULL,
  },
  required: ['id', 'deviceId', 'command', 'status', 'createdAt', 'deliveredAt'],
} as const;

/** GET /api/devices's query: an org's devices only (the anchor's callers send theirs). */
export const DEVICES_QUERY = {
  type: 'object',
  properties: {
    org: text("Only this organization's devices"),
    company_id: text("The anchor's callers: only this organization's devices (its id)"),
  },
} as const;

/** DELETE /api/devices/:id's query, read by the anchor's callers only (their records in a range). */
export const DELETE_DEVICE_QUERY = {
  type: 'object',
  properties: {
    start_date: text("The anchor's callers: delete the records from this time"),
    end_date: text("The anchor's callers: delete the records up to this time"),
  },
} as const;

/** The anchor's answer to its callers' DELETE. */
export const ANCHOR_DELETED = {
  type: 'object',
  properties: { success: { type: 'boolean' }, deleted: { type: 'integer' } },
  required: ['success', 'deleted'],
} as const;
