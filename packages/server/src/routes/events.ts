import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { liveScopeOf } from '../accounts/scope-filter.js';
import { requireAdmin } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import type { PositionEvent } from '../live-events.js';

const KEEPALIVE_MS = 15_000;

/**
 * Server-sent events of new positions for the dashboard. EventSource cannot send headers: the
 * dashboard's session cookie authenticates it (a Bearer header works for other clients).
 */
export const eventRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const response of open) response.end();
  });

  app.get('/api/events', async (request, reply) => {
    // A user limited to orgs gets the positions of their orgs' devices only (issue 33).
    const visible = liveScopeOf(ctx, await requireAdmin(ctx, request));
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    response.write('retry: 2000\n\n');
    const write = (event: PositionEvent) => response.write(`event: position\ndata: ${JSON.stringify(event)}\n\n`);
    const send = (event: PositionEvent) =>
      void visible(event.deviceId).then(
        (yes) => yes && !response.writableEnded && write(event),
        (err: unknown) => request.log.error({ code: 'LIVE_SCOPE_FAILED', err }, 'live feed: a position was not sent'),
      );
    const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS);
    open.add(response);
    ctx.events.on('position', send);
    request.raw.on('close', () => {
      clearInterval(keepalive);
      ctx.events.off('position', send);
      open.delete(response);
    });
  });
};
