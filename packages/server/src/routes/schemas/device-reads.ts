import { ISO, text } from './common.js';

/**
 * The answers of a device's operator reads: its delivery ledger (ledger.ts), its quarantine
 * (quarantine.ts), and the audit trail's entries (audit.ts).
 */

const COUNT = { type: 'integer' } as const;
/** Sequence numbers from..to, both included. */
const RANGES = {
  type: 'array',
  items: { type: 'array', items: COUNT, minItems: 2, maxItems: 2 },
  description: 'Ranges of sequence numbers as [from, to], both included',
} as const;
const DROPPED = {
  type: 'object',
  properties: { ttl: COUNT, cap: COUNT, destroyed: COUNT },
  required: ['ttl', 'cap', 'destroyed'],
  additionalProperties: false,
  description: 'Numbers the device reported dropped, by reason',
} as const;
/** One numbering's account (ledger/numbering-account.ts). */
const ACCOUNT = {
  highestSequence: COUNT,
  received: COUNT,
  quarantined: COUNT,
  dropped: DROPPED,
  expired: { ...COUNT, description: 'Received once and removed since by retention' },
  expiredRanges: RANGES,
  recovered: { ...COUNT, description: 'Received again after the server lost them (asked for by receipt)' },
  lostAfterAck: { ...COUNT, description: 'Acknowledged, lost by the server, no longer held by the device' },
  lostAfterAckRanges: RANGES,
  missing: { ...COUNT, description: 'Neither received, quarantined nor reported dropped' },
  missingRanges: RANGES,
} as const;
const ACCOUNT_KEYS = Object.keys(ACCOUNT) as (keyof typeof ACCOUNT)[];

const EPOCH = {
  type: 'object',
  properties: {
    ...ACCOUNT,
    epoch: { type: ['string', 'null'], description: 'The numbering as the device named it; null: unnamed' },
    firstReceivedAt: { type: ['number', 'null'], description: 'When the server first kept any of it (epoch ms)' },
  },
  required: [...ACCOUNT_KEYS, 'epoch', 'firstReceivedAt'],
  additionalProperties: false,
} as const;

const SILENT_PERIOD = {
  type: 'object',
  properties: {
    from: ISO,
    to: ISO,
    state: { type: 'string' },
    cause: { type: 'string' },
    inferred: { type: 'boolean', description: 'True: nothing the device said explains it' },
    text: text('"silent from A to B because X", as an operator reads it'),
  },
  required: ['from', 'to', 'state', 'cause', 'inferred', 'text'],
  additionalProperties: false,
} as const;

/** GET /api/devices/:id/ledger (store/ledger.ts Ledger, and the silent periods). */
export const LEDGER = {
  type: 'object',
  properties: {
    ...ACCOUNT,
    duplicates: COUNT,
    epochs: { type: 'array', items: EPOCH, description: 'Each numbering, oldest first (the newest 50)' },
    epochCount: COUNT,
    restarted: { type: 'boolean', description: 'The numbering started again under the same device id' },
    restartedAt: { type: ['number', 'null'], description: 'When the current numbering began (epoch ms)' },
    silentPeriods: { type: 'array', items: SILENT_PERIOD, description: 'Explained silences, newest first' },
  },
  required: [...ACCOUNT_KEYS, 'duplicates', 'epochs', 'epochCount', 'restarted', 'restartedAt', 'silentPeriods'],
  additionalProperties: false,
} as const;

/** A page's query: `limit`, `before` (the previous page's `next`), `format`. */
export const PAGE_QUERY = {
  type: 'object',
  properties: {
    limit: text('At most this many, 1..10000 (default 100)'),
    before: text("The previous page's next"),
    format: text('json (default) or csv'),
  },
} as const;

export const QUARANTINE_PAGE = {
  type: 'object',
  properties: {
    records: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: COUNT,
          uuid: { type: ['string', 'null'] },
          code: text('Why it was quarantined'),
          message: { type: 'string' },
          raw: text('The record as it was sent'),
          receivedAt: ISO,
        },
        required: ['id', 'uuid', 'code', 'message', 'raw', 'receivedAt'],
        additionalProperties: false,
      },
    },
    next: { type: ['integer', 'null'], description: "The next page's before; null: the last page" },
  },
  required: ['records', 'next'],
  additionalProperties: false,
} as const;

export const AUDIT_PAGE = {
  type: 'object',
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          seq: COUNT,
          at: ISO,
          actor: text('admin-token, admin-session, user:<name>, org:<name>, anonymous ...'),
          address: { type: 'string' },
          action: text('The method and route, e.g. DELETE /api/devices/:id'),
          target: { type: ['string', 'null'], description: "The route's parameters as JSON" },
          status: COUNT,
          detail: { type: ['string', 'null'], description: 'The request body, redacted and bounded' },
        },
        required: ['seq', 'at', 'actor', 'address', 'action', 'target', 'status', 'detail'],
        additionalProperties: false,
      },
    },
    next: { type: ['integer', 'null'], description: "The next page's before; null: the last page" },
  },
  required: ['entries', 'next'],
  additionalProperties: false,
} as const;

/** A JSON page, or the same as CSV (?format=csv, formula-safe cells). */
export const jsonOrCsv = <Page extends object>(page: Page, what: string) =>
  ({
    description: `${what}, newest first`,
    content: {
      'application/json': { schema: page },
      'text/csv': { schema: { type: 'string', description: 'With ?format=csv' } },
    },
  }) as const;
