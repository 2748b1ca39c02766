import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the network path between one device and the service does (issue 39): pass requests on, or
 * fail the way a real path fails. Every mode but `pass` stops the request before the service: it
 * never sees an upload the fault stopped, nor learns that a fault was made.
 */
export type PathMode =
  | { kind: 'pass' }
  /** The connection is reset as soon as it is made (a dead access point, a firewall's RST). */
  | { kind: 'drop' }
  /** Accepted and never answered (a black hole): the device's http.timeout ends it. */
  | { kind: 'blackhole' }
  /** A gateway answers itself, without forwarding (a 502, a 503 with Retry-After, a 422 ...). */
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: string }
  /** The request is forwarded with half its body, then both connections are cut. */
  | { kind: 'cut' };

/** Request and response headers that belong to one connection, not to the exchange. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

const endToEnd = (headers: IncomingMessage['headers']): Record<string, string | string[]> => {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
};

/** Counts of what the fault point did, for a test or a summary. */
export interface PathCounts {
  forwarded: number;
  stopped: number;
}

/**
 * One device's fault point: an HTTP proxy on 127.0.0.1 port 0 in front of the service's origin.
 * The device uploads to `url(path)`; `mode` is changed while it runs.
 */
export class FaultProxy {
  mode: PathMode = { kind: 'pass' };
  readonly counts: PathCounts = { forwarded: 0, stopped: 0 };
  private readonly sockets = new Set<Socket>();
  private readonly agent: HttpAgent;

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    private readonly upstream: URL,
    readonly origin: string,
  ) {
    this.agent =
      upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    server.on('request', (request, response) => this.handle(request, response));
  }

  /** Starts a fault point in front of `upstreamOrigin` (any URL of the service: its origin is used). */
  static async start(upstreamOrigin: string): Promise<FaultProxy> {
    const server = createServer({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const proxy = new FaultProxy(server, new URL(new URL(upstreamOrigin).origin), `http://127.0.0.1:${port}`);
    server.on('connection', (socket) => {
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
      // A connection made while the path drops them is reset at once.
      if (proxy.mode.kind === 'drop') socket.resetAndDestroy();
    });
    return proxy;
  }

  /** The device's URL for `path` of the service (path and query kept). */
  url(serviceUrl: string): string {
    const given = new URL(serviceUrl);
    return `${this.origin}${given.pathname}${given.search}`;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const mode = this.mode;
    if (mode.kind !== 'pass') this.counts.stopped++;
    switch (mode.kind) {
      case 'drop':
        // A kept-alive connection made before the path broke.
        request.socket.resetAndDestroy();
        return;
      case 'blackhole':
        // Read and never answer; close() ends it.
        request.resume();
        return;
      case 'answer': {
        request.resume();
        const body = mode.body ?? JSON.stringify({ error: 'Bad Gateway' });
        response.writeHead(mode.status, { 'content-type': 'application/json', ...mode.headers }).end(body);
        return;
      }
      case 'cut':
        this.forward(request, response, true);
        return;
      case 'pass':
        this.counts.forwarded++;
        this.forward(request, response, false);
    }
  }

  /** Forwards the request; `cut`: only half its body, then both connections are cut. */
  private forward(request: IncomingMessage, response: ServerResponse, cut: boolean): void {
    const send = this.upstream.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(
      {
        protocol: this.upstream.protocol,
        hostname: this.upstream.hostname,
        port: this.upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...endToEnd(request.headers), host: this.upstream.host },
        agent: cut ? false : this.agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(response);
      },
    );
    const fail = () => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'upstream unreachable' }));
    };
    outgoing.on('error', () => (cut ? undefined : fail()));
    if (!cut) {
      request.pipe(outgoing);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      outgoing.flushHeaders();
      outgoing.write(body.subarray(0, Math.floor(body.length / 2)), () => {
        outgoing.destroy();
        request.socket.resetAndDestroy();
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
