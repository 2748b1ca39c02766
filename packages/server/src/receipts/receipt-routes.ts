import { RECEIPT_HEADER, RECEIPT_KEY_HEADER, RECEIPT_KEYS_PATH, RECEIPTS_OFFERED_HEADER } from '@waypost/sdk/internal';
import type { FastifyInstance } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { AppContext } from '../context.js';
import type { DeviceBatch } from '../ingest/ingest-job.js';
import { issueReceipts } from './issue-receipts.js';
import { receiptSigner, useRotatedKey } from './receipt-keys.js';
import { requireAdmin } from '../auth/principal.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';

/** A JSON Web Key Set (RFC 7517): the receipts' public keys, with how each is endorsed. */
const JWKS = {
  type: 'object',
  properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
  required: ['keys'],
  additionalProperties: true,
} as const;

const KEYS_SCHEMA = {
  summary: "The receipts' signing keys (docs/receipts.md)",
  response: { 200: { description: 'The key set, newest first', ...JWKS } },
} as const;

const ROTATE_SCHEMA = {
  summary: 'Rotate the receipt signing key: a new key endorsed by the current one',
  response: {
    201: { description: 'The key set, with the new key', ...JWKS },
    ...failures('ADMIN_TOKEN_REQUIRED', 'WRONG_TOKEN', 'ROLE_FORBIDDEN', 'CROSS_ORIGIN'),
  },
} as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The receipt an upload's 2xx carries, with its key header (issue 46); unset when none. */
    receipt?: { value: string; key: string } | null;
  }
}

/**
 * The receipt for what a request committed for `deviceId` (after the commit: the ingest queue's
 * outcome is final), or null: nothing numbered was committed, or records of several numberings
 * came in one request (an SDK's batch never mixes them; such an answer carries no receipt and the
 * SDK deletes those records as before).
 */
export async function receiptFor(
  ctx: AppContext,
  deviceId: string,
  batches: readonly DeviceBatch[],
  quarantined: readonly { uuid: string | null }[],
): Promise<{ value: string; key: string } | null> {
  const records = batches.filter((b) => b.deviceId === deviceId).flatMap((b) => b.records);
  const signer = await receiptSigner(ctx.db);
  const skipped = new Set(quarantined.flatMap((q) => (q.uuid === null ? [] : [q.uuid])));
  const receipts = await issueReceipts(signer, deviceId, records, skipped, ctx.now());
  return receipts.length === 1 ? { value: receipts[0]!, key: signer.keyHeader } : null;
}

/**
 * Receipts on the upload routes `urls`: every answer offers them (Waypost-Receipts-Offered: 1, so
 * an SDK asks from its next upload), a 2xx to a request that asked carries its receipt and the
 * signing key, and the key set is published at RECEIPT_KEYS_PATH.
 */
export function registerReceipts(plain: FastifyInstance, ctx: AppContext, urls: readonly string[]): void {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  // A callback hook, not an async one: no promise per upload.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!urls.includes(request.routeOptions.url ?? '')) return done(null, payload);
    reply.header(RECEIPTS_OFFERED_HEADER, '1');
    const receipt = request.receipt;
    if (receipt && reply.statusCode >= 200 && reply.statusCode < 300) {
      reply.header(RECEIPT_HEADER, receipt.value).header(RECEIPT_KEY_HEADER, receipt.key);
    }
    done(null, payload);
  });
  app.get(RECEIPT_KEYS_PATH, { schema: KEYS_SCHEMA, config: ACCESS.public }, async (_request, reply) => {
    const signer = await receiptSigner(ctx.db);
    return reply.header('cache-control', 'public, max-age=300').send(signer.jwks);
  });
  // Rotation: a new key, endorsed by the current one, so devices that pinned it accept the new one.
  app.post(
    '/api/receipt-keys',
    // The server's signing key is no organization's: an owner's (and the admin token's) to rotate.
    { schema: ROTATE_SCHEMA, preHandler: (request) => requireAdmin(ctx, request), config: ACCESS.owner.none },
    async (_request, reply) => {
      const signer = await useRotatedKey(ctx.db);
      return reply.code(201).send(signer.jwks);
    },
  );
}
