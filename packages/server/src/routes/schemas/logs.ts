import type { ServerErrorCode } from '../../error-codes.js';
import { DEVICE_CREDENTIAL_CODES, ISO_OR_NULL, text } from './common.js';

/** The multipart form of the SDK's uploadLog: the log part and text fields (each kept with the log). */
export const LOG_UPLOAD = {
  type: 'object',
  required: ['log'],
  properties: {
    log: { type: 'string', format: 'binary', description: 'The log, gzipped or plain' },
    device_id: text("The device's id, when no device credential is sent"),
    model: text("The device's model"),
    platform: text("The device's platform"),
  },
  additionalProperties: { type: 'string', description: 'Other text fields, kept with the log' },
} as const;

export const LOG_UPLOADED = {
  type: 'object',
  properties: { success: { type: 'boolean' }, id: { type: 'integer' } },
  required: ['success', 'id'],
} as const;

/** What an upload may answer: a device credential's refusals, the form's, the device's state. */
export const LOG_UPLOAD_CODES = [
  ...DEVICE_CREDENTIAL_CODES,
  'REGISTRATION_REQUIRED',
  'NOT_MULTIPART',
  'MALFORMED_MULTIPART',
  'NO_LOG',
  'INVALID_LOG',
  'NO_DEVICE',
  'INVALID_DEVICE_ID',
  'TEXT_TOO_LONG',
  'BODY_TOO_LARGE',
  'DEVICE_BLOCKED',
  'DEVICE_DELETED',
  'RATE_LIMITED',
] as const satisfies readonly ServerErrorCode[];

/** Each log with its form's text fields (model, platform ...) beside its own. */
export const LOG_LIST = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      deviceId: { type: ['string', 'null'] },
      size: { type: 'integer', description: 'Bytes stored (gzipped)' },
      createdAt: ISO_OR_NULL,
    },
    required: ['id', 'deviceId', 'size', 'createdAt'],
    additionalProperties: { type: 'string', description: "The upload's form fields" },
  },
} as const;
