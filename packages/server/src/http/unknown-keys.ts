import { nearestKey } from '@waypost/sdk/internal';
import type { FastifyError } from 'fastify';
import { HttpError } from '../errors.js';

/** A bound on what an unknown key's text may add to an answer (it is the caller's input). */
const MAX_SHOWN_KEY = 100;

/** The message for an unknown key, with the nearest known one when it is a plausible typo. */
export function unknownKeyMessage(
  key: string,
  known: readonly string[],
  where: string,
): { message: string; suggestion: string | null } {
  const suggestion = nearestKey(key, known) ?? null;
  const shown = JSON.stringify(key.slice(0, MAX_SHOWN_KEY));
  return {
    message: `Unknown key ${shown} in ${where}.${suggestion ? ` Did you mean "${suggestion}"?` : ''} Known keys: ${known.join(', ')}`,
    suggestion,
  };
}

/**
 * Admin and dashboard bodies take only the keys they know: a misspelt one ("loiteringdelay",
 * "event") would otherwise be dropped in silence and its default used (a geofence that never
 * dwells, a webhook that receives every event). 400 INVALID_OPTION names the key and the nearest
 * known one. Never used on the upload routes: devices send extra fields on purpose.
 */
export function refuseUnknownKeys(body: unknown, known: readonly string[], where: string): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  for (const key of Object.keys(body)) {
    if (known.includes(key)) continue;
    const { message, suggestion } = unknownKeyMessage(key, known, where);
    throw new HttpError(400, 'INVALID_OPTION', message, {
      key: key.slice(0, MAX_SHOWN_KEY),
      ...(suggestion ? { suggestion } : {}),
    });
  }
}

/**
 * The same answer for a route whose JSON schema has additionalProperties: false (the login body),
 * whatever Fastify's validation found first (a missing required key, say, when "tokn" was sent).
 */
export function schemaKeyError(
  error: FastifyError,
  bodySchema: unknown,
  body: unknown,
  where: string,
): HttpError | null {
  const schema = bodySchema as { additionalProperties?: unknown; properties?: Record<string, unknown> } | undefined;
  if (error.validationContext !== 'body' || schema?.additionalProperties !== false) return null;
  try {
    refuseUnknownKeys(body, Object.keys(schema.properties ?? {}), where);
  } catch (refused) {
    return refused as HttpError;
  }
  return null;
}
