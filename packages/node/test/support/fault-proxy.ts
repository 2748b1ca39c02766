import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request while it misbehaves. */
export type Fault =
  /** Pass the request through untouched. */
  | 'pass'
  /** Destroy the connection before anything reaches the service. */
  | 'reset'
  /** Forward (the service stores the records), then never answer: the SDK times out. */
  | 'stall'
  /** Forward, then destroy the connection instead of relaying the answer. */
  | 'lose-reply'
  | 'status-500'
  | 'status-503'
  /** 429 with Retry-After: 1. */
  | 'status-429'
  | 'status-413'
  /** 502 with a body that is neither JSON nor text, without forwarding: the records stay queued. */
  | 'garbage-502';

export interface FaultProxy {
  readonly url: string;
  /** Requests seen, by fault applied. */
  readonly seen: Map<Fault, number>;
  /** Chooses each request's fault; `() => 'pass'` heals the proxy. */
  choose: (n: number) => Fault;
  close(): Promise<void>;
}

function relayed(headers: IncomingMessage['headers'], names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/**
 * A proxy in front of a real service that misbehaves on a schedule: resets, stalls past the
 * SDK's timeout, 5xx/429/413, garbage; then heals. Bounded: a stalled connection ends when the
 * SDK gives up on it or when the proxy closes.
 */
export async function startFaultProxy(target: string, choose: (n: number) => Fault): Promise<FaultProxy> {
  const upstream = new URL(target);
  const seen = new Map<Fault, number>();
  let n = 0;
  const state = { choose };

  const forward = (
    req: IncomingMessage,
    body: Buffer,
    onReply: (status: number, headers: Record<string, string>, data: Buffer) => void,
  ) => {
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (reply) => {
        const chunks: Buffer[] = [];
        reply.on('data', (chunk: Buffer) => chunks.push(chunk));
        reply.on('end', () =>
          onReply(
            reply.statusCode ?? 502,
            {
              'content-type': reply.headers['content-type'] ?? 'application/json',
              // What the SDK learns from its server's answers (request codings, the ledger).
              ...relayed(reply.headers, ['accept-encoding', 'waypost-ledger', 'retry-after']),
            },
            Buffer.concat(chunks),
          ),
        );
      },
    );
    out.on('error', () => undefined);
    out.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const fault = state.choose(n++);
      seen.set(fault, (seen.get(fault) ?? 0) + 1);
      const body = Buffer.concat(chunks);
      const status = (code: number, headers: Record<string, string> = {}) => {
        res.writeHead(code, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify({ error: `fault ${code}` }));
      };
      switch (fault) {
        case 'pass':
          return forward(req, body, (code, headers, data) => {
            res.writeHead(code, headers);
            res.end(data);
          });
        case 'reset':
          return req.socket.destroy();
        case 'stall':
          return forward(req, body, () => undefined);
        case 'lose-reply':
          return forward(req, body, () => req.socket.destroy());
        case 'status-500':
          return status(500);
        case 'status-503':
          return status(503);
        case 'status-429':
          return status(429, { 'retry-after': '1' });
        case 'status-413':
          return status(413);
        case 'garbage-502':
          res.writeHead(502, { 'content-type': 'text/html' });
          return res.end('<html>\u0000\u00ff{"background_geolocation": [[[');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    get choose() {
      return state.choose;
    },
    set choose(fn) {
      state.choose = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A small deterministic PRNG (mulberry32), so a failing fault run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
