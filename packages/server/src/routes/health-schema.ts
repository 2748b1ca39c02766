import { failures, text } from '../http/route-schema.js';

/**
 * The contracts of the device health routes (docs/device-health.md): every member the handlers
 * answer, so the serializer keeps them all.
 */
const time = (description: string) => ({ type: ['string', 'null'], description }) as const;
const report = (description: string) =>
  ({ type: ['object', 'null'], additionalProperties: true, description }) as const;

const STATE = {
  state: text('The state the server names (docs/device-health.md)'),
  cause: text('Why'),
  inferred: { type: 'boolean', description: "Read from a tracker's records, or from a report older than the silence" },
  since: time('Since when, as well as known'),
} as const;

const REFUSED = {
  at: time('The newest refused upload'),
  since: time('The first of the refused uploads in a row'),
  code: { type: ['string', 'null'], description: 'The code of the refusal' },
} as const;

const ID_PARAMS = { type: 'object', properties: { id: text('The device') }, required: ['id'] } as const;

export const DEVICE_HEALTH_SCHEMA = {
  summary: "A device's health: its state, cause, last report and history",
  params: ID_PARAMS,
  response: {
    200: {
      description: "The device's health",
      type: 'object',
      properties: {
        device: text('The device'),
        ...STATE,
        lastSeen: time('Its newest upload'),
        report: report('Its newest health report (the Waypost-Health header, parsed)'),
        reportedAt: time('When it sent that report'),
        refused: {
          type: ['object', 'null'],
          description: 'The uploads the server refuses, while it does',
          properties: {
            ...REFUSED,
            cause: text('auth-refused, or the cause the refusal names'),
            report: report('What the refused request reported'),
          },
          additionalProperties: false,
        },
        authRefused: {
          type: ['object', 'null'],
          description: "The same, when the server refuses the device's credentials",
          properties: { ...REFUSED, report: report('What the refused request reported') },
          additionalProperties: false,
        },
        history: {
          type: 'array',
          description: 'The newest states named, newest first (at most 50)',
          items: {
            type: 'object',
            properties: {
              at: text('When it was named'),
              ...STATE,
              silentFrom: text('A silent period explained once the device was back: its start'),
              silentTo: text('Its end'),
            },
            required: ['at', 'state', 'cause', 'inferred', 'since'],
            additionalProperties: false,
          },
        },
      },
      required: ['device', 'state', 'cause', 'inferred', 'since', 'lastSeen', 'report', 'reportedAt', 'refused'],
      additionalProperties: false,
    },
    ...failures('UNKNOWN_DEVICE', 'ADMIN_TOKEN_REQUIRED', 'WRONG_TOKEN', 'ROLE_FORBIDDEN', 'NOT_FOUND'),
  },
} as const;

export const FLEET_HEALTH_SCHEMA = {
  summary: "The fleet's counts by state, and each device's state",
  response: {
    200: {
      description: 'The devices the caller may see',
      type: 'object',
      properties: {
        counts: {
          type: 'object',
          description: 'Devices by state',
          additionalProperties: { type: 'integer' },
        },
        silentAfterSeconds: {
          type: 'number',
          description: 'How long a device may be quiet before it is named from its last report',
        },
        devices: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: text('The device'), ...STATE },
            required: ['id', 'state', 'cause', 'inferred', 'since'],
            additionalProperties: false,
          },
        },
      },
      required: ['counts', 'silentAfterSeconds', 'devices'],
      additionalProperties: false,
    },
    ...failures('ADMIN_TOKEN_REQUIRED', 'WRONG_TOKEN', 'ROLE_FORBIDDEN'),
  },
} as const;
