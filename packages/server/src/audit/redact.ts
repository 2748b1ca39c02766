import { AUDIT_FIELDS, KEPT_PARAMS, NOT_KEPT, UNKNOWN_USER, type FieldRule } from './audit-fields.js';

/** What the trail keeps of a request body at most: a record of a change, not a copy of the data. */
export const MAX_DETAIL_CHARS = 2048;
const MAX_TEXT_CHARS = 256;
const MAX_ITEMS = 50;

type Scalar = string | number | boolean | null;

const isScalar = (value: unknown): value is Scalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);
const bounded = (value: Scalar): Scalar => (typeof value === 'string' ? value.slice(0, MAX_TEXT_CHARS) : value);

/** A kept value: a scalar or a list of scalars, bounded; anything nested is marked, not walked. */
function keptValue(value: unknown): unknown {
  if (isScalar(value)) return bounded(value);
  if (Array.isArray(value) && value.every(isScalar)) return value.slice(0, MAX_ITEMS).map(bounded);
  return NOT_KEPT;
}

function fieldValue(rule: FieldRule, value: unknown, isUser: (name: string) => boolean): unknown {
  switch (rule) {
    case 'keep':
      return keptValue(value);
    case 'head':
      if (Array.isArray(value)) return value.length > 1 ? [keptValue(value[0]), NOT_KEPT] : value.map(keptValue);
      return keptValue(value);
    case 'user':
      return typeof value === 'string' && isUser(value) ? bounded(value) : UNKNOWN_USER;
    case 'mark':
      return NOT_KEPT;
  }
}

/**
 * A request body as the audit trail keeps it (audit-fields.ts): the route's allowed fields, the
 * marked ones as NOT_KEPT, nothing else; null when nothing of it is kept. `isUser` says whether a
 * name is an existing user's (asked beforehand: this function does no I/O).
 */
export function auditDetail(route: string, body: unknown, isUser: (name: string) => boolean): string | null {
  const rules = AUDIT_FIELDS[route];
  if (!rules || typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const out: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(rules)) {
    if (Object.hasOwn(body, field)) out[field] = fieldValue(rule, (body as Record<string, unknown>)[field], isUser);
  }
  if (Object.keys(out).length === 0) return null;
  const text = JSON.stringify(out);
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}

/**
 * A route's path parameters as the trail keeps them (its `target`): the names of what was changed
 * (KEPT_PARAMS) kept, any other parameter (a route added later may take a token in its path)
 * recorded as NOT_KEPT; null when the route has none.
 */
export function auditTarget(params: Record<string, unknown> | undefined): string | null {
  if (!params || Object.keys(params).length === 0) return null;
  const kept = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, KEPT_PARAMS.includes(name) ? value : NOT_KEPT]),
  );
  return JSON.stringify(kept).slice(0, 500);
}
