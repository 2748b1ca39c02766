import type { FastifyInstance } from 'fastify';

/**
 * close() must not wait for the devices' keep-alive connections. Fastify closes the connections
 * idle when closing begins, and answers requests that arrive later with `Connection: close`; but
 * an upload already in flight (waiting for its group commit) is answered with keep-alive, and its
 * idle connection would then hold server.close() until the keep-alive timeout (72 s): a SIGTERM
 * during uploads took that long to exit. Replies sent while closing end their connection instead.
 */
export function closeKeepAliveOnClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  // A reply whose headers were out before closing began: its connection is reaped once idle.
  app.addHook('onResponse', async () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
}
