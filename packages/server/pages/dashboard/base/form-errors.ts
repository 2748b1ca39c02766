// The editors' requests (geofences, sinks): the API is the one validator, and its refusal is shown
// as text next to the field it names ("radius must be a number from 1 to 1000000, got 0").
import { api, type ApiInit } from './api.js';
import { el } from './dom.js';

/** A field's error line (role=alert), empty until the API refuses. */
export const errorLine = (form: string, field: string): HTMLParagraphElement =>
  el('p', { className: 'field-error', id: form + '-error-' + field, role: 'alert' });

/** The field an API message is about: the first of `fields` it names as a word, else the last ("form"). */
export function fieldOf(message: string, fields: string[]): string {
  const named = fields.find((field) => new RegExp('(^|[^A-Za-z])' + field + '([^A-Za-z]|$)').test(message));
  return named ?? fields[fields.length - 1] ?? 'form';
}

/**
 * Writes every field's own error beside it at once (a form with two wrong fields shows both) and
 * empties the others; true when there is none.
 */
export function showErrors(errors: Record<string, HTMLElement>, found: Partial<Record<string, string>>): boolean {
  for (const [field, line] of Object.entries(errors)) line.textContent = found[field] ?? '';
  return Object.values(found).every((message) => !message);
}

/** A refusal in the form's own words (its units, its labels), given the field it is about. */
export type Wording = (field: string, message: string) => string;

/**
 * Sends a request; on success returns the body, on a refusal writes its message beside the field
 * (errors: field -> element, the last entry for anything else), in the form's words, and returns null.
 */
export async function send(
  path: string,
  init: ApiInit,
  errors: Record<string, HTMLElement>,
  words: Wording = (_field, message) => message,
): Promise<unknown> {
  for (const line of Object.values(errors)) line.textContent = '';
  const response = await api(path, init);
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return body;
  // A refusal's body is the API's error shape ({ error, code, key? }) or anything a proxy sent.
  const refusal = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; key?: unknown };
  const message = (typeof refusal.error === 'string' ? refusal.error : 'HTTP ' + response.status).slice(0, 500);
  // An unknown key (INVALID_OPTION) names it in the body; otherwise the message names the field.
  const fields = Object.keys(errors);
  const field = typeof refusal.key === 'string' && errors[refusal.key] ? refusal.key : fieldOf(message, fields);
  const line = errors[field];
  if (line) line.textContent = words(field, message);
  return null;
}
