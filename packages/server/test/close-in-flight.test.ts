// close() (SIGTERM in `waypost server`) with an upload in flight on a device's keep-alive
// connection: the upload is answered and stored, its connection ends with it, and close() resolves
// then - not after the keep-alive timeout (72 s), which is how long it took before. A connection
// that has sent nothing yet is closed at once: before, close() waited until its client dropped it.
import { Agent, request, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { startServer } from '@waypost/server';
import { describe, expect, it } from 'vitest';
import { captureLog } from './helpers/log-lines.js';

const BODY = Buffer.from(
  JSON.stringify({
    location: { uuid: 'in-flight', timestamp: '2026-01-01T00:00:00.000Z', coords: { latitude: 1, longitude: 2 } },
    device_id: 'd1',
  }),
);

interface Reply {
  status: number;
  connection: string | undefined;
  text: string;
  socketClosed: Promise<void>;
}

/** A POST whose body is held back after its first bytes: the request is in the server's hands. */
function startUpload(url: string, agent: Agent): { req: ClientRequest; reply: Promise<Reply> } {
  const req = request(`${url}/locations`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': BODY.length },
  });
  const socketClosed = new Promise<void>((resolve) => req.once('socket', (socket) => socket.once('close', resolve)));
  const reply = new Promise<Reply>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text, socketClosed }));
    });
    req.once('error', reject);
  });
  req.write(BODY.subarray(0, 20));
  return { req, reply };
}

describe('close() with an upload in flight on a keep-alive connection', () => {
  it('answers it with Connection: close, stores it, and resolves once it is answered', async () => {
    const log = captureLog();
    const server = await startServer({ port: 0, database: ':memory:', logger: true, logStream: log.stream });
    const agent = new Agent({ keepAlive: true });
    const upload = startUpload(server.url, agent);
    await log.line((line) => line.msg === 'incoming request');
    const closed = server.close();
    upload.req.end(BODY.subarray(20));
    const reply = await upload.reply;
    expect(reply).toMatchObject({ status: 200, connection: 'close' });
    expect(JSON.parse(reply.text)).toMatchObject({ stored: 1 });
    await reply.socketClosed;
    await closed;
    agent.destroy();
  });
});

describe('close() with a connection that has sent nothing yet', () => {
  it('closes that connection and resolves, without waiting for its client', { timeout: 30_000 }, async () => {
    const server = await startServer({ port: 0, database: ':memory:' });
    // A browser's preconnect, or a spare connection a client opened: connected, no request yet.
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {}); // reset by the server: what a client then sees
    const closed = server.close();
    // Before, close() waited until the client dropped the connection: here, never.
    let bound: NodeJS.Timeout | undefined;
    const first = await Promise.race([
      closed.then(() => 'closed'),
      new Promise((resolve) => (bound = setTimeout(resolve, 15_000, 'still open after 15 s'))),
    ]);
    clearTimeout(bound);
    expect(first).toBe('closed');
    await socketClosed;
  });
});
