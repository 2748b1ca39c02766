import { freePort } from './free-port.js';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with one request. */
export type Reply =
  /** Answer with this status, a JSON body (`json`) or raw text (`text`), after `delayMs`. */
  | { status: number; json?: unknown; text?: string; delayMs?: number; headers?: Record<string, string> }
  /** Never answer (the connection stays open until the server closes). */
  | { hang: true }
  /** Send this status and the start of a body, then never finish it. */
  | { stall: number }
  /** Destroy the connection without an answer (a reset). */
  | { reset: true; delayMs?: number };

/** A reply, or a function choosing one from the request (a server that takes at most 5 records). */
export type Responder = Reply | ((request: RecordedRequest) => Reply);

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body's bytes (for binary uploads such as a gzipped log). */
  raw: Buffer;
  /** The body parsed as JSON; undefined when it is not JSON. */
  body: unknown;
  /** The status the server answered with, once it has; undefined while pending or for hang/reset. */
  answered?: number;
}

export interface ScriptedServer {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Requests received and not answered yet (delayed or hanging). */
  readonly pending: number;
  /** Appends replies, used one per request in order; when they run out, the default reply is used. */
  script(...replies: Responder[]): void;
  /** The reply used when the script is empty (initially 200 with `{}`). */
  setDefault(reply: Responder): void;
  /**
   * Resolves once `holds` is true, checked at each request, answer and release (never on a timer).
   * Bounded: after `timeoutMs` it rejects with what `explain` says is missing.
   */
  when(holds: () => boolean, explain?: () => string, timeoutMs?: number): Promise<void>;
  /** Resolves with the `count`-th request once it has arrived (at once if it has). */
  received(count: number): Promise<RecordedRequest>;
  /** Resolves once at least `count` requests are held unanswered (a delay, a hang, a stall). */
  holding(count?: number): Promise<void>;
  /**
   * Set once more than MAX_REQUESTS requests came: an SDK that never stops uploading (a flush
   * that never ends, records sent again after a 2xx). Later requests get a 500, so its flush ends;
   * waits reject with this error at once, and close() rejects with it.
   */
  readonly runaway: Error | null;
  /** Lowers the runaway bound (MAX_REQUESTS) for a test that needs only a few requests. */
  limit(maxRequests: number): void;
  close(): Promise<void>;
}

/** More requests than this to one scripted server is a runaway SDK, not a test (the largest sends a few hundred). */
const MAX_REQUESTS = 2000;

const ok: Reply = { status: 200, json: {} };

function answer(
  res: ServerResponse,
  reply: { status: number; json?: unknown; text?: string; headers?: Record<string, string> },
): void {
  const headers = reply.headers ?? {};
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'text/plain', ...headers });
    res.end(reply.text);
  } else if (reply.json !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(reply.json));
  } else {
    res.writeHead(reply.status, headers);
    res.end();
  }
}

/**
 * A real node:http server on 127.0.0.1, port 0, that records every request and answers from a
 * script: statuses, delays, silence, resets. Tests read `requests` and await `when()`, `received()`
 * or `holding()`, which every request, answer and release re-checks.
 */
export async function startScriptedServer(...initial: Responder[]): Promise<ScriptedServer> {
  const queue: Responder[] = [...initial];
  let fallback: Responder = ok;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let pending = 0;
  let runaway: Error | null = null;
  let maxRequests = MAX_REQUESTS;
  const waiters = new Set<() => boolean>();
  const changed = () => {
    for (const check of [...waiters]) if (check()) waiters.delete(check);
  };
  const when = (holds: () => boolean, explain = () => 'the condition', timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      if (holds()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`scripted server: still waiting after ${timeoutMs} ms for ${explain()}`));
      }, timeoutMs).unref();
      const check = () => {
        if (holds()) resolve();
        else if (runaway) reject(new Error(`scripted server: gave up waiting for ${explain()}: ${runaway.message}`));
        else return false;
        clearTimeout(timer);
        return true;
      };
      if (!check()) waiters.add(check);
    });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const raw = Buffer.concat(chunks);
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        text,
        raw,
        body,
      };
      requests.push(recorded);
      if (requests.length > maxRequests || runaway) {
        runaway ??= new Error(
          `scripted server: more than ${maxRequests} requests, so the SDK was cut off (answered 500): it never ` +
            `stops uploading (a flush that never ends, records sent again after a 2xx?); the last one carried ` +
            text.slice(0, 160),
        );
        answer(res, { status: 500, json: { error: 'runaway' } });
        return changed();
      }
      const responder = queue.shift() ?? fallback;
      const reply = typeof responder === 'function' ? responder(recorded) : responder;
      if ('hang' in reply || 'stall' in reply) {
        pending++;
        res.on('close', () => {
          pending--;
          changed();
        });
        if ('stall' in reply) {
          res.writeHead(reply.stall, { 'content-type': 'application/json' });
          res.write('{"partial":');
        }
        return changed();
      }
      const act = () => {
        if ('reset' in reply) {
          req.socket.destroy();
          return;
        }
        answer(res, reply);
        recorded.answered = reply.status;
      };
      const delay = reply.delayMs ?? 0;
      if (delay <= 0) {
        act();
        return changed();
      }
      pending++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        pending--;
        if (!res.destroyed) act();
        changed();
      }, delay);
      timers.add(timer);
      changed();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/locations`,
    port,
    requests,
    get pending() {
      return pending;
    },
    get runaway() {
      return runaway;
    },
    limit: (max) => void (maxRequests = max),
    script: (...replies) => void queue.push(...replies),
    setDefault: (reply) => void (fallback = reply),
    when,
    received: async (count) => {
      await when(
        () => requests.length >= count,
        () => `request ${count} (${requests.length} came)`,
      );
      return requests[count - 1]!;
    },
    holding: (count = 1) =>
      when(
        () => pending >= count,
        () => `${count} request(s) held (${pending} are)`,
      ),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (runaway) throw runaway;
    },
  };
}

/** A URL nobody answers on: a port below the system's port-0 range that nothing listens on. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/locations`;
}
