import type { FastifyReply } from 'fastify';
import { badRequest } from '../errors.js';
import { integerParam, type QueryInput } from './query-params.js';

/** PAGE_QUERY's page sizes (schemas/device-reads.ts). */
const DEFAULT_PAGE = 100;
const MAX_PAGE = 10_000;

/** A page of a paged read (the audit trail, a device's quarantine): its size, its start, its format. */
export type Page = { limit: number; before: number | null; format: 'json' | 'csv' };

/** A paged read's query, PAGE_QUERY: `limit`, `before` (the previous page's `next`), `format`. */
export function pageOf(query: QueryInput & { before?: string; format?: string }): Page {
  const limit = integerParam(query, 'limit', 1, MAX_PAGE, DEFAULT_PAGE);
  const before = query.before ? integerParam(query, 'before', 1, Number.MAX_SAFE_INTEGER, 0) : null;
  const format = query.format ?? 'json';
  if (format !== 'json' && format !== 'csv')
    throw badRequest('INVALID_PARAMETER', `format must be json or csv, got ${format}`);
  return { limit, before, format };
}

/** A page as a CSV download (?format=csv) named `filename`. */
export const sendCsv = (reply: FastifyReply, filename: string, body: string): FastifyReply =>
  reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).send(body);
