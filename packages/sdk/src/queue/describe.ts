import type { StoredRecord } from '../ports/store.js';

/** Names a few uuids of a batch so one record's journey can be followed in the log. */
export function describeBatch(batch: readonly StoredRecord[]): string {
  const uuids = batch.length <= 20 ? batch.map((r) => r.uuid).join(', ') : `${batch[0]!.uuid} .. ${batch.at(-1)!.uuid}`;
  return `${batch.length} record${batch.length === 1 ? '' : 's'} [${uuids}]`;
}

let lastUrl = '';
let lastLoggable = '';

/**
 * The URL without its query string: a query may carry an API key, and the log never shows secrets.
 * Remembers the last one: the URL rarely changes and parsing it per request showed in profiles.
 */
export function loggableUrl(url: string): string {
  if (url !== lastUrl) {
    const parsed = new URL(url);
    lastLoggable = `${parsed.origin}${parsed.pathname}`;
    lastUrl = url;
  }
  return lastLoggable;
}
