import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { liveScopeOf } from '../accounts/scope-filter.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { createFeedBounds } from '../live/feed-bounds.js';
import type { PositionEvent } from '../live-events.js';
import { devicesSeenSince, eventOf, REPLAY_OVERLAP_MS } from '../live/live-relay.js';
import { ACCESS } from '../accounts/route-rules.js';
import { failures } from '../http/route-schema.js';
import { GATE_CODES, text } from './schemas/common.js';

/** The feed's contract: a text/event-stream of position events, or a refusal when feeds are used up. */
const FEED_SCHEMA = {
  summary: 'The live feed: server-sent events of new positions of the devices the caller may see',
  headers: {
    type: 'object',
    properties: { 'last-event-id': text('The last id received: the devices seen since are replayed first') },
  },
  response: {
    200: {
      description:
        "An endless text/event-stream: `event: position` with a device's position as JSON data, `event: reload` when a reconnect missed too much, and an id (the server's milliseconds) to resume from",
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    ...failures(...GATE_CODES, 'LIVE_FEEDS_PER_USER', 'LIVE_FEEDS_PER_ADDRESS', 'LIVE_FEEDS_FULL'),
  },
} as const;

const KEEPALIVE_MS = 15_000;
/** A reconnect that would replay more devices than this is told to reload instead (event: reload). */
const MAX_REPLAY = 10_000;
/** A feed refused because the server's share is used up is asked to come back after this long. */
const FULL_RETRY_AFTER_S = 30;

/** Last-Event-ID as this feed writes it (milliseconds of the server's clock), or null. */
function cursorOf(header: string | string[] | undefined): number | null {
  const text = Array.isArray(header) ? header[0] : header;
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

/**
 * Server-sent events of new positions for the dashboard. EventSource cannot send headers: the
 * dashboard's session cookie authenticates it (a Bearer header works for other clients). Every
 * message carries an id, the time it was written: a client that reconnects sends the last one as
 * Last-Event-ID (EventSource does it on its own, whichever host it reaches), and is first told,
 * from the database, every device seen since (a minute before it, for clocks and commits in
 * flight): its count and last position (replay). Live events wait meanwhile, then follow.
 */
export const eventRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (plain, { ctx }) => {
  const app = plain.withTypeProvider<JsonSchemaToTsProvider>();
  const open = new Set<ServerResponse>();
  // Feeds per reader, per address and in all (issue 45): one viewer cannot take the connections
  // devices need. Counted per process, as connections are.
  const bounds = createFeedBounds(ctx.options.liveFeeds);
  app.addHook('preClose', async () => {
    for (const response of open) response.end();
  });

  app.get('/api/events', { config: ACCESS.viewer.filtered, schema: FEED_SCHEMA }, async (request, reply) => {
    // A user limited to orgs gets the positions of their orgs' devices only (issue 33).
    const reader = await requireAdmin(ctx, request);
    const visible = liveScopeOf(ctx, reader);
    const cursor = cursorOf(request.headers['last-event-id']);
    const slot = bounds.take(reader.kind === 'user' ? `user:${reader.name}` : 'admin', request.ip);
    if ('refused' in slot) {
      const { status, code, message } = slot.refused;
      const retry: Record<string, string> = status === 503 ? { 'retry-after': String(FULL_RETRY_AFTER_S) } : {};
      throw new HttpError(status, code, message, {}, retry);
    }
    request.raw.on('close', slot.release);
    reply.hijack();
    const response = reply.raw;
    // What the hooks set on the reply (security headers, CORS): a hijacked reply writes its own.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) response.setHeader(name, value);
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    // An id alone moves the client's Last-Event-ID without an event: a quiet feed's cursor keeps up.
    // After a reconnect, the cursor moves only once the replay is whole.
    response.write(`retry: 2000\n${cursor === null ? `id: ${ctx.now()}\n` : ''}\n`);
    const write = (event: PositionEvent, id = ctx.now()) =>
      response.write(`event: position\ndata: ${JSON.stringify(event)}\nid: ${id}\n\n`);
    let held: PositionEvent[] | null = cursor === null ? null : [];
    // Scope checks are asynchronous (a database lookup for a device not yet remembered), so they
    // run one after another: positions reach the reader in the order they were stored.
    let inOrder: Promise<unknown> = Promise.resolve();
    const send = (event: PositionEvent) => {
      if (held) return void held.push(event);
      inOrder = inOrder
        .then(() => visible(event.deviceId))
        .then(
          (yes) => yes && !response.writableEnded && write(event),
          (err: unknown) => request.log.error({ code: 'LIVE_SCOPE_FAILED', err }, 'live feed: a position was not sent'),
        );
    };
    const keepalive = setInterval(() => response.write(`: keepalive\nid: ${ctx.now()}\n\n`), KEEPALIVE_MS);
    open.add(response);
    ctx.events.on('position', send);
    request.raw.on('close', () => {
      clearInterval(keepalive);
      ctx.events.off('position', send);
      open.delete(response);
    });
    if (cursor === null) return;
    try {
      const asOf = ctx.now();
      const rows = await devicesSeenSince(ctx.db, cursor - REPLAY_OVERLAP_MS, MAX_REPLAY + 1);
      if (rows.length > MAX_REPLAY) response.write(`event: reload\ndata: {}\n\n`);
      else
        for (const row of rows) {
          const event = eventOf(row, 0, 'replay');
          if (event && (await visible(event.deviceId)) && !response.writableEnded) write(event, cursor);
        }
      if (!response.writableEnded) response.write(`id: ${asOf}\n\n`);
    } catch (err) {
      // The database is away: the client is told to reload once it is back rather than left behind.
      request.log.error({ code: 'LIVE_REPLAY_FAILED', err }, 'live feed: the replay after a reconnect failed');
      response.end();
      return;
    }
    const waiting = held ?? [];
    held = null;
    for (const event of waiting) send(event);
  });
};
