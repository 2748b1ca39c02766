import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { COLUMNAR_TOKENS, decodeColumnar } from '@waypost/sdk/internal';

/**
 * A pass-through proxy in front of a real Waypost server that records which record uuids each
 * delivered upload carried, in order, and can hold uploads (no answer) to catch a page mid-upload.
 * The pages under test use the gate's origin, so the server they enroll with and upload to is the
 * real one behind it.
 */
export interface Gate {
  url: string;
  /** uuids of records in uploads the server answered 2xx, in the order they arrived. */
  delivered: string[];
  /**
   * From now on, uploads get no answer until release() or pass(); only the next `count` of them
   * when given (later ones go through). Resolves when the first one is held (20 s at most).
   */
  hold(count?: number): Promise<void>;
  /** Drops the held uploads' connections unanswered (the server never sees them) and stops holding. */
  release(): void;
  /** Sends the held uploads on to the server (answered as any other, late) and stops holding. */
  pass(): void;
  /** Resolves once every one of these uuids has been delivered; fails after 20 s naming those still missing. */
  delivers(uuids: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** How long a test waits on the gate before a hang becomes a failure that names what it waited for. */
const WAIT_MS = 20_000;

function bounded<T>(work: Promise<T>, what: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gate: ${what()} (waited ${WAIT_MS} ms)`)), WAIT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const isUpload = (req: http.IncomingMessage) => req.method === 'POST' && req.url?.split('?')[0] === '/locations';

function uuidsIn(body: string): string[] {
  try {
    const json = JSON.parse(body) as { location?: unknown };
    const records = Array.isArray(json.location) ? json.location : [json.location];
    return records.map((r) => (r as { uuid: string }).uuid);
  } catch {
    return [];
  }
}

/**
 * An upload's JSON body as the server reads it: the SDK sends it in the columnar coding or gzipped
 * once the server has said it takes them (docs/wire-format.md: columnar bytes, then raw deflate).
 */
function plainBody(coding: string | undefined, body: Buffer): string {
  if (coding !== undefined && coding in COLUMNAR_TOKENS) return decodeColumnar(inflateRawSync(body), 64 * 1024 * 1024);
  return (coding === 'gzip' ? gunzipSync(body) : body).toString('utf8');
}

export async function startGate(target: string): Promise<Gate> {
  const delivered: string[] = [];
  let holding = false;
  let holdsLeft = Infinity;
  let held: { res: http.ServerResponse; forward: () => void }[] = [];
  let onHeld: (() => void) | null = null;
  const waiters: { uuids: readonly string[]; resolve: () => void }[] = [];
  const settle = () => {
    const seen = new Set(delivered);
    for (const w of [...waiters]) {
      if (!w.uuids.every((u) => seen.has(u))) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = () => {
        const headers = { ...req.headers };
        delete headers.host;
        const upstream = http.request(target + req.url, { method: req.method, headers }, (reply) => {
          const parts: Buffer[] = [];
          reply.on('data', (c: Buffer) => parts.push(c));
          reply.on('end', () => {
            if (isUpload(req) && reply.statusCode! >= 200 && reply.statusCode! < 300) {
              delivered.push(...uuidsIn(plainBody(req.headers['content-encoding'], body)));
              settle();
            }
            res.writeHead(reply.statusCode!, reply.headers);
            res.end(Buffer.concat(parts));
          });
        });
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      };
      if (holding && isUpload(req)) {
        held.push({ res, forward });
        if (--holdsLeft === 0) holding = false;
        onHeld?.();
        return;
      }
      forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stopHolding = (each: (entry: (typeof held)[number]) => void) => {
    holding = false;
    onHeld = null;
    const entries = held;
    held = [];
    entries.forEach(each);
  };
  const release = () => stopHolding(({ res }) => res.socket?.destroy());
  return {
    url: `http://127.0.0.1:${port}`,
    delivered,
    hold(count = Infinity) {
      holding = true;
      holdsLeft = count;
      return bounded(new Promise((resolve) => (onHeld = resolve)), () => 'no upload arrived to hold');
    },
    release,
    pass: () => stopHolding(({ forward }) => forward()),
    delivers(uuids) {
      const waiting = new Promise<void>((resolve) => {
        waiters.push({ uuids, resolve });
        settle();
      });
      return bounded(waiting, () => {
        const missing = uuids.filter((u) => !delivered.includes(u));
        return `${missing.length} of ${uuids.length} record(s) never delivered: ${missing.slice(0, 5).join(', ')}`;
      });
    },
    async close() {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
