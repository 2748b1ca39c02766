import { RETENTION_KINDS } from '../../retention/retention-options.js';
import { ROLES } from '../../accounts/roles.js';
import { ISO } from './common.js';

/**
 * The answers of the account routes (users.ts, groups.ts, orgs-admin.ts, retention.ts); their
 * bodies' schemas are in user-schemas.ts and beside each route.
 */

const NAMES_OR_NULL = { type: ['array', 'null'], items: { type: 'string' } } as const;

/** A user as the API shows one (store/users.ts userJson): never a password hash. */
export const USER = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    role: { type: 'string', enum: ROLES },
    orgs: { ...NAMES_OR_NULL, description: 'The orgs the user is limited to; null: every device' },
    groups: { ...NAMES_OR_NULL, description: 'The device groups the user is limited to; null: none' },
    createdAt: ISO,
    updatedAt: ISO,
  },
  required: ['name', 'role', 'orgs', 'groups', 'createdAt', 'updatedAt'],
} as const;

const SESSIONS_ENDED = { type: 'integer', description: "How many of the user's sessions were ended" } as const;
export const CHANGED_USER = {
  ...USER,
  properties: { ...USER.properties, sessionsEnded: SESSIONS_ENDED },
  required: [...USER.required, 'sessionsEnded'],
} as const;
export const DELETED_USER = {
  type: 'object',
  properties: { deleted: { type: 'string' }, sessionsEnded: SESSIONS_ENDED },
  required: ['deleted', 'sessionsEnded'],
} as const;

export const GROUP = {
  type: 'object',
  properties: { name: { type: 'string' }, devices: { type: 'array', items: { type: 'string' } }, createdAt: ISO },
  required: ['name', 'devices', 'createdAt'],
} as const;

/** An organization (store/orgs.ts orgJson). */
export const ORG = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['active', 'banned', 'deleted'] },
    createdAt: ISO,
    retentionDays: {
      type: ['number', 'null'],
      description: "Its own period in days (0: for ever); null: the server's",
    },
  },
  required: ['id', 'name', 'status', 'createdAt', 'retentionDays'],
} as const;
export const DELETED_ORG = {
  ...ORG,
  properties: { ...ORG.properties, devicesDeleted: { type: 'integer' } },
  required: [...ORG.required, 'devicesDeleted'],
} as const;

/** What a retention pass removed, per kind of data. */
export const RETENTION_REPORT = {
  type: 'object',
  properties: Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, { type: 'integer' }])) as Record<
    (typeof RETENTION_KINDS)[number],
    { type: 'integer' }
  >,
  required: RETENTION_KINDS,
} as const;

export const RETENTION = {
  type: 'object',
  properties: {
    days: {
      type: 'object',
      properties: Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, { type: ['number', 'null'] }])) as Record<
        (typeof RETENTION_KINDS)[number],
        { type: ['number', 'null'] }
      >,
      required: RETENTION_KINDS,
      description: 'Days kept per kind of data; null keeps it for ever',
    },
    batchSize: { type: 'integer' },
    intervalMs: { type: 'integer' },
    lastPass: {
      type: ['object', 'null'],
      properties: { at: ISO, removed: RETENTION_REPORT },
      required: ['at', 'removed'],
    },
  },
  required: ['days', 'batchSize', 'intervalMs', 'lastPass'],
} as const;
