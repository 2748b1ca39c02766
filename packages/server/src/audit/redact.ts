import { redactedUrl } from '../fleet/sinks/broker-names.js';

/** Keys whose values never go into the audit trail (a webhook's secret, a login's token). */
const SECRET_KEY = /secret|token|password|authorization|cookie/i;
/** What the trail keeps of a request body at most: a record of a change, not a copy of the data. */
export const MAX_DETAIL_CHARS = 2048;
const MAX_DEPTH = 6;
const MAX_KEYS = 50;

/**
 * A request body as the audit trail keeps it: secrets replaced by "[redacted]" whatever their
 * depth, credentials in URLs removed, depth and breadth bounded, the JSON cut at MAX_DETAIL_CHARS.
 */
export function auditDetail(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null;
  const text = JSON.stringify(redact(body, 0));
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}

/** A URL's credentials removed (a webhook's https://user:pass@...); any other text kept, bounded. */
function redactText(text: string): string {
  const bounded = text.slice(0, 500);
  if (!bounded.includes('@')) return bounded;
  try {
    const url = new URL(bounded);
    return url.username || url.password ? redactedUrl(bounded) : bounded;
  } catch {
    return bounded;
  }
}

function redact(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[deeper]';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, MAX_KEYS)) {
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : redact(item, depth + 1);
  }
  return out;
}
