import type { Clock } from '../ports/clock.js';
import { KIT_WAIT_MS, within } from './bounded.js';

/** What the scripted server does with one request. */
export type Reply =
  /** Answer with this status, a JSON body (`json`) or raw text (`text`), after `delayMs` on the clock. */
  | { status: number; json?: unknown; text?: string; delayMs?: number; headers?: Record<string, string> }
  /** Never answer: the request ends only when the transport's http.timeout aborts it. */
  | { hang: true }
  /** Send this status and the start of a body, then never finish it (until aborted). */
  | { stall: number }
  /** The connection drops without an answer (fetch rejects, as Node's does, with this code). */
  | { reset: true; code?: string; delayMs?: number };

/** A reply, or a function choosing one from the request (a server that takes at most 5 records). */
export type Responder = Reply | ((request: RecordedRequest) => Reply);

export interface RecordedRequest {
  method: string;
  /** Path and query, as a server sees it ('/locations?a=1'). */
  url: string;
  /** The whole URL the SDK asked for. */
  href: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body's bytes decoded as UTF-8 (a gzipped body stays compressed: see `raw`). */
  text: string;
  /** The body's bytes, as sent. */
  raw: Uint8Array;
  /** The body parsed as JSON; undefined when it is not JSON. */
  body: unknown;
  /** The status the server answered with, once it has; undefined while pending or for hang/reset. */
  answered?: number;
  /** The clock's time when the request arrived. */
  receivedAt: number;
}

export interface ScriptedServer {
  /** The upload URL the scripted server answers (any URL reaches it; this one is the usual). */
  readonly url: string;
  /** Every request, in the order it arrived. */
  readonly requests: RecordedRequest[];
  /** Requests received and not answered yet (delayed, hanging or stalled). */
  readonly pending: number;
  /** The fetch to give createFetchTransport. */
  readonly fetch: typeof fetch;
  /** Appends replies, used one per request in order; when they run out, the default reply is used. */
  script(...replies: Responder[]): void;
  /** The reply used when the script is empty (initially 200 with `{}`). */
  setDefault(reply: Responder): void;
  /**
   * Resolves once `count` requests have arrived in all (at once if they already have). Bounded:
   * rejects, saying what it waited for and what came, after `timeoutMs` of real time (10 s), or as
   * soon as the server has cut a runaway engine off.
   */
  received(count: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Resolves once at least `count` requests are held unanswered (a delay, a hang, a stall). Bounded as received(). */
  holding(count?: number, timeoutMs?: number): Promise<void>;
  /**
   * Set once more than `maxRequests` requests arrived: an engine that never stops uploading (a
   * flush that never ends, records sent again after a 2xx). From then on every request is refused,
   * so the engine's flush ends and the test goes on to fail with this error (Engine.close throws it).
   */
  readonly runaway: Error | null;
  /**
   * The server goes away: held requests fail at once (a reset) and later ones are refused, so
   * that closing an engine never waits on a request that nobody will answer.
   */
  close(): void;
}

const OK: Reply = { status: 200, json: {} };
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
export const SCRIPTED_URL = 'http://waypost.test/locations';

/**
 * A server in memory behind a `fetch`: every request is recorded, in order, and answered from a
 * script (status, headers, body, a delay on the injected clock, silence, a stalled body, a reset).
 * Given to createFetchTransport, requests go through the real HTTP port: headers, bodies,
 * compression, bounded reads, Retry-After, the timeout.
 */
export function createScriptedServer(options: {
  clock: Clock;
  replies?: Responder[];
  /** More requests than this is a runaway engine (default 5000; far above any test's needs). */
  maxRequests?: number;
  /** The real time received() and holding() wait by default (10 s). */
  waitMs?: number;
}): ScriptedServer {
  const { clock, maxRequests = 5000, waitMs = KIT_WAIT_MS } = options;
  let runaway: Error | null = null;
  const queue: Responder[] = [...(options.replies ?? [])];
  let fallback: Responder = OK;
  const requests: RecordedRequest[] = [];
  let pending = 0;
  let closed = false;
  /** Fails each held request at once (for close()). */
  const cutters = new Set<() => void>();
  const waiters = new Set<() => void>();
  const changed = () => [...waiters].forEach((wake) => wake());
  const waitFor = (ready: () => boolean, timeoutMs: number, what: () => string) => {
    let check = () => {};
    const met = new Promise<void>((resolve, reject) => {
      check = () => {
        if (!ready() && runaway === null) return;
        waiters.delete(check);
        if (ready()) resolve();
        else reject(runaway!);
      };
      waiters.add(check);
      check();
    });
    return within(met, timeoutMs, what).finally(() => waiters.delete(check));
  };
  const hold = () => {
    pending++;
    changed();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      pending--;
      changed();
    };
  };

  async function scriptedFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    const href = String(input instanceof Request ? input.url : input);
    const raw = await bodyBytes(init.body);
    const text = new TextDecoder().decode(raw);
    const parsed = new URL(href);
    const recorded: RecordedRequest = {
      method: init.method ?? 'GET',
      url: parsed.pathname + parsed.search,
      href,
      headers: lowerCased(init.headers),
      text,
      raw,
      body: parseJson(text),
      receivedAt: clock.now(),
    };
    if (closed || runaway) throw refused();
    requests.push(recorded);
    if (requests.length > maxRequests) {
      runaway = new Error(
        `scripted server: more than ${maxRequests} requests, so the engine was cut off: it never stops ` +
          `uploading (a flush that never ends, records sent again after a 2xx?); the last ones carried ` +
          `${requests
            .slice(-3)
            .map((r) => r.text.slice(0, 120))
            .join(' | ')}`,
      );
      changed();
      throw refused();
    }
    changed();
    const responder = queue.shift() ?? fallback;
    const reply = typeof responder === 'function' ? responder(recorded) : responder;
    const signal = cut(init.signal ?? undefined);
    if ('hang' in reply) {
      const release = hold();
      await aborted(signal);
      release();
      throw abortError();
    }
    if ('stall' in reply) {
      const release = hold();
      recorded.answered = reply.stall;
      return new Response(stalledBody(signal, release), {
        status: reply.stall,
        headers: { 'content-type': 'application/json' },
      });
    }
    const delay = reply.delayMs ?? 0;
    if (delay > 0) {
      const release = hold();
      try {
        await sleep(clock, delay, signal);
      } finally {
        release();
      }
    }
    if ('reset' in reply) {
      throw new TypeError('fetch failed', { cause: { code: reply.code ?? 'ECONNRESET', message: 'socket hang up' } });
    }
    recorded.answered = reply.status;
    return respond(reply);
  }

  /** The request's signal, also aborted when the server closes. */
  function cut(signal: AbortSignal | undefined): AbortSignal {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    if (signal?.aborted) abort();
    cutters.add(abort);
    return controller.signal;
  }

  return {
    url: SCRIPTED_URL,
    requests,
    get pending() {
      return pending;
    },
    fetch: scriptedFetch as typeof fetch,
    script: (...replies) => void queue.push(...replies),
    setDefault: (reply) => void (fallback = reply),
    get runaway() {
      return runaway;
    },
    received: async (count, timeoutMs = waitMs) => {
      await waitFor(
        () => requests.length >= count,
        timeoutMs,
        () => `request ${count} at the scripted server (${requests.length} arrived)`,
      );
      return requests[count - 1]!;
    },
    holding: (count = 1, timeoutMs = waitMs) =>
      waitFor(
        () => pending >= count,
        timeoutMs,
        () => `${count} request(s) held unanswered by the scripted server (${pending} are)`,
      ),
    close() {
      closed = true;
      for (const abort of cutters) abort();
      cutters.clear();
    },
  };
}

function respond(reply: { status: number; json?: unknown; text?: string; headers?: Record<string, string> }) {
  const headers: Record<string, string> = { ...reply.headers };
  let body: string | null = null;
  if (reply.text !== undefined) {
    headers['content-type'] ??= 'text/plain';
    body = reply.text;
  } else if (reply.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(reply.json);
  }
  return new Response(NULL_BODY_STATUSES.has(reply.status) ? null : body, { status: reply.status, headers });
}

async function bodyBytes(body: RequestInit['body']): Promise<Uint8Array> {
  if (body === undefined || body === null) return new Uint8Array();
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function lowerCased(headers: RequestInit['headers']): Record<string, string> {
  const result: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => (result[name.toLowerCase()] = value));
  return result;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const abortError = () => new DOMException('This operation was aborted', 'AbortError');
const refused = () =>
  new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } });

function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A delay on the injected clock, cut short (rejecting) when the request is aborted. */
function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const handle = clock.setTimeout(resolve, ms);
    void aborted(signal).then(() => {
      clock.clearTimeout(handle);
      reject(abortError());
    });
  });
}

/** A body that starts, then never ends: it errors when the request is aborted. */
function stalledBody(signal: AbortSignal | undefined, release: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"partial":'));
      void aborted(signal).then(() => {
        release();
        controller.error(abortError());
      });
    },
    cancel: () => release(),
  });
}
