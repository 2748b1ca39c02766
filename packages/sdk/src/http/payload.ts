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
}

const ROOT = '.';

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
    if (options.batchSync) return { body: `[${records.join(',')}]`, paramsDropped: hasParams };
    const record = records[0]!;
    if (!hasParams) return { body: record, paramsDropped: false };
    const value: unknown = JSON.parse(record);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { body: record, paramsDropped: true };
    }
    // The record's own fields win over params of the same name: data is never overwritten.
    return { body: JSON.stringify({ ...options.params, ...(value as JsonObject) }), paramsDropped: false };
  }
  const content = options.batchSync ? `[${records.join(',')}]` : records[0]!;
  const members = hasParams ? paramMembers(options.params, options.rootProperty) : '';
  return { body: `{${JSON.stringify(options.rootProperty)}:${content}${members}}`, paramsDropped: false };
}
