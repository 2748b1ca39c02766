import type { Socket } from 'node:net';
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
  // A connection that has sent nothing yet (a browser's preconnect, a spare a client opened) is not
  // idle to Node, which waits for its headers; and close() stops the headers timeout: such a
  // connection held close() until its client dropped it (4 s for Node's fetch; a raw socket, never).
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
  });
  // Callback hooks, not async ones: no promise per request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // A reply whose headers were out before closing began: its connection is reaped once idle.
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
    done();
  });
}
