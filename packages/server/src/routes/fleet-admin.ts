import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isWaypostError } from '@waypost/sdk/internal';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { deadRows, outboxCounts, replayDead, type SinkBacklog } from '../fleet/outbox-store.js';
import { redactedUrl } from '../fleet/sinks/broker-names.js';
import { lastErrorFor } from '../fleet/sinks/error-category.js';
import { checkSinkReach, confinesSinks } from '../fleet/sinks/sink-reach.js';
import type { UserPrincipal } from '../accounts/roles.js';
import { changeFleetConfig } from '../fleet/config-version.js';
import { createSink, deleteSink, findSink, listSinks, setSinkPaused, type Sink } from '../fleet/sinks-store.js';
import { eventsOf, sinkInput, SINK_KEYS, webhookSecret, webhookUrl } from './sink-input.js';
import { deleteGeofence, listGeofences, MAX_GEOFENCES, parseServerGeofence, saveGeofence } from '../store/geofences.js';
import { orgForNew, settingOrgsOf, settingVisible } from '../accounts/fleet-scope.js';
import { refuseUnknownKeys } from '../http/unknown-keys.js';
import { integerParam, type Query } from './query-params.js';
import { ACCESS } from '../accounts/route-rules.js';

type Params = { id: string };
const MAX_REPLAY_IDS = 1000;
/** What each body takes (anything else is a typo: 400 INVALID_OPTION, http/unknown-keys.ts). */
export const GEOFENCE_KEYS = [
  'identifier',
  'latitude',
  'longitude',
  'radius',
  'vertices',
  'notifyOnEntry',
  'notifyOnExit',
  'notifyOnDwell',
  'loiteringDelay',
  'extras',
  'org',
];
const WEBHOOK_KEYS = ['url', 'events', 'secret', 'org'];
const REPLAY_KEYS = ['ids'];
const PAUSE_KEYS = ['paused'];

type Reader = { kind: 'admin' } | UserPrincipal;

// lastError as the reader may read it (issue 45): whole for the owner, its kind for an operator.
const sinkJson = (sink: Sink, reader: Reader, counts?: SinkBacklog) => ({
  id: sink.id,
  kind: sink.kind,
  url: redactedUrl(sink.url),
  events: sink.events,
  origin: sink.origin,
  org: sink.org,
  createdAt: new Date(sink.createdAt).toISOString(),
  pending: counts?.pending ?? 0,
  dead: counts?.dead ?? 0,
  lastError: lastErrorFor(reader, counts?.lastError ?? null),
  paused: sink.paused,
});

/**
 * The admin API of fleet events (issue 21): server-side geofences, webhooks (and every sink), and
 * each sink's dead letters with their replay. Authorization: Bearer <adminToken>.
 */
export const fleetRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
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

  app.post('/api/geofences', { preHandler: admin, config: ACCESS.operator.filtered }, async (request, reply) => {
    refuseUnknownKeys(request.body, GEOFENCE_KEYS, 'a geofence');
    const { org: asked, ...fence } = (request.body ?? {}) as { org?: unknown };
    const org = await orgForNew(ctx, await admin(request), asked);
    let geofence;
    try {
      geofence = parseServerGeofence(fence);
    } catch (error) {
      if (isWaypostError(error)) throw badRequest('INVALID_GEOFENCE', error.message);
      throw error;
    }
    const saved = await changeFleetConfig(ctx.db, (tx) => saveGeofence(tx, geofence, ctx.now(), org));
    if (saved === 'full') throw new HttpError(409, 'TOO_MANY_GEOFENCES', `At most ${MAX_GEOFENCES} geofences`);
    // Identifiers are unique per org (issue 41): only the fleet's (or, for a fleet geofence, an
    // org's), evaluated for the same devices, is refused; another org's names are never confirmed.
    if (saved === 'taken')
      throw new HttpError(409, 'GEOFENCE_TAKEN', 'This identifier is in use by a geofence you cannot change');
    await ctx.fleet.configChanged();
    return reply.code(201).send(org === null ? geofence : { ...geofence, org });
  });
  app.get('/api/geofences', { preHandler: admin, config: ACCESS.viewer.filtered }, async (request) => {
    const orgs = settingOrgsOf(await admin(request));
    return (await listGeofences(ctx.db)).filter((fence) => settingVisible(orgs, fence.org ?? null));
  });
  // Several orgs may name a geofence alike: `?org=` says whose (the caller's only visible one otherwise).
  app.delete<{ Params: { identifier: string }; Querystring: Query }>(
    '/api/geofences/:identifier',
    { preHandler: admin, config: ACCESS.operator.filtered },
    async (request) => {
      const orgs = settingOrgsOf(await admin(request));
      const { identifier } = request.params;
      const asked = request.query.org;
      const candidates = (await listGeofences(ctx.db)).filter(
        (fence) =>
          fence.identifier === identifier &&
          settingVisible(orgs, fence.org ?? null) &&
          (asked === undefined || fence.org === asked),
      );
      if (candidates.length > 1)
        throw new HttpError(409, 'GEOFENCE_AMBIGUOUS', `Several geofences are named so: say whose with ?org=`);
      const org = candidates[0]?.org ?? null;
      if (!candidates[0] || !(await changeFleetConfig(ctx.db, (tx) => deleteGeofence(tx, identifier, org))))
        throw new HttpError(404, 'UNKNOWN_GEOFENCE', `No geofence "${identifier.slice(0, 256)}"`);
      await ctx.fleet.configChanged();
      return { deleted: identifier, ...(org === null ? {} : { org }) };
    },
  );

  app.post('/api/webhooks', { preHandler: admin, config: ACCESS.operator.filtered }, async (request, reply) => {
    const body = (request.body ?? {}) as { url?: unknown; events?: unknown; secret?: unknown };
    if (typeof body !== 'object' || Array.isArray(body))
      throw badRequest('INVALID_WEBHOOK', 'the body must be an object');
    refuseUnknownKeys(body, WEBHOOK_KEYS, 'a webhook');
    const reader = await admin(request);
    const org = await orgForNew(ctx, reader, (body as { org?: unknown }).org);
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
    return reply.code(201).send({ ...sinkJson(sink, reader), secret: sink.secret });
  });
  app.get('/api/webhooks', { preHandler: admin, config: ACCESS.viewer.filtered }, async (request) => {
    const reader = await admin(request);
    const counts = await outboxCounts(ctx.db);
    return (await visibleSinks(request))
      .filter((s) => s.kind === 'webhook')
      .map((s) => sinkJson(s, reader, counts.get(s.id)));
  });
  app.get<{ Params: Params }>(
    '/api/webhooks/:id',
    { preHandler: admin, config: ACCESS.viewer.filtered },
    async (request) => {
      const sink = await existingSink(request, request.params.id, 'webhook');
      return sinkJson(sink, await admin(request), (await outboxCounts(ctx.db)).get(sink.id));
    },
  );
  const remove = (kind?: Sink['kind']) => async (request: FastifyRequest<{ Params: Params }>) => {
    const sink = await existingSink(request, request.params.id, kind);
    await changeFleetConfig(ctx.db, (tx) => deleteSink(tx, sink.id));
    await ctx.fleet.configChanged();
    return { deleted: sink.id };
  };
  app.delete<{ Params: Params }>(
    '/api/webhooks/:id',
    { preHandler: admin, config: ACCESS.operator.filtered },
    remove('webhook'),
  );

  app.get('/api/sinks', { preHandler: admin, config: ACCESS.viewer.filtered }, async (request) => {
    const reader = await admin(request);
    const counts = await outboxCounts(ctx.db);
    return (await visibleSinks(request)).map((s) => sinkJson(s, reader, counts.get(s.id)));
  });
  app.delete<{ Params: Params }>('/api/sinks/:id', { preHandler: admin, config: ACCESS.operator.filtered }, remove());
  // Any kind of sink from the dashboard (issue 32), by the same rules as --webhook, --mqtt, --nats.
  app.post('/api/sinks', { preHandler: admin, config: ACCESS.operator.filtered }, async (request, reply) => {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('INVALID_SINK', 'the body must be an object');
    refuseUnknownKeys(body, [...SINK_KEYS, 'org'], 'a sink');
    const { org: asked, ...input } = body as { org?: unknown };
    const reader = await admin(request);
    const org = await orgForNew(ctx, reader, asked);
    const given = { ...sinkInput(input), org, confined: confinesSinks(reader) };
    if (given.confined) await checkSinkReach(given.url, ctx.options.fleet.allowPrivateSinks);
    const sink = await changeFleetConfig(ctx.db, (tx) => createSink(tx, given, ctx.now()));
    await ctx.fleet.configChanged();
    return reply.code(201).send({ ...sinkJson(sink, reader), ...(sink.secret ? { secret: sink.secret } : {}) });
  });
  // Paused, a sink's events wait in its backlog; resumed, they go out in order.
  app.patch<{ Params: Params }>(
    '/api/sinks/:id',
    { preHandler: admin, config: ACCESS.operator.filtered },
    async (request) => {
      const sink = await existingSink(request, request.params.id);
      refuseUnknownKeys(request.body, PAUSE_KEYS, 'a sink change');
      const paused = (request.body as { paused?: unknown } | undefined)?.paused;
      if (typeof paused !== 'boolean') throw badRequest('INVALID_SINK', 'paused must be true or false');
      await changeFleetConfig(ctx.db, (tx) => setSinkPaused(tx, sink.id, paused));
      await ctx.fleet.configChanged();
      if (!paused) ctx.fleet.wake();
      return sinkJson({ ...sink, paused }, await admin(request), (await outboxCounts(ctx.db)).get(sink.id));
    },
  );
  app.get<{ Params: Params; Querystring: Query }>(
    '/api/sinks/:id/dead-letters',
    { preHandler: admin, config: ACCESS.viewer.filtered },
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
  app.post<{ Params: Params }>(
    '/api/sinks/:id/replay',
    { preHandler: admin, config: ACCESS.operator.filtered },
    async (request) => {
      const sink = await existingSink(request, request.params.id);
      refuseUnknownKeys(request.body, REPLAY_KEYS, 'a replay');
      const ids = (request.body as { ids?: unknown } | undefined)?.ids;
      if (
        ids !== undefined &&
        (!Array.isArray(ids) || ids.length > MAX_REPLAY_IDS || ids.some((id) => typeof id !== 'string'))
      )
        throw badRequest('INVALID_PARAMETER', `ids must be a list of at most ${MAX_REPLAY_IDS} event ids`);
      const replayed = await replayDead(ctx.db, sink.id, (ids as string[] | undefined) ?? null, ctx.now());
      if (replayed > 0) ctx.fleet.wake();
      return { replayed };
    },
  );
};
