import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { deadRows, outboxCounts, replayDead, type SinkBacklog } from '../fleet/outbox-store.js';
import { redactedUrl } from '../fleet/sinks/broker-names.js';
import { lastErrorFor } from '../fleet/sinks/error-category.js';
import { checkSinkReach, confinesSinks } from '../fleet/sinks/sink-reach.js';
import type { UserPrincipal } from '../accounts/roles.js';
import { changeFleetConfig } from '../fleet/config-version.js';
import { createSink, deleteSink, findSink, listSinks, setSinkPaused, type Sink } from '../fleet/sinks-store.js';
import { eventsOf, sinkInput, webhookSecret, webhookUrl } from './sink-input.js';
import { orgForNew, settingOrgsOf, settingVisible } from '../accounts/fleet-scope.js';
import { integerParam } from './query-params.js';
import { failures } from '../http/route-schema.js';
import type { ServerErrorCode } from '../error-codes.js';
import { DELETED, GATE_CODES, refusedAs } from './schemas/common.js';
import * as S from './schemas/fleet.js';
import { ACCESS } from '../accounts/route-rules.js';

const SINK_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;
/** A sink's route: the gate's codes and its 404. */
const sinkFailures = (...more: ServerErrorCode[]) => failures(...GATE_CODES, 'UNKNOWN_SINK', ...more);

type Reader = { kind: 'admin' } | UserPrincipal;

// lastError as the reader may read it (issue 45): whole for the owner, its kind for an operator.
const sinkJson = (sink: Sink, reader: Reader, counts?: SinkBacklog) => ({
  id: sink.id,
  kind: sink.kind,
  url: redactedUrl(sink.url),
  events: [...sink.events],
  origin: sink.origin,
  org: sink.org,
  createdAt: new Date(sink.createdAt).toISOString(),
  pending: counts?.pending ?? 0,
  dead: counts?.dead ?? 0,
  lastError: lastErrorFor(reader, counts?.lastError ?? null),
  paused: sink.paused,
});

/**
 * Webhooks and every sink (issues 21, 32): add, list, pause, remove, and each sink's dead letters
 * with their replay. Registered by fleetRoutes (fleet-admin.ts).
 */
export const sinkRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const admin = async (request: FastifyRequest) => requireAdmin(ctx, request);
  // Another org's sink is answered as one that does not exist (accounts/fleet-scope.ts).
  const existingSink = async (request: FastifyRequest, id: string, kind?: Sink['kind']) => {
    const orgs = settingOrgsOf(await admin(request));
    const sink = await findSink(ctx.db, id);
    if (!sink || (kind && sink.kind !== kind) || !settingVisible(orgs, sink.org))
      throw new HttpError(404, 'UNKNOWN_SINK', `No ${kind ?? 'sink'} "${id.slice(0, 256)}"`);
    return sink;
  };
  const visibleSinks = async (request: FastifyRequest) => {
    const orgs = settingOrgsOf(await admin(request));
    return (await listSinks(ctx.db)).filter((sink) => settingVisible(orgs, sink.org));
  };

  app.post(
    '/api/webhooks',
    {
      preHandler: admin,
      config: ACCESS.operator.filtered,
      schema: {
        summary: 'Adds a webhook (its signing secret is in this answer only)',
        body: S.WEBHOOK_BODY,
        response: {
          201: S.SINK,
          ...failures(...GATE_CODES, ...S.ORG_CODES, 'INVALID_WEBHOOK', 'SINK_ADDRESS_BLOCKED', 'FLEET_CONFIG_BUSY'),
        },
      },
      schemaErrorFormatter: refusedAs('INVALID_WEBHOOK'),
    },
    async (request, reply) => {
      const body = request.body;
      const reader = await admin(request);
      const org = await orgForNew(ctx, reader, body.org);
      const given = {
        url: webhookUrl(body.url),
        secret: webhookSecret(body.secret),
        events: eventsOf(body.events),
        org,
        confined: confinesSinks(reader),
      };
      if (given.confined) await checkSinkReach(given.url, ctx.options.fleet.allowPrivateSinks);
      const sink = await changeFleetConfig(ctx.db, (tx) => createSink(tx, { kind: 'webhook', ...given }, ctx.now()));
      await ctx.fleet.configChanged();
      // The secret is shown this once: the receiver needs it to check signatures.
      return reply.code(201).send({ ...sinkJson(sink, reader), secret: sink.secret ?? undefined });
    },
  );
  app.get(
    '/api/webhooks',
    {
      preHandler: admin,
      config: ACCESS.viewer.filtered,
      schema: {
        summary: 'The webhooks the caller may see, with their backlogs',
        response: { 200: { type: 'array', items: S.SINK }, ...failures(...GATE_CODES) },
      },
    },
    async (request) => {
      const reader = await admin(request);
      const counts = await outboxCounts(ctx.db);
      return (await visibleSinks(request))
        .filter((s) => s.kind === 'webhook')
        .map((s) => sinkJson(s, reader, counts.get(s.id)));
    },
  );
  app.get(
    '/api/webhooks/:id',
    {
      preHandler: admin,
      config: ACCESS.viewer.filtered,
      schema: { summary: 'One webhook', params: SINK_PARAMS, response: { 200: S.SINK, ...sinkFailures() } },
    },
    async (request) => {
      const sink = await existingSink(request, request.params.id, 'webhook');
      return sinkJson(sink, await admin(request), (await outboxCounts(ctx.db)).get(sink.id));
    },
  );
  const remove = (kind?: Sink['kind']) => async (request: FastifyRequest & { params: { id: string } }) => {
    const sink = await existingSink(request, request.params.id, kind);
    await changeFleetConfig(ctx.db, (tx) => deleteSink(tx, sink.id));
    await ctx.fleet.configChanged();
    return { deleted: sink.id };
  };
  const removeSchema = (summary: string) =>
    ({ summary, params: SINK_PARAMS, response: { 200: DELETED, ...sinkFailures('FLEET_CONFIG_BUSY') } }) as const;
  app.delete(
    '/api/webhooks/:id',
    { preHandler: admin, config: ACCESS.operator.filtered, schema: removeSchema('Removes a webhook') },
    remove('webhook'),
  );

  app.get(
    '/api/sinks',
    {
      preHandler: admin,
      config: ACCESS.viewer.filtered,
      schema: {
        summary: 'Every sink the caller may see (webhooks, MQTT, NATS), with their backlogs',
        response: { 200: { type: 'array', items: S.SINK }, ...failures(...GATE_CODES) },
      },
    },
    async (request) => {
      const reader = await admin(request);
      const counts = await outboxCounts(ctx.db);
      return (await visibleSinks(request)).map((s) => sinkJson(s, reader, counts.get(s.id)));
    },
  );
  app.delete(
    '/api/sinks/:id',
    { preHandler: admin, config: ACCESS.operator.filtered, schema: removeSchema('Removes a sink of any kind') },
    remove(),
  );
  // Any kind of sink from the dashboard (issue 32), by the same rules as --webhook, --mqtt, --nats.
  app.post(
    '/api/sinks',
    {
      preHandler: admin,
      config: ACCESS.operator.filtered,
      schema: {
        summary: "Adds a sink: a webhook, an MQTT or a NATS broker (a webhook's secret is in this answer only)",
        body: S.SINK_BODY,
        response: {
          201: S.SINK,
          ...failures(
            ...GATE_CODES,
            ...S.ORG_CODES,
            'INVALID_SINK',
            'INVALID_WEBHOOK',
            'SINK_ADDRESS_BLOCKED',
            'FLEET_CONFIG_BUSY',
          ),
        },
      },
      schemaErrorFormatter: refusedAs('INVALID_SINK'),
    },
    async (request, reply) => {
      const { org: asked, ...input } = request.body;
      const reader = await admin(request);
      const org = await orgForNew(ctx, reader, asked);
      const given = { ...sinkInput(input), org, confined: confinesSinks(reader) };
      if (given.confined) await checkSinkReach(given.url, ctx.options.fleet.allowPrivateSinks);
      const sink = await changeFleetConfig(ctx.db, (tx) => createSink(tx, given, ctx.now()));
      await ctx.fleet.configChanged();
      return reply.code(201).send({ ...sinkJson(sink, reader), ...(sink.secret ? { secret: sink.secret } : {}) });
    },
  );
  // Paused, a sink's events wait in its backlog; resumed, they go out in order.
  app.patch(
    '/api/sinks/:id',
    {
      preHandler: admin,
      config: ACCESS.operator.filtered,
      schema: {
        summary: "Pauses or resumes a sink's deliveries",
        params: SINK_PARAMS,
        body: S.PAUSE_BODY,
        response: { 200: S.SINK, ...sinkFailures('INVALID_SINK', 'INVALID_OPTION', 'FLEET_CONFIG_BUSY') },
      },
      schemaErrorFormatter: refusedAs('INVALID_SINK'),
    },
    async (request) => {
      const sink = await existingSink(request, request.params.id);
      const { paused } = request.body;
      await changeFleetConfig(ctx.db, (tx) => setSinkPaused(tx, sink.id, paused));
      await ctx.fleet.configChanged();
      if (!paused) ctx.fleet.wake();
      return sinkJson({ ...sink, paused }, await admin(request), (await outboxCounts(ctx.db)).get(sink.id));
    },
  );
  app.get(
    '/api/sinks/:id/dead-letters',
    {
      preHandler: admin,
      config: ACCESS.viewer.filtered,
      schema: {
        summary: "A sink's dead letters, oldest first",
        params: SINK_PARAMS,
        querystring: S.DEAD_LETTER_QUERY,
        response: { 200: { type: 'array', items: S.DEAD_LETTER }, ...sinkFailures('INVALID_PARAMETER') },
      },
    },
    async (request) => {
      const sink = await existingSink(request, request.params.id);
      const limit = integerParam(request.query, 'limit', 1, 10_000, 100);
      const reader = await admin(request);
      return (await deadRows(ctx.db, sink.id, limit)).map((row) => ({
        ...row,
        lastError: lastErrorFor(reader, row.lastError),
      }));
    },
  );
  app.post(
    '/api/sinks/:id/replay',
    {
      preHandler: admin,
      config: ACCESS.operator.filtered,
      schema: {
        summary: "Sends a sink's dead letters again (all, or those named)",
        params: SINK_PARAMS,
        body: S.REPLAY_BODY,
        response: {
          200: {
            type: 'object',
            properties: { replayed: { type: 'integer', description: 'How many went back in line' } },
            required: ['replayed'],
          },
          ...sinkFailures('INVALID_PARAMETER', 'INVALID_OPTION'),
        },
      },
      schemaErrorFormatter: refusedAs('INVALID_PARAMETER'),
    },
    async (request) => {
      const sink = await existingSink(request, request.params.id);
      const replayed = await replayDead(ctx.db, sink.id, request.body?.ids ?? null, ctx.now());
      if (replayed > 0) ctx.fleet.wake();
      return { replayed };
    },
  );
};
