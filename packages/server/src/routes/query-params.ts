import { badRequest } from '../errors.js';
import { isoOrNull } from '../iso-time.js';
import { parseTimestamp } from '../ingest/normalize.js';
import { DEFAULT_EXPORT_LIMIT, MAX_EXPORT_LIMIT } from './limits.js';

/**
 * The query parameters the read routes share, parsed in one place: query strings arrive as text
 * (route schemas check types without coercing them), and an empty value means "not given".
 */
export type Query = Record<string, string | undefined>;

/** What the parsers read: a Query, or a query typed from a route's schema (its other keys `unknown`). */
export type QueryInput = { readonly [name: string]: unknown };

/** A parameter's text, or undefined when not given; a repeated parameter (an array) is refused. */
function textOf(query: QueryInput, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw badRequest('INVALID_PARAMETER', `${name} must be given once`);
  return raw;
}

/** A time: ISO-8601, or epoch seconds or milliseconds; null when not given. */
export function timeParam(query: QueryInput, name: string): number | null {
  const raw = textOf(query, name);
  if (raw === undefined) return null;
  const ms = parseTimestamp(raw);
  if (ms === null || isoOrNull(ms) === null)
    throw badRequest('INVALID_PARAMETER', `${name} must be ISO-8601 or epoch seconds/milliseconds, got ${raw}`);
  return ms;
}

/** An integer in min..max; `fallback` when not given. */
export function integerParam(query: QueryInput, name: string, min: number, max: number, fallback: number): number {
  const raw = textOf(query, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw badRequest('INVALID_PARAMETER', `${name} must be an integer ${min}..${max}, got ${raw}`);
  return value;
}

/** `limit` of a record export: 1..MAX_EXPORT_LIMIT, DEFAULT_EXPORT_LIMIT when not given. */
export const limitParam = (query: QueryInput): number =>
  integerParam(query, 'limit', 1, MAX_EXPORT_LIMIT, DEFAULT_EXPORT_LIMIT);
