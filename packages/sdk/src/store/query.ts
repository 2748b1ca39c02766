import { WaypostError } from '../errors.js';
import type { LogQuery, OrderDirection, RecordQuery } from '../ports/store.js';

/** The anchor's SQLQueryOrder constants (Logger.ORDER_ASC / ORDER_DESC). */
export const ORDER_ASC = 1;
export const ORDER_DESC = -1;

export type OrderInput = OrderDirection | 'asc' | 'desc' | typeof ORDER_ASC | typeof ORDER_DESC;

/** getLocations(query): the anchor's LocationQuery. `page` counts pages of `limit` records from 1. */
export interface LocationQuery {
  limit?: number;
  offset?: number;
  page?: number;
  order?: OrderInput;
}

/** logger.getLog(query): the anchor's SQLQuery (start/end are epoch milliseconds). */
export interface LogQueryInput {
  start?: number;
  end?: number;
  limit?: number;
  offset?: number;
  order?: OrderInput;
  /** Waypost's older name for `start`. */
  since?: number;
}

function invalid(field: string, value: unknown, expected: string): never {
  throw new WaypostError(
    'INVALID_QUERY',
    `${field}: ${JSON.stringify(value) ?? String(value)} is not allowed; expected ${expected}.`,
    field,
  );
}

function integer(field: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    invalid(field, value, `an integer >= ${min}`);
  }
  return value;
}

function time(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(field, value, 'epoch milliseconds');
  return value;
}

export function parseOrder(value: unknown, field = 'order'): OrderDirection | undefined {
  if (value === undefined) return undefined;
  if (value === ORDER_ASC || value === 'ASC' || value === 'asc') return 'ASC';
  if (value === ORDER_DESC || value === 'DESC' || value === 'desc') return 'DESC';
  return invalid(field, value, '1 (ORDER_ASC), -1 (ORDER_DESC), "ASC" or "DESC"');
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) invalid(what, value, 'an object');
  return value as Record<string, unknown>;
}

/** A getLocations() query for the store; -1 is "no limit" as in the anchor. */
export function parseLocationQuery(input: unknown, defaultOrder: OrderDirection): RecordQuery {
  const q = object(input, 'query');
  const limit = q.limit === -1 ? undefined : integer('limit', q.limit, 0);
  const page = integer('page', q.page, 1);
  let offset = integer('offset', q.offset, 0) ?? 0;
  if (page !== undefined) {
    if (limit === undefined) invalid('page', page, 'a page size: give limit with page');
    offset += (page - 1) * limit;
  }
  return {
    order: parseOrder(q.order) ?? defaultOrder,
    ...(limit === undefined ? {} : { limit }),
    ...(offset > 0 ? { offset } : {}),
  };
}

/** A logger.getLog() query for the store. */
export function parseLogQuery(input: unknown): LogQuery {
  const q = object(input, 'query');
  const start = time('start', q.start) ?? time('since', q.since);
  const end = time('end', q.end);
  const limit = q.limit === -1 ? undefined : integer('limit', q.limit, 0);
  const offset = integer('offset', q.offset, 0);
  const order = parseOrder(q.order);
  return {
    ...(start === undefined ? {} : { start }),
    ...(end === undefined ? {} : { end }),
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
    ...(order === undefined ? {} : { order }),
  };
}
