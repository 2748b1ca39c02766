import type { FastifySchemaValidationError, RouteShorthandOptions } from 'fastify';
import type { ServerErrorCode } from '../../error-codes.js';
import { HttpError } from '../../errors.js';

/** A text field with what it holds, for the OpenAPI document. */
export const text = (description: string) => ({ type: 'string', description }) as const;
/** An ISO-8601 time (the server's answers spell every time so). */
export const ISO = { type: 'string', format: 'date-time' } as const;
export const ISO_OR_NULL = { type: ['string', 'null'], format: 'date-time' } as const;
/** Any JSON object, kept whole by the serializer (a device's record, an event's data, extras). */
export const ANY_OBJECT = { type: 'object', additionalProperties: true } as const;

/** `/api/devices/:id/...`: the device's id. */
export const DEVICE_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: text('The device id') },
} as const;
/** `/api/orgs/:name/...`, `/api/users/:name`: a name. */
export const NAME_PARAMS = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
} as const;

/**
 * What any operator route may answer before its handler runs: no or a wrong credential, a device
 * token or a role too low, the per-address limit (accounts/role-gate.ts, auth/principal.ts).
 */
export const GATE_CODES = [
  'ADMIN_TOKEN_REQUIRED',
  'WRONG_TOKEN',
  'FORBIDDEN',
  'ROLE_FORBIDDEN',
  'RATE_LIMITED',
] as const satisfies readonly ServerErrorCode[];
/** The gate's codes and a limited user's 404 for what lies outside their orgs (scope rules device, none). */
export const SCOPED_GATE_CODES = [...GATE_CODES, 'NOT_FOUND'] as const satisfies readonly ServerErrorCode[];

/**
 * What a device's credential may be refused with, on every route a device uploads to (records or
 * a log): none where one is needed, a token not valid, expired or revoked, a key not this server's
 * or revoked (auth/credential-gate.ts authenticateUpload decides).
 */
export const DEVICE_CREDENTIAL_CODES = [
  'TOKEN_REQUIRED',
  'CREDENTIAL_REQUIRED',
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'TOKEN_REVOKED',
  'WRONG_KEY',
  'KEY_REVOKED',
] as const satisfies readonly ServerErrorCode[];

/** `{ deleted: <name or id> }`: what was deleted. */
export const DELETED = {
  type: 'object',
  properties: { deleted: { type: 'string' } },
  required: ['deleted'],
} as const;

/**
 * A body schema's refusal under the code the route answered before it had a schema (a geofence's
 * INVALID_GEOFENCE, a sink's INVALID_SINK): callers keep their codes, the schema now says the shape.
 * An unknown key is still INVALID_OPTION (http/unknown-keys.ts reads the schema first).
 */
export const refusedAs =
  (code: ServerErrorCode): NonNullable<RouteShorthandOptions['schemaErrorFormatter']> =>
  (errors: FastifySchemaValidationError[], dataVar: string) => {
    const first = errors[0];
    const where = `${dataVar}${first?.instancePath ?? ''}`;
    return new HttpError(400, code, `${where} ${first?.message ?? 'is not valid'}`);
  };

/**
 * An answer's type as its schema gives it, read-only all the way down: a store's readonly tuples
 * (a ledger's ranges) are checked against the schema, then handed to the reply as they are.
 */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
