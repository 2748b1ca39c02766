import type { GroupFields } from './field-spec.js';

/** The authorization group: the upload's token and how it is refreshed. */
export const AUTHORIZATION_FIELDS: GroupFields<'authorization'> = {
  strategy: {
    type: 'enum',
    values: ['JWT', 'SAS'],
    caseInsensitive: true,
    default: 'JWT',
    doc: 'JWT sends "Bearer <token>"; SAS sends the raw token (either case).',
  },
  accessToken: {
    type: 'string',
    nullable: true,
    default: null,
    doc: 'Token sent in the Authorization header of uploads.',
  },
  refreshToken: {
    type: 'string',
    nullable: true,
    default: null,
    doc: 'Token exchanged at refreshUrl for a new access token.',
  },
  refreshUrl: {
    type: 'string',
    nullable: true,
    url: true,
    default: null,
    doc: 'Where tokens are refreshed (form-urlencoded POST).',
  },
  refreshPayload: {
    type: 'stringMap',
    default: {},
    doc: 'Form fields of the refresh request; "{refreshToken}" is replaced inside values.',
  },
  refreshHeaders: {
    type: 'stringMap',
    default: { Authorization: 'Bearer {accessToken}' },
    doc: 'Headers of the refresh request; {} sends none.',
  },
  expires: {
    type: 'integer',
    min: -1,
    default: -1,
    doc: 'Access token expiry, epoch seconds (or ms when > 1e12); -1 = unknown.',
  },
};
