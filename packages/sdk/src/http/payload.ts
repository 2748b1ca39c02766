import type { JsonObject } from '../config/types.js';

export interface PayloadOptions {
  rootProperty: string;
  params: JsonObject;
  batchSync: boolean;
}

export interface Payload {
  body: string;
  /** True when params were configured but the body is a bare array with no place for them. */
  paramsDropped: boolean;
  /**
   * True when `body` is JSON.stringify's text of its own parse, as the columnar coder needs
   * (compression.ts): records are JSON.stringify's text when stored (records/render.ts) and never
   * rewritten, and the wrapper is written as JSON.stringify would write it, unless a key of it is an
   * array index ("7"), which a parsed object puts before the others.
   */
  canonical: boolean;
}

const ROOT = '.';
/** Keys an object orders first, ascending (ECMA-262 OrdinaryOwnPropertyKeys), wherever they were written. */
const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

/** The params as `"k":v,...` (no braces), without the root key, which the record owns. */
function paramMembers(params: JsonObject, rootProperty: string | null): string {
  let members = '';
  for (const [key, value] of Object.entries(params)) {
    if (key === rootProperty) continue;
    members += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return members;
}

/**
 * Builds the upload body of spec 2.3 from records already rendered to JSON text. Records are
 * spliced in as text: the bytes that were stored are the bytes that are sent, and a batch of a
 * thousand records costs no parse and no re-serialisation.
 *
 * - single record: `{"<root>": record, ...params}`; with root ".": `{...params, ...record}`
 * - batch (always an array, even of one): `{"<root>": [records], ...params}`; with root ".": `[records]`
 */
export function buildPayload(records: readonly string[], options: PayloadOptions): Payload {
  const hasParams = Object.keys(options.params).length > 0;
  if (options.rootProperty === ROOT) {
    if (options.batchSync) return { body: `[${records.join(',')}]`, paramsDropped: hasParams, canonical: true };
    const record = records[0]!;
    if (!hasParams) return { body: record, paramsDropped: false, canonical: true };
    const value: unknown = JSON.parse(record);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { body: record, paramsDropped: true, canonical: true };
    }
    // The record's own fields win over params of the same name: data is never overwritten.
    const body = JSON.stringify({ ...options.params, ...(value as JsonObject) });
    return { body, paramsDropped: false, canonical: true };
  }
  const content = options.batchSync ? `[${records.join(',')}]` : records[0]!;
  const members = hasParams ? paramMembers(options.params, options.rootProperty) : '';
  const canonical = ![options.rootProperty, ...(hasParams ? Object.keys(options.params) : [])].some((key) =>
    INDEX_LIKE.test(key),
  );
  return { body: `{${JSON.stringify(options.rootProperty)}:${content}${members}}`, paramsDropped: false, canonical };
}
