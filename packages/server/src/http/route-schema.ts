import { SERVER_ERROR_CODES, type ServerErrorCode } from '../error-codes.js';

/**
 * The shared pieces of a route's contract (issue 44): the JSON error body every refusal carries, and
 * the failure answers a route declares by naming the error codes it may answer. Each code's HTTP
 * status comes from the one registry (error-codes.ts), so a route never spells a status beside a
 * code, and the OpenAPI document lists per status which codes a caller can meet.
 */
export const ERROR_BODY = {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'What went wrong, for a person' },
    code: { type: 'string', description: 'A stable code from docs/server-errors.md, for a program' },
  },
  required: ['error', 'code'],
  // Some refusals carry more (a 409's conflicting id, a 413's limit): kept, not stripped.
  additionalProperties: true,
} as const;

/** What a refusal that asks the caller to come back later (429, 503) says in its headers. */
const RETRY_AFTER = {
  'retry-after': { type: 'string', description: 'Seconds to wait before sending again' },
} as const;

type ErrorBody = typeof ERROR_BODY & { description: string; headers?: typeof RETRY_AFTER };

/**
 * `failures('UNKNOWN_DEVICE', 'RATE_LIMITED')` gives `{ 404: ..., 429: ..., 503: ... }`: one error
 * body per status a named code may answer, described by the codes behind it. Spread it into a
 * route's `schema.response` beside its success answers.
 */
export function failures(...codes: readonly ServerErrorCode[]): Record<number, ErrorBody> {
  const byStatus = new Map<number, ServerErrorCode[]>();
  for (const code of codes)
    for (const status of SERVER_ERROR_CODES[code].status) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  const answers: Record<number, ErrorBody> = {};
  for (const [status, named] of [...byStatus].sort(([a], [b]) => a - b))
    answers[status] = {
      ...ERROR_BODY,
      description: named.map((code) => `\`${code}\``).join(', '),
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    };
  return answers;
}

/** A string parameter, with what it means. */
export const text = (description: string) => ({ type: 'string', description }) as const;

/**
 * The answer of a route that serves files: their bytes, in the media types it serves. Buffers are
 * sent as they are (no serializer runs), so this documents the answer without touching it.
 */
export function fileAnswer(description: string, mediaTypes: readonly string[]) {
  const schema = { type: 'string', format: 'binary' } as const;
  return {
    description,
    content: Object.fromEntries(
      [...new Set(mediaTypes.map((type) => type.split(';')[0]!))].map((t) => [t, { schema }]),
    ),
  };
}

/**
 * A file's bytes as the answer of a route whose schema is a fileAnswer: JSON Schema types binary
 * content as a string (format binary), so the type provider wants one; the bytes go out as they
 * are (a Buffer is sent without a serializer), which is what the schema describes.
 */
export const fileBytes = (data: Buffer): string => data as unknown as string;

/**
 * A route whose body is optional: no body at all (or an empty text one) is null, so a body schema
 * that allows null describes it, and the handler reads null as before it read undefined.
 */
export async function nullWhenEmpty(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === '') request.body = null;
}
